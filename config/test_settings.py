"""Settings for the test suite: the environment decides the mode, exactly as in production."""

import os

from config.settings import *  # noqa: F403  the platform's settings, with the suite's changes below

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed, tests only
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# A live daphne of the suite runs no periodic sweeps of its own: tests drive them (core.embedded_beat.beat_tick)
ARENA_EMBEDDED_BEAT = False

# Services mode with DEBUG off (the default) asks a deployment for its signing key (arena.E004); the
# suite, and the servers it starts, share one generated into the data dir.
if not ARENA_SIGNING_KEY and not ARENA_SIGNING_KEY_FILE:  # noqa: F405  from the platform's settings
    ARENA_SIGNING_KEY_FILE = DATA_DIR / "transcript-signing-key.pem"  # noqa: F405  from the platform's settings

# The suite's stub servers (webhook, LLM) listen on loopback; tests of the outbound policy empty this.
ARENA_OUTBOUND_ALLOW = ["127.0.0.1/32", "::1/128"]

# One id per test run, inherited by the processes the run starts (a live daphne server), so that
# they all agree on the run's database and Redis key space.
RUN_ID = os.environ.setdefault("ARENA_TEST_RUN_ID", str(os.getpid()))

# One test database per test run, so that runs side by side (several checkouts, editors, CI) never
# share it; a live daphne child is handed this name explicitly (tests/conftest.py).
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405  from the platform's settings
    DATABASES["default"]["TEST"]["NAME"] = DATA_DIR / f"test_arena_{RUN_ID}.sqlite3"  # noqa: F405  from the platform's settings
else:
    DATABASES["default"]["TEST"]["NAME"] = f"test_{DATABASES['default']['NAME']}_{RUN_ID}"  # noqa: F405  from the platform's settings
    # each process's sessions carry its pid, so a test can end a server's sessions and spare its own
    DATABASES["default"].setdefault("OPTIONS", {})["application_name"] = f"arena-test-{os.getpid()}"  # noqa: F405  from the platform's settings

# Runs side by side share one Redis: give each its own key space for the broker, the results and the
# channel layer, so that no worker or page of one run ever sees another run's tasks or pushes. The
# processes of a parallel run (pytest-xdist: gw0, gw1, ...) are runs of their own in this respect: each
# has its own test database (pytest-django's suffix) and its own key space here, and the servers and
# workers a process starts inherit its PYTEST_XDIST_WORKER.
WORKER_ID = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL:  # noqa: F405  from the platform's settings
    _prefix = f"test{RUN_ID}{WORKER_ID}:"
    CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": _prefix}
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"global_keyprefix": _prefix}
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"asgi-{_prefix}"  # noqa: F405  from the platform's settings
    CACHES["default"]["KEY_PREFIX"] = f"arena-{_prefix}"  # noqa: F405  from the platform's settings; the per-user rate-limit counters
