"""Typed readers for settings that come from the environment.

Every reader fails loudly (ImproperlyConfigured) on a value it cannot parse, so a typo in a
deployment never silently falls back to a default.
"""
import os
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value


def env_bool(name: str, default: bool) -> bool:
    value = env_str(name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: expected one of true/false, 1/0, yes/no, on/off")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    value = env_str(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected an integer") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number}: must be at least {minimum}")
    return number


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    value = env_str(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a number") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ImproperlyConfigured(f"{name}={value!r}: expected a finite number")
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number}: must be at least {minimum}")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = env_str(name)
    if value is None:
        return default
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a comma-separated list")
    return items


def parse_database_url(url: str, *, name: str = "DATABASE_URL") -> dict:
    """postgres://user:pass@host:port/dbname?sslmode=require -> a Django DATABASES entry."""
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
        raise ImproperlyConfigured(
            f"{name}: unsupported scheme {parts.scheme!r}; use postgres://user@host:port/db or sqlite:///path"
        )
    if parts.scheme == "sqlite":
        path = unquote(parts.path)
        if path.startswith("/") and parts.netloc == "":
            path = path[1:] if path.startswith("//") else path
        if not path:
            raise ImproperlyConfigured(f"{name}: sqlite:///path needs a file path")
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": path, "TEST": {"NAME": path + ".test"}}
    db = unquote(parts.path.lstrip("/"))
    if not db:
        raise ImproperlyConfigured(f"{name}: the URL names no database (postgres://user@host:5432/<db>)")
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured(f"{name}: the port is not a number") from None
    options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": db,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(port or ""),
        "OPTIONS": options,
        "CONN_MAX_AGE": 60,
        # A health check costs a SELECT 1 before every ORM call a consumer makes; a dead connection
        # fails one query instead and is then replaced.
        "CONN_HEALTH_CHECKS": False,
        # An explicit test name: channels' forked live server otherwise computes test_test_<db>.
        "TEST": {"NAME": f"test_{db}"},
    }


def check_redis_url(url: str, *, name: str = "REDIS_URL") -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(f"{name}: expected redis://host:port/db, got {url!r}")
    if parts.scheme != "unix" and not parts.hostname:
        raise ImproperlyConfigured(f"{name}: the URL names no host")
    return url
