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

from ..base import Engine, EngineError, EngineSettingsError, ReplyContext, number_setting, text_setting
from ..http import require, transient_status, url_setting, with_retries

MAX_RESPONSE_BYTES = 64 * 1024
TIMESTAMP_HEADER = "X-Arena-Timestamp"
SIGNATURE_HEADER = "X-Arena-Signature"
USER_AGENT = "turing-arena-webhook/1"


def sign(secret: str, timestamp: int | str, body: bytes) -> str:
    """The ``X-Arena-Signature`` value for ``body`` sent at ``timestamp``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def verify(secret: str, timestamp: str, body: bytes, signature: str, *, now: float | None = None,
           tolerance_s: float = 300) -> bool:
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


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 3xx is answered as an error: the signed body must not be re-sent elsewhere


_opener = urllib.request.build_opener(_NoRedirect)


def post(url: str, body: bytes, headers: Mapping[str, str], timeout_s: float) -> bytes:
    """POST ``body``; the response body (at most MAX_RESPONSE_BYTES) or an EngineError."""
    request = urllib.request.Request(url, data=body, headers=dict(headers), method="POST")
    try:
        with _opener.open(request, timeout=timeout_s) as response:
            data = response.read(MAX_RESPONSE_BYTES + 1)
    except urllib.error.HTTPError as exc:
        exc.close()
        status = exc.code
        raise EngineError(f"webhook answered HTTP {status}", transient=transient_status(status)) from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, ssl.SSLError):
            raise EngineError(f"webhook TLS error: {type(exc.reason).__name__}", transient=False) from None
        if isinstance(exc.reason, TimeoutError):
            raise EngineError("webhook timed out", transient=True) from None
        raise EngineError(f"webhook unreachable: {type(exc.reason).__name__}", transient=True) from None
    except TimeoutError:
        raise EngineError("webhook timed out", transient=True) from None
    except OSError as exc:  # reset connection, truncated response, ...
        raise EngineError(f"webhook connection failed: {type(exc).__name__}", transient=True) from None
    if len(data) > MAX_RESPONSE_BYTES:
        raise EngineError(f"webhook response larger than {MAX_RESPONSE_BYTES} bytes", transient=False)
    return data


def parse_reply(data: bytes) -> str:
    try:
        document = json.loads(data)
    except ValueError:
        raise EngineError("webhook response is not JSON", transient=False) from None
    reply = document.get("reply") if isinstance(document, dict) else None
    if not isinstance(reply, str):
        raise EngineError('webhook response has no string "reply"', transient=False)
    if not reply.strip():
        raise EngineError("webhook reply is empty", transient=False)
    return reply


class WebhookEngine(Engine):
    name = "webhook"
    label = "Webhook (the entrant's own HTTP endpoint)"
    secret_keys = ("secret",)
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
            return parse_reply(post(self.settings["url"], body, headers, self.settings["timeout_s"]))

        return with_retries(attempt, delays=self.retry_delays, sleep=self.sleep)
