"""Fixtures of the Λ* platform tests: a researcher, tiny configurations, a worker on the lambdastar queue."""

import time

import pytest

from tests.conftest import make_user
from tests.e2e.conftest import browser  # noqa: F401  the module-scoped Chromium fixture, for the browser tests here


@pytest.fixture(scope="session", autouse=True)
def _kernels_first(compiled_kernels):
    """The run's compiled kernels first (tests/prebuild.py): each test process compiling them costs minutes."""


def tiny(**overrides) -> dict:
    """Paper rules on a 5×5 grid, T = 10, 14 episodes, two types, two runs (N = 1, 2)."""
    config = {
        "rules": "paper",
        "rng": "pcg64",
        "episodes": 14,
        "types": ["ls", "random"],
        "iterations": 10,
        "grid": 5,
        "sweep": {"agents": [1, 2]},
        "chunk_episodes": 2,
    }
    config.update(overrides)
    return config


@pytest.fixture
def researcher(db):
    return make_user("rita")


@pytest.fixture
def executor(services_mode, transactional_db):
    """Services mode: a real Celery worker (solo pool, in a thread) consuming the lambdastar queue.
    Embedded default: nothing to start, the chord runs in-process on a background thread."""
    if not services_mode:
        yield None
        return
    import celery.contrib.testing.tasks  # noqa: F401  registers celery.ping for the ping check
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun
    from django.db import connections

    from config.celery_app import app

    app.control.purge()
    with app.connection_for_write() as connection:  # leftovers of an interrupted run
        connection.default_channel.queue_purge("lambdastar")

    def close_thread_connections(sender=None, **kwargs):
        # The worker keeps its connection between tasks; this one lives in a thread that ends with
        # the test, so close it after each task or the test database could not be dropped.
        if sender is not None and not getattr(sender.request, "is_eager", False):
            connections.close_all()

    task_postrun.connect(close_thread_connections)
    try:
        with start_worker(
            app, pool="solo", queues=["celery", "lambdastar"], perform_ping_check=True, shutdown_timeout=10
        ) as worker:
            yield worker
    finally:
        task_postrun.disconnect(close_thread_connections)


def wait_for_status(experiment, *statuses, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        experiment.refresh_from_db()
        if experiment.status in statuses:
            return experiment
        time.sleep(0.05)
    raise AssertionError(f"experiment stayed {experiment.status} (wanted {statuses})")
