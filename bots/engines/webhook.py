"""An entrant's own bot behind an HTTP endpoint (a webhook).

For each judge message the arena POSTs JSON to the entry's ``url``::

    {"conversation": "<key>", "history": [{"role": "interrogator"|"witness", "text": "..."}, ...],
     "message": "<the judge's message>", "persona": {...}, "timestamp": 1700000000}

signed with the entry's ``secret``: header ``X-Arena-Timestamp`` is the same integer as ``timestamp``
and ``X-Arena-Signature`` is ``sha256=`` + hex HMAC-SHA256(secret, f"{timestamp}.{body}") over the
exact body bytes. The endpoint answers 200 with ``{"reply": "..."}``.

Timeouts, connection failures, 408/409/425/429 and 5xx are transient: tried again after 0.2 s and
0.4 s, then reported as ``EngineError(transient=True)``. Any other status, a redirect, a body that
is not JSON, larger than 64 KiB or without a string ``reply`` is a non-transient error.

The URL's host is resolved and vetted by the engine's ``outbound`` policy (:mod:`bots.netpolicy`; strict
unless the host lends another) at every connection, which goes to the vetted address itself; a refused
address is :class:`~bots.netpolicy.AddressNotAllowed` and nothing is sent. Every error's ``public`` text
is a neutral category: the detail (status, exception) is for the organiser's call log only.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import ssl
import time
import urllib.error
import urllib.request
from collections.abc import Mapping

from ..base import Engine, EngineSettingsError, ReplyContext, number_setting, text_setting
from ..http import remote_error, require, transient_status, url_setting, vetted_opener, with_retries
from ..netpolicy import STRICT, OutboundPolicy

MAX_RESPONSE_BYTES = 64 * 1024
TIMESTAMP_HEADER = "X-Arena-Timestamp"
SIGNATURE_HEADER = "X-Arena-Signature"
USER_AGENT = "turing-arena-webhook/1"


def sign(secret: str, timestamp: int | str, body: bytes) -> str:
    """The ``X-Arena-Signature`` value for ``body`` sent at ``timestamp``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def verify(
    secret: str, timestamp: str, body: bytes, signature: str, *, now: float | None = None, tolerance_s: float = 300
) -> bool:
    """What an endpoint checks: a fresh timestamp and a matching signature (constant-time compare)."""
    try:
        fresh = abs((time.time() if now is None else now) - int(timestamp)) <= tolerance_s
    except (TypeError, ValueError):
        return False
    return fresh and hmac.compare_digest(sign(secret, timestamp, body), signature)


def payload(context: ReplyContext, persona: Mapping[str, str], timestamp: int) -> dict:
    return {
        "conversation": context.conversation_key,
        "history": [{"role": turn.role, "text": turn.text} for turn in context.history],
        "message": context.message,
        "persona": dict(persona),
        "timestamp": timestamp,
    }


def post(url: str, body: bytes, headers: Mapping[str, str], timeout_s: float, policy: OutboundPolicy = STRICT) -> bytes:
    """POST ``body`` to an address ``policy`` allows; the response body (at most MAX_RESPONSE_BYTES) or
    an EngineError (:class:`~bots.netpolicy.AddressNotAllowed` for a refused address)."""
    request = urllib.request.Request(url, data=body, headers=dict(headers), method="POST")
    try:
        with vetted_opener(policy).open(request, timeout=timeout_s) as response:
            data = response.read(MAX_RESPONSE_BYTES + 1)
    except urllib.error.HTTPError as exc:
        exc.close()
        status = exc.code
        raise remote_error(f"webhook answered HTTP {status}", transient=transient_status(status)) from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, ssl.SSLError):
            raise remote_error(f"webhook TLS error: {type(exc.reason).__name__}", transient=False) from None
        if isinstance(exc.reason, TimeoutError):
            raise remote_error("webhook timed out", transient=True) from None
        raise remote_error(f"webhook unreachable: {type(exc.reason).__name__}", transient=True) from None
    except TimeoutError:
        raise remote_error("webhook timed out", transient=True) from None
    except OSError as exc:  # reset connection, truncated response, ...
        raise remote_error(f"webhook connection failed: {type(exc).__name__}", transient=True) from None
    except ValueError as exc:  # http.client: a URL or header it cannot send
        raise remote_error(f"webhook request refused by the client: {type(exc).__name__}", transient=False) from None
    if len(data) > MAX_RESPONSE_BYTES:
        raise remote_error(f"webhook response larger than {MAX_RESPONSE_BYTES} bytes", transient=False)
    return data


def parse_reply(data: bytes) -> str:
    try:
        document = json.loads(data)
    except ValueError:
        raise remote_error("webhook response is not JSON", transient=False) from None
    reply = document.get("reply") if isinstance(document, dict) else None
    if not isinstance(reply, str):
        raise remote_error('webhook response has no string "reply"', transient=False)
    if not reply.strip():
        raise remote_error("webhook reply is empty", transient=False)
    return reply


class WebhookEngine(Engine):
    name = "webhook"
    label = "Webhook (the entrant's own HTTP endpoint)"
    secret_keys = ("secret",)
    outbound_keys = ("url",)  # URLs the outbound policy judges (bots.netpolicy.outbound_settings_check)
    outbound: OutboundPolicy = STRICT  # the host lends its own (arena: ARENA_OUTBOUND_ALLOW)
    settings_spec = {
        "url": url_setting(help="the entrant's endpoint, http:// or https://"),
        "secret": text_setting(max_length=500, help="shared secret for the HMAC-SHA256 signature (16+ characters)"),
        "timeout_s": number_setting(10, minimum=0.05, maximum=120, help="seconds to wait for each attempt"),
    }
    retry_delays = (0.2, 0.4)
    sleep = staticmethod(time.sleep)  # between retries; tests replace it
    clock = staticmethod(time.time)

    @classmethod
    def check_settings(cls, cleaned: dict) -> None:
        require(cleaned, "url", "secret")
        if len(cleaned["secret"]) < 16:
            raise EngineSettingsError("secret", "must be at least 16 characters")

    def request(self, context: ReplyContext) -> tuple[bytes, dict[str, str]]:
        """The signed body and headers of one attempt (signed afresh, so retries carry a fresh timestamp)."""
        timestamp = int(self.clock())
        persona = {**self.settings["persona"], **context.persona}
        body = json.dumps(payload(context, persona, timestamp), ensure_ascii=False).encode()
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            TIMESTAMP_HEADER: str(timestamp),
            SIGNATURE_HEADER: sign(self.settings["secret"], timestamp, body),
        }
        return body, headers

    def reply(self, context: ReplyContext) -> str:
        def attempt() -> str:
            body, headers = self.request(context)
            return parse_reply(post(self.settings["url"], body, headers, self.settings["timeout_s"], self.outbound))

        return with_retries(attempt, delays=self.retry_delays, sleep=self.sleep)
