"""Small helpers shared by the engines that call remote servers (llm, webhook): URL settings, retries,
and a urllib opener that connects only to addresses an :class:`~bots.netpolicy.OutboundPolicy` allows."""

from __future__ import annotations

import functools
import http.client
import time
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from .base import EngineError, EngineSettingsError, Setting
from .netpolicy import NO_VALID_REPLY, OutboundPolicy

T = TypeVar("T")

# HTTP statuses worth trying again: request timeout, conflict, too many requests, and any 5xx.
TRANSIENT_STATUSES = frozenset({408, 409, 425, 429})


def transient_status(status: int) -> bool:
    return status in TRANSIENT_STATUSES or status >= 500


def remote_error(detail: str, *, transient: bool) -> EngineError:
    """A remote server's failure: ``detail`` (status, exception) for the organiser's call log, and the
    neutral :data:`~bots.netpolicy.NO_VALID_REPLY` for anyone else, which says nothing of what answered."""
    return EngineError(detail, transient=transient, public=NO_VALID_REPLY)


def url_setting(default: str = "", *, help: str = "") -> Setting:
    """An absolute http(s) URL with a host and no credentials in it ("" = not set)."""

    def clean(key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise EngineSettingsError(key, f"must be a string, not {type(value).__name__}")
        value = value.strip()
        if not value:
            return ""
        if len(value) > 2000 or any(ch.isspace() or ord(ch) < 32 for ch in value):
            raise EngineSettingsError(key, "must be a URL without spaces or control characters")
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018  reading it raises ValueError on a bad port
        except ValueError:
            raise EngineSettingsError(key, "must be a valid URL") from None
        if parts.scheme not in ("http", "https"):
            raise EngineSettingsError(key, "must be an http:// or https:// URL")
        if not parts.hostname:
            raise EngineSettingsError(key, "must name a host")
        if parts.username is not None or parts.password is not None:
            raise EngineSettingsError(key, "must not contain credentials (use the secret setting)")
        return value

    return Setting(default, clean, help)


def choice_setting(default: str, choices: Sequence[str], *, help: str = "") -> Setting:
    """One of ``choices``."""

    def clean(key: str, value: Any) -> str:
        if value not in choices:
            raise EngineSettingsError(key, f"must be one of {', '.join(map(repr, choices))}")
        return value

    return Setting(default, clean, help)


def require(cleaned: dict, *keys: str) -> None:
    """Raise :class:`EngineSettingsError` for the first of ``keys`` that is empty."""
    for key in keys:
        if not cleaned.get(key):
            raise EngineSettingsError(key, "is required")


def with_retries(
    call: Callable[[], T],
    *,
    delays: Sequence[float] = (0.2, 0.4),
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """``call()``, tried again after each delay in ``delays`` while it raises a transient EngineError."""
    for delay in delays:
        try:
            return call()
        except EngineError as exc:
            if not exc.transient:
                raise
        sleep(delay)
    return call()


# --- urllib, through the outbound policy -----------------------------------------------------------


class _VettedConnectionMixin:
    """http.client connects through ``_create_connection((host, port), timeout, source_address)``;
    here that resolves the host, vets every address and connects to a vetted one (no second lookup
    to rebind). The Host header and, for https, SNI and the certificate check keep the URL's name."""

    def __init__(self, *args, policy: OutboundPolicy, **kwargs) -> None:
        super().__init__(*args, **kwargs)

        def connect(address, timeout=None, source_address=None):
            host, port = address
            return policy.connect(host, port, timeout, source_address)

        self._create_connection = connect


class VettedHTTPConnection(_VettedConnectionMixin, http.client.HTTPConnection):
    pass


class VettedHTTPSConnection(_VettedConnectionMixin, http.client.HTTPSConnection):
    pass


class _VettedHTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, policy: OutboundPolicy) -> None:
        super().__init__()
        self.policy = policy

    def http_open(self, req):
        return self.do_open(functools.partial(VettedHTTPConnection, policy=self.policy), req)


class _VettedHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, policy: OutboundPolicy) -> None:
        super().__init__()  # the default context: certificates and host names verified
        self.policy = policy

    def https_open(self, req):
        return self.do_open(functools.partial(VettedHTTPSConnection, policy=self.policy), req, context=self._context)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 3xx is answered as an error: nothing is sent to where it points


@functools.lru_cache(maxsize=32)
def vetted_opener(policy: OutboundPolicy) -> urllib.request.OpenerDirector:
    """A urllib opener that reaches only what ``policy`` allows: every connection resolved and vetted
    (:meth:`OutboundPolicy.connect`), no proxy from the environment (a proxy would resolve the name
    itself), redirects not followed. A refused address raises :class:`~bots.netpolicy.AddressNotAllowed`
    before anything is sent."""
    return urllib.request.build_opener(
        urllib.request.ProxyHandler({}), _NoRedirect, _VettedHTTPHandler(policy), _VettedHTTPSHandler(policy)
    )
