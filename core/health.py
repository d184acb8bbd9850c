"""What ``/healthz`` reports: each dependency the platform needs, checked now, each with a time limit.

- database: a ``SELECT 1`` on the default connection;
- channel layer: a round trip to the layer's Redis (the in-memory layer of the embedded default is
  part of the process: always up);
- broker: a connection to Celery's broker (tasks run in-process in the embedded default: up);
- cache: a write and a read through the cache's own connection pool, the one every request's rate
  limits use (Redis in services mode; this process's memory in the embedded default), so a pool whose
  connections Redis closed answers here as it would answer a request.

A load balancer reads the status code (503 when any is down); a person reads the JSON.
"""

import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as Timeout

from django.conf import settings
from django.db import connection

TIMEOUT_S = 2.0


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def _channel_layer() -> str:
    config = settings.CHANNEL_LAYERS["default"]
    if config["BACKEND"].endswith("InMemoryChannelLayer"):
        return "in-memory"
    import redis

    host = config.get("CONFIG", {}).get("hosts", [None])[0]
    address = host.get("address") if isinstance(host, dict) else host
    client = redis.Redis.from_url(address, socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S)
    try:
        client.ping()
    finally:
        client.close()
    return "redis"


def _broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "in-process"
    from celery import current_app

    with current_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=TIMEOUT_S)
    return str(conn.transport_cls)


def _cache() -> str:
    from django.core.cache import caches

    cache = caches["default"]
    token = time.time_ns()
    cache.set("healthz", token, timeout=10)
    if cache.get("healthz") != token and type(cache).__name__ == "RedisCache":
        raise RuntimeError("the cache did not keep what was written")
    return type(cache).__name__


CHECKS = {"database": _database, "channel_layer": _channel_layer, "broker": _broker, "cache": _cache}
_pool = ThreadPoolExecutor(max_workers=len(CHECKS), thread_name_prefix="healthz")


def health_report() -> dict:
    """``{"ok": bool, "checks": {name: {"ok", "ms", "backend" | "error"}}}``, all checks run at once."""
    started = time.perf_counter()
    futures = {name: _pool.submit(_timed, check) for name, check in CHECKS.items()}
    checks = {}
    for name, future in futures.items():
        try:
            checks[name] = future.result(timeout=max(0.1, TIMEOUT_S + 0.5 - (time.perf_counter() - started)))
        except Timeout:
            checks[name] = {"ok": False, "error": f"no answer in {TIMEOUT_S:g} s"}
    return {"ok": all(c["ok"] for c in checks.values()), "checks": checks}


def _timed(check) -> dict:
    start = time.perf_counter()
    try:
        backend = check()
        result = {"ok": True, "backend": backend}
    except Exception as exc:  # a down dependency is the answer, not an error of the page
        result = {"ok": False, "error": type(exc).__name__}
    finally:
        if check is _database:
            connection.close()  # this pool thread's own connection: none is left open between checks
    result["ms"] = round((time.perf_counter() - start) * 1000, 1)
    return result
