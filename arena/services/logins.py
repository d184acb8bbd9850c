"""Log-ins and sign-ups held back from guessing and flooding, counted in the cache (Redis in services mode)
by :func:`core.ratelimit.window_hit`.

- A failed log-in counts against its client address (``ARENA_LOGIN_FAILURES_PER_ADDRESS``) and against the
  username it named (``ARENA_LOGIN_FAILURES_PER_ACCOUNT``), each in a window of ``ARENA_LOGIN_LOCKOUT_S``
  seconds that begins with its first failure. Past either, every log-in from that address, or for that
  username, is refused before its password is checked, until the window ends (the lockout resets itself);
  a log-in that succeeds clears its username's failures. A username counts whether or not an account has
  it, so a lockout tells nothing about which accounts exist.
- Every sign-up attempt counts against its client address (``ARENA_SIGNUP_PER_ADDRESS`` in
  ``ARENA_SIGNUP_WINDOW_S`` seconds), whether it succeeds or not: past it, sign-ups from that address are
  refused until the window ends.

The client address is the connection's (``REMOTE_ADDR``: daphne's ``--proxy-headers`` puts the proxy's
``X-Forwarded-For`` there).
"""

import hashlib
import math

from django.conf import settings

from core.ratelimit import window_clear, window_hit, window_read


def client_address(request) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


def _account_key(username: str) -> str:
    name = (username or "").strip().casefold().encode("utf-8", "surrogatepass")
    return f"login:account:{hashlib.sha256(name).hexdigest()}"


def _address_key(kind: str, address: str) -> str:
    return f"{kind}:address:{address[:64]}"


def _minutes(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return "a minute" if minutes == 1 else f"{minutes} minutes"


def login_refusal(*, address: str, username: str) -> str | None:
    """Why a log-in from ``address`` for ``username`` is refused before its password is checked; None
    when it may be tried."""
    for key, limit in (
        (_address_key("login", address), settings.ARENA_LOGIN_FAILURES_PER_ADDRESS),
        (_account_key(username), settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT),
    ):
        hits = window_read(key=key)
        if hits.count >= limit:
            return f"Too many failed log-ins: try again in {_minutes(hits.reset_s)}."
    return None


def login_failed(*, address: str, username: str) -> None:
    window = settings.ARENA_LOGIN_LOCKOUT_S
    window_hit(key=_address_key("login", address), window_s=window)
    window_hit(key=_account_key(username), window_s=window)


def login_succeeded(*, username: str) -> None:
    window_clear(key=_account_key(username))


def signup_refusal(*, address: str) -> str | None:
    """Count one sign-up attempt from ``address``; why it is refused, or None."""
    hit = window_hit(key=_address_key("signup", address), window_s=settings.ARENA_SIGNUP_WINDOW_S)
    if hit.count > settings.ARENA_SIGNUP_PER_ADDRESS:
        return f"Too many sign-ups from your address: try again in {_minutes(hit.reset_s)}."
    return None
