"""The embedded default's beat: daphne runs CELERY_BEAT_SCHEDULE's tasks itself when tasks run in-process."""

import threading
import time

from celery import shared_task

from core import embedded_beat

RUNS = []


@shared_task(name="tests.core.beat_probe")
def beat_probe():
    RUNS.append("probe")


@shared_task(name="tests.core.beat_broken")
def beat_broken():
    raise RuntimeError("a sweep that fails")


def test_each_entry_runs_on_its_period_and_a_failure_stops_no_other(transactional_db, caplog):
    RUNS.clear()
    entries = {
        "broken": {"task": "tests.core.beat_broken", "schedule": 5.0},
        "probe": {"task": "tests.core.beat_probe", "schedule": 10.0},
    }
    due = {}
    assert embedded_beat.beat_tick(entries, due, now=100.0) == ["tests.core.beat_probe"]
    assert "tests.core.beat_broken failed" in caplog.text
    assert embedded_beat.beat_tick(entries, due, now=104.0) == []
    assert embedded_beat.beat_tick(entries, due, now=106.0) == []  # broken ran (and failed) again; probe waits
    assert embedded_beat.beat_tick(entries, due, now=110.0) == ["tests.core.beat_probe"]
    assert RUNS == ["probe", "probe"]


def test_the_thread_starts_only_in_the_embedded_default(transactional_db, settings, monkeypatch):
    monkeypatch.setattr(embedded_beat, "_started", None)
    settings.ARENA_EMBEDDED_BEAT = True
    settings.CELERY_TASK_ALWAYS_EAGER = False  # services mode: `celery beat` does this
    assert embedded_beat.start_from_settings() is None
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CELERY_BEAT_SCHEDULE = {"probe": {"task": "tests.core.beat_probe", "schedule": 0.05}}
    RUNS.clear()
    stop = threading.Event()
    thread = embedded_beat.start_from_settings(stop=stop)
    try:
        assert thread is not None and thread.daemon
        assert embedded_beat.start_from_settings() is None  # once per process
        deadline = time.monotonic() + 10  # the schedule runs every 0.05 s; a loaded machine may lag
        while len(RUNS) < 2 and time.monotonic() < deadline:
            thread.join(0.05)
        assert len(RUNS) >= 2
    finally:
        stop.set()
        thread.join(2)
