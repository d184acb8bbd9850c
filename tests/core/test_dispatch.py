"""In-process tasks (the embedded default): a delayed task runs once its countdown has passed, in due
order, and waiting tasks do not each keep a thread asleep."""

import threading
import time

import pytest

from core import dispatch


class Recorder:
    """A task stand-in: ``apply`` records (name, args, when)."""

    def __init__(self, name="t"):
        self.name, self.ran, self.done = name, [], threading.Event()
        self.expected = 0

    def apply(self, args, throw):
        self.ran.append((args, time.monotonic()))
        if len(self.ran) >= self.expected:
            self.done.set()


@pytest.fixture
def eager(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True


def test_a_delayed_task_runs_after_its_countdown_and_tasks_run_in_due_order(eager):
    task = Recorder()
    task.expected = 3
    start = time.monotonic()
    dispatch.enqueue_now(task, "late", countdown=0.4)
    dispatch.enqueue_now(task, "soon", countdown=0.1)
    dispatch.enqueue_now(task, "now")
    assert task.done.wait(5)
    assert [args for args, _ in task.ran] == [("now",), ("soon",), ("late",)]
    when = {args[0]: at - start for args, at in task.ran}
    assert when["soon"] >= 0.1 and when["late"] >= 0.4


def test_many_delayed_tasks_keep_no_thread_each_asleep(eager):
    task = Recorder()
    task.expected = 500
    before = threading.active_count()
    start = time.monotonic()
    for i in range(500):
        dispatch.enqueue_now(task, i, countdown=0.5 + i / 10_000)
    assert threading.active_count() <= before + 1  # the one thread that serves the queue
    assert task.done.wait(10)
    # each ran once, none before its countdown; tasks due a tenth of a millisecond apart start in due
    # order but each on a thread of its own, so the order they record in is the scheduler's
    assert sorted(args[0] for args, _ in task.ran) == list(range(500))
    assert all(at - start >= 0.5 + args[0] / 10_000 for args, at in task.ran)


def test_a_task_that_fails_is_logged_and_the_queue_goes_on(eager, caplog):
    class Failing(Recorder):
        def apply(self, args, throw):
            raise RuntimeError("boom")

    failing, task = Failing("failing"), Recorder()
    task.expected = 1
    dispatch.enqueue_now(failing, 1, countdown=0.05)
    dispatch.enqueue_now(task, 2, countdown=0.1)
    assert task.done.wait(5)
    time.sleep(0.05)
    assert "in-process task failing(1,) failed" in caplog.text
