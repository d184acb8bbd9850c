"""How the platform's Redis clients meet a Redis that went away and came back.

A pooled connection that Redis closed (a restart, a failover, an idle timeout) is found broken only when
it is next used: without a retry, that request fails (a 500, a websocket closed with 1011) although Redis
is up again. The cache's clients (the rate limits, the results cache) and the channel layer's retry a
command that met a broken connection on a fresh one, twice, after 50 and 100 ms; the cache's also check a
connection idle for ``HEALTH_CHECK_S`` with a PING before using it. A Redis still down fails as before,
within a fraction of a second more."""

from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

RETRIES = 2
HEALTH_CHECK_S = 15
CONNECT_TIMEOUT_S = 2


def _backoff() -> ExponentialBackoff:
    return ExponentialBackoff(cap=0.2, base=0.05)


def cache_options() -> dict:
    """OPTIONS of Django's RedisCache (its connection pool's keyword arguments)."""
    return {
        "retry": Retry(_backoff(), RETRIES),
        "health_check_interval": HEALTH_CHECK_S,
        "socket_connect_timeout": CONNECT_TIMEOUT_S,
    }


def layer_host(address: str) -> dict:
    """One host of the channel layer: no socket timeout (redis-py's default of 5 s equals the layer's
    blocking wait, and an idle websocket's consumer would die with TimeoutError: django/channels_redis#422),
    and the retry."""
    return {"address": address, "socket_timeout": None, "retry": AsyncRetry(_backoff(), RETRIES)}
