"""Celery worker start-up for the lambdastar queue: nothing a running worker could do ahead of time is
left to an experiment's first chunk.

``warm_engine`` runs in the worker's main process before the pool forks (``worker_init``): the
engine's modules are imported and every compiled kernel is loaded from numba's on-disk cache (or
compiled, on a fresh checkout), so each pool process inherits them. ``connect`` runs in each pool
process as it starts (``worker_process_init``): its own database connection, opened before it takes
a task. Both are wired in ``config/celery_app.py``.
"""

import logging
import time

log = logging.getLogger(__name__)


def warm_engine() -> float:
    """Load every kernel in this process (lambdastar.engine.warm); returns the seconds it took. Never
    raises (a worker that could not warm up still works, paying the loading on its first chunk)."""
    from lambdastar.engine.warm import warm

    started = time.perf_counter()
    try:
        import lambdastar.services  # noqa: F401  the Django side of a chunk, imported once here

        warm()
    except Exception:
        log.exception("warming the lambdastar engine failed; the first chunks will load the kernels")
    elapsed = time.perf_counter() - started
    log.info("lambdastar engine warmed in %.2f s", elapsed)
    return elapsed


def connect(**kwargs) -> None:
    """This pool process's database connection, before its first task."""
    from django.db import connection

    try:
        connection.ensure_connection()
    except Exception:  # the first task will try again and report
        log.exception("no database connection at worker process start")
