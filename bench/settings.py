"""Settings of every process of a benchmark run (the benchmark, its daphne, its Celery workers, its
own child processes): the project's own, config.settings, plus

- the bench-only app `bench.tutorial` (the Channels tutorial's chat, a baseline of bench.chat_latency);
- when bench.harness runs them (ARENA_BENCH_CHANNEL_PREFIX set) with Redis: the run's private key
  prefix for the channel layer, the Celery broker and its results, and the cache (the rate limiter's
  per-user counters), so that a run touches no other key of its Redis database and removes every key
  it made; and, with redis-py >= 8 and a plain host URL,
  socket_timeout=None (without it every websocket of a daphne that has no channel traffic for ~5 s is
  closed with 1011, django/channels_redis#422) unless ARENA_BENCH_AS_CONFIGURED is set.  BENCH_NOTE
  says so when it was lifted.
"""

import copy
import os

from bench.harness import AS_CONFIGURED_ENV, PREFIX_ENV
from config.env import env
from config.settings import *  # noqa: F403  the platform's settings, with the benchmarks' changes below
from config.settings import CHANNEL_LAYERS as PROJECT_CHANNEL_LAYERS
from config.settings import INSTALLED_APPS as PROJECT_APPS

INSTALLED_APPS = [*PROJECT_APPS, "bench.tutorial"]
ASGI_APPLICATION = "bench.asgi.application"
CHANNEL_LAYERS = copy.deepcopy(PROJECT_CHANNEL_LAYERS)
BENCH_NOTE = None

# The memory diagnostic of the run's daphne (bench._memdiag, started by bench.asgi; bench.soak --memdiag).
# Off by default. A file path: daphne appends, every ARENA_MEMDIAG_S seconds, one JSON line of what
# its process holds (RSS, malloc, object counts by type, per-channel state; with
# ARENA_MEMDIAG_TRACEMALLOC, the source lines whose allocations grew).
ARENA_MEMDIAG = env.str("ARENA_MEMDIAG", "")
ARENA_MEMDIAG_S = env.float("ARENA_MEMDIAG_S", 60.0, minimum=1.0, maximum=3600.0)
ARENA_MEMDIAG_TRACEMALLOC = env.bool("ARENA_MEMDIAG_TRACEMALLOC", False)

_prefix = os.environ.get(PREFIX_ENV)
_layer = CHANNEL_LAYERS["default"]
if _prefix and CACHES["default"]["BACKEND"].endswith(".RedisCache"):  # noqa: F405  CACHES: the platform's settings
    # the cache holds the rate limiter's per-user counters, keyed by user id: ids repeat from run to
    # run (each run its own database), so runs sharing a Redis shared their users' budgets
    CACHES = copy.deepcopy(CACHES)  # noqa: F405  CACHES: the platform's settings
    CACHES["default"]["KEY_PREFIX"] = _prefix + CACHES["default"].get("KEY_PREFIX", "")
if _prefix and _layer["BACKEND"].endswith(".RedisChannelLayer"):
    _config = _layer.setdefault("CONFIG", {})
    _config["prefix"] = _prefix
    CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": _prefix}
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"global_keyprefix": _prefix}
    # redis-py >= 8 reads with a 5 s socket timeout by default, as long as channels_redis's blocking
    # BZPOPMIN (5 s): a daphne with no channel message for ~5 s raises TimeoutError in a consumer and
    # the websocket is closed with 1011 (django/channels_redis#422).  Lifting it changes no latency.
    import redis

    _hosts = _config.get("hosts", [])
    _plain = all(isinstance(h, str) and "socket_timeout" not in h for h in _hosts)
    if _hosts and _plain and int(redis.__version__.split(".")[0]) >= 8 and not os.environ.get(AS_CONFIGURED_ENV):
        _config["hosts"] = [{"address": h, "socket_timeout": None} for h in _hosts]
        BENCH_NOTE = (
            "the project's channel layer keeps redis-py 8's 5 s socket timeout, which closes idle "
            "websockets after ~5 s (1011, django/channels_redis#422); lifted for this run "
            "(--as-configured to keep it)"
        )
