"""The embedded default's beat. With tasks run in-process (CELERY_TASK_ALWAYS_EAGER) no ``celery beat``
runs, so daphne runs CELERY_BEAT_SCHEDULE's periodic tasks itself, on one daemon thread: the sweeps that
close interrogations past their deadline, settle markets, start scheduled interviews. A restart of the
embedded default then loses nothing either (the timers of the process that died are re-derived from the
database by the next sweep). Services mode runs ``celery beat`` (``make worker``'s ``-B``) instead."""

import datetime as dt
import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections, connections

log = logging.getLogger(__name__)
_started: threading.Thread | None = None


def _seconds(schedule) -> float:
    if isinstance(schedule, dt.timedelta):
        return schedule.total_seconds()
    if isinstance(schedule, (int, float)):
        return float(schedule)
    raise TypeError(f"the embedded beat runs numeric schedules only, not {schedule!r}")


def beat_tick(entries: dict, due: dict, now: float) -> list[str]:
    """Run every entry whose time has come (``due``: name -> monotonic time, updated); returns the task
    names run. A task that fails is logged and tried again at its next time."""
    from celery import current_app

    ran = []
    for name, entry in entries.items():
        if now < due.get(name, 0.0):
            continue
        due[name] = now + _seconds(entry["schedule"])
        close_old_connections()
        try:
            current_app.tasks[entry["task"]].apply(throw=True)
            ran.append(entry["task"])
        except Exception:  # a sweep's failure must be seen, and must not stop the others
            log.exception("embedded beat: %s failed", entry["task"])
        finally:
            connections.close_all()
    return ran


def _loop(entries: dict, stop: threading.Event, tick_s: float) -> None:
    from celery import current_app

    current_app.loader.import_default_modules()  # every app's tasks module, as a worker does at start
    due: dict = {}
    while True:
        beat_tick(entries, due, time.monotonic())
        if stop.wait(tick_s):
            return


def start_from_settings(stop: threading.Event | None = None) -> threading.Thread | None:
    """Start the beat thread once per process, in the embedded default only (ARENA_EMBEDDED_BEAT)."""
    global _started
    if _started is not None or not (settings.CELERY_TASK_ALWAYS_EAGER and settings.ARENA_EMBEDDED_BEAT):
        return None
    entries = dict(settings.CELERY_BEAT_SCHEDULE)
    tick = min([_seconds(e["schedule"]) for e in entries.values()] + [5.0])
    _started = threading.Thread(
        target=_loop, args=(entries, stop or threading.Event(), tick), name="embedded-beat", daemon=True
    )
    _started.start()
    return _started
