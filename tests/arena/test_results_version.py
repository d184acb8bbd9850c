"""The results' version number, on the embedded cache and on Redis: every bump moves it, and a version
the cache lost (a restart, an eviction) comes back as one never used before, so no page is served
results computed for an older version."""

import os

import pytest

from tests.conftest import redis_available


@pytest.fixture(params=["locmem", "redis"])
def results_cache(request, settings):
    if request.param == "redis":
        url = settings.REDIS_URL or "redis://127.0.0.1:6379/0"
        if not redis_available(url):
            pytest.skip("no Redis server reachable (set REDIS_URL)")
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": url,
                "KEY_PREFIX": f"arena-test-version-{os.getpid()}",
            }
        }
    else:
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": f"arena-test-version-{os.getpid()}",
            }
        }
    from django.core.cache import cache

    from arena.results.cache import VERSION_KEY

    cache.delete(VERSION_KEY)
    yield cache
    cache.delete(VERSION_KEY)


def test_every_bump_moves_the_version_and_a_lost_version_comes_back_new(results_cache):
    from arena.results.cache import VERSION_KEY, results_version, version_bump

    first = results_version()
    version_bump()
    version_bump()
    assert results_version() == first + 2
    results_cache.delete(VERSION_KEY)
    version_bump()  # the key was lost: a fresh version, later than any before
    assert results_version() > first + 2
