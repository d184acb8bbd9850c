"""The computed results live in Django's cache (Redis in services mode, so every daphne process and worker
shares them), keyed by what was asked and by a version number.  The version changes only when a service
records something that changes results (`arena.services.results_version_bump`, after its commit): a
request never recomputes what an earlier request, in any process, already computed for that version."""

import hashlib
import time

from django.core.cache import cache

VERSION_KEY = "arena:results:version"
RESULTS_CACHE_S = 24 * 3600  # a day at most, even if a bump were lost


def _fresh() -> int:
    # a version that was never used before, even if the cache lost the key (restart, eviction)
    return time.time_ns() // 1000


def results_version() -> int:
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, _fresh(), timeout=None)
        version = cache.get(VERSION_KEY)
    return int(version)


def version_bump() -> None:
    client = getattr(cache, "_cache", None)
    if hasattr(client, "get_client"):  # Django's Redis cache: SET NX a fresh version, then INCR, one round trip
        key = cache.make_and_validate_key(VERSION_KEY)
        pipe = client.get_client(key, write=True).pipeline(transaction=False)
        pipe.set(key, _fresh(), nx=True)
        pipe.incr(key)
        pipe.execute()
        return
    try:  # cache.incr is EXISTS then INCRBY on Redis: two round trips
        cache.incr(VERSION_KEY)
    except ValueError:  # not there (yet, or any more)
        cache.add(VERSION_KEY, _fresh(), timeout=None)


def results_cached(name: str, key: str, compute):
    """compute() once per (name, key, version); the value must be picklable."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    cache_key = f"arena:results:{name}:{results_version()}:{digest}"
    value = cache.get(cache_key)
    if value is None:
        value = compute()
        cache.set(cache_key, value, RESULTS_CACHE_S)
    return value
