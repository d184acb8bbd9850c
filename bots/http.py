"""Small helpers shared by the engines that call remote servers (llm, webhook): URL settings, retries."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from .base import EngineError, EngineSettingsError, Setting

T = TypeVar("T")

# HTTP statuses worth trying again: request timeout, conflict, too many requests, and any 5xx.
TRANSIENT_STATUSES = frozenset({408, 409, 425, 429})


def transient_status(status: int) -> bool:
    return status in TRANSIENT_STATUSES or status >= 500


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
            parts.port  # noqa: B018 -- raises ValueError on a bad port
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
