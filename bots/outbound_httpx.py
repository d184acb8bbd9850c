"""An ``httpx2`` transport (the HTTP client of the ``openai`` SDK) that reaches only what an
:class:`~bots.netpolicy.OutboundPolicy` allows.

Each request, the first and every redirect the client follows, has its host resolved and every
address vetted; the request then goes to a vetted address itself (so the name is not looked up again
by the connection: no DNS rebinding), with the original ``Host`` header and, for https, the original
name for SNI and the certificate check (httpcore's ``sni_hostname`` extension). No proxy from the
environment (httpx mounts none beside an explicit transport): a proxy would resolve the name itself.

Imported on first use by :class:`bots.engines.llm.OpenAIBackend` (httpx2 comes with openai).
"""

from __future__ import annotations

import httpx2

from .netpolicy import OutboundPolicy

DEFAULT_PORTS = {"http": 80, "https": 443}


class VettedTransport(httpx2.BaseTransport):
    def __init__(self, policy: OutboundPolicy) -> None:
        self.policy = policy
        self._inner = httpx2.HTTPTransport()  # verifies certificates (SSL_CERT_FILE honoured); no proxy

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        url = request.url
        host = url.host
        port = url.port or DEFAULT_PORTS.get(url.scheme, 80)
        addresses = self.policy.resolve(host, port)  # raises AddressNotAllowed before anything is sent
        extensions = dict(request.extensions)
        if url.scheme == "https":
            extensions["sni_hostname"] = host
        error: httpx2.ConnectError | None = None
        for address in addresses:
            vetted = httpx2.Request(
                request.method,
                url.copy_with(host=str(address)),
                headers=request.headers,
                stream=request.stream,
                extensions=extensions,
            )
            try:
                return self._inner.handle_request(vetted)
            except httpx2.ConnectError as exc:  # nothing was sent: the next address may answer
                error = exc
        assert error is not None
        raise error

    def close(self) -> None:
        self._inner.close()


def vetted_client(policy: OutboundPolicy, **kwargs) -> httpx2.Client:
    """The openai SDK's default client (its timeouts, limits, redirects followed) over :class:`VettedTransport`."""
    import openai

    return openai.DefaultHttpxClient(transport=VettedTransport(policy), trust_env=False, **kwargs)
