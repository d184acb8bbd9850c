"""Settings from the environment that fail loudly: django-environ's `Env` with strict casts.

`env = StrictEnv()` reads like any django-environ settings file (`env.bool("DEBUG", True)`,
`env.db_url()`), but a value it cannot take raises ImproperlyConfigured naming the variable and the
value, where django-environ would quietly read "maybe" as False, "2.5s" as the float 2.5 or raise a
bare ValueError. An unset or empty variable takes its default; a value is taken literally (no
django-environ "$OTHER" proxy: a secret key may start with "$").

- bool: exactly true/false, 1/0, yes/no, on/off (any case);
- int and float: Python's own parsing, finite numbers only, an optional minimum and maximum;
- list: comma-separated, items stripped, at least one;
- cidrs: a list of IP networks ("10.0.5.0/24, ::1"), each normalised ("10.0.5.7/24" is refused: host
  bits set);
- ed25519_private_key / ed25519_public_keys: base64 of the key's 32 bytes, or PEM (core.signing);
  a bad private key is named, never echoed;
- db_url: postgres://user:pass@host:port/db?option=value or sqlite:///path (an absolute path, as
  this project has always read it), parsed by django-environ; the error names the URL without its
  password.
"""

from __future__ import annotations

import ipaddress
import math
from urllib.parse import urlsplit, urlunsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from core.hashchain import public_key_load
from core.signing import private_key_load

BOOLEANS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}
DATABASE_SCHEMES = {"postgres", "postgresql", "pgsql", "sqlite"}
REDIS_SCHEMES = {"redis", "rediss", "unix"}


class StrictEnv(environ.Env):
    def raw(self, var: str) -> str | None:
        """The variable as set, None when unset or empty."""
        return self.ENVIRON.get(self.prefix + var) or None

    def str(self, var: str, default: str | None = None, multiline: bool = False) -> str | None:
        value = self.raw(var)
        return default if value is None else value

    def bool(self, var: str, default: bool) -> bool:
        value = self.raw(var)
        if value is None:
            return default
        if value.lower() not in BOOLEANS:
            raise bad(var, value, "expected one of true/false, 1/0, yes/no, on/off")
        return self.parse_value(value.lower(), bool)

    def int(self, var: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
        return self._number(var, default, int, "an integer", minimum, maximum)

    def float(self, var: str, default: float, *, minimum: float | None = None, maximum: float | None = None) -> float:
        return self._number(var, default, float, "a finite number", minimum, maximum)

    def _number(self, var, default, kind, expected, minimum, maximum=None):
        value = self.raw(var)
        if value is None:
            return default
        try:
            number = kind(value)  # int() or float(): django-environ's float cast drops letters ("1e3" -> 13.0)
        except ValueError:
            raise bad(var, value, f"expected {expected}") from None
        if not math.isfinite(number):
            raise bad(var, value, f"expected {expected}")
        if minimum is not None and number < minimum:
            raise bad(var, value, f"must be at least {minimum}")
        if maximum is not None and number > maximum:
            raise bad(var, value, f"must be at most {maximum}")
        return number

    def list(self, var: str, default: list[str]) -> list[str]:
        value = self.raw(var)
        if value is None:
            return default
        items = [item.strip() for item in self.parse_value(value, list) if item.strip()]
        if not items:
            raise bad(var, value, "expected a comma-separated list")
        return items

    def cidrs(self, var: str, default: list[str]) -> list[str]:
        value = self.raw(var)
        if value is None:
            return default
        networks = []
        for item in self.list(var, default):
            try:
                networks.append(str(ipaddress.ip_network(item)))
            except ValueError as exc:
                raise bad(var, value, f"{item!r} is not an IP network ({exc})") from None
        return networks

    def ed25519_private_key(self, var: str) -> str | None:
        """The key's text, checked (base64 of 32 bytes, or PEM); the error does not repeat a secret."""
        value = self.raw(var)
        if value is not None:
            try:
                private_key_load(value)
            except ValueError as error:
                raise ImproperlyConfigured(
                    f"{var} (hidden): {error}; expected an Ed25519 private key, base64 of its 32 bytes or PEM"
                ) from None
        return value

    def ed25519_public_keys(self, var: str) -> list[str]:
        """Comma-separated base64 public keys, each checked; empty when unset."""
        keys = self.list(var, [])
        for key in keys:
            try:
                public_key_load(key)
            except ValueError as error:
                raise bad(var, key, f"{error}; expected Ed25519 public keys, base64 of 32 bytes each") from None
        return keys

    def db_url(self, var: str = "DATABASE_URL", default: dict | None = None) -> dict | None:
        value = self.raw(var)
        return default if value is None else database(value, var)

    def redis_url(self, var: str = "REDIS_URL") -> str | None:
        value = self.raw(var)
        if value is not None:
            parts = urlsplit(value)
            if parts.scheme not in REDIS_SCHEMES:
                raise bad(var, value, "expected redis://host:port/db")
            if parts.scheme != "unix" and not parts.hostname:
                raise bad(var, value, "the URL names no host")
        return value


def bad(var: str, value: str, problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"{var}={value!r}: {problem}")


def database(url: str, var: str = "DATABASE_URL") -> dict:
    """A Django DATABASES entry for the URL; the postgres and sqlite forms the project has always read."""
    parts = urlsplit(url)
    shown = _without_password(url, parts)
    if parts.scheme not in DATABASE_SCHEMES:
        raise bad(
            var, shown, f"unsupported scheme {parts.scheme!r}; use postgres://user@host:port/db or sqlite:///path"
        )
    if parts.scheme == "sqlite":
        if not parts.path.strip("/"):
            raise bad(var, shown, "sqlite:///path needs a file path")
        name = "/" + environ.Env.db_url_config(url)["NAME"].lstrip("/")
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": name, "TEST": {"NAME": name + ".test"}}
    try:
        config = environ.Env.db_url_config(url)
    except ValueError:  # urllib: a port that is not a number
        raise bad(var, shown, "the port is not a number") from None
    if not config["NAME"]:
        raise bad(var, shown, "the URL names no database (postgres://user@host:5432/<db>)")
    return config | {
        "PORT": str(config["PORT"]),
        "OPTIONS": config.get("OPTIONS", {}),
        "CONN_MAX_AGE": config.get("CONN_MAX_AGE", 60),
        # A persistent connection is checked (SELECT 1) before its first query in each request or consumer
        # database call: one that PostgreSQL closed (a restart) is replaced rather than failing the page
        # or the socket that meets it, for a round trip a call (CONN_HEALTH_CHECKS=False in the URL's
        # query string turns it off).
        "CONN_HEALTH_CHECKS": config.get("CONN_HEALTH_CHECKS", True),
        # An explicit test name: channels' forked live server otherwise computes test_test_<db>.
        "TEST": {"NAME": f"test_{config['NAME']}"},
    }


def _without_password(url: str, parts) -> str:
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)))


env = StrictEnv()
