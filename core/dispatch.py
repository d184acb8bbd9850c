"""Enqueue Celery tasks after the current transaction commits.

Services mode: the task goes to the broker and a separate worker runs it (with its countdown).
Embedded default (CELERY_TASK_ALWAYS_EAGER): the task runs in this process on a daemon thread of its
own once its countdown has passed, so a web request or a websocket handler never blocks on a bot's
typing delay. Until then a delayed task waits in one queue served by one thread (:class:`Delayed`),
not on a sleeping thread of its own: a spectator feed schedules every message's release a minute
ahead, and a busy round would otherwise keep thousands of threads asleep.
"""

import heapq
import itertools
import logging
import os
import threading
import time

from django.conf import settings
from django.db import close_old_connections, connections, transaction

log = logging.getLogger(__name__)


def enqueue_on_commit(task, *args, countdown: float = 0.0) -> None:
    transaction.on_commit(lambda: enqueue_now(task, *args, countdown=countdown))


def enqueue_now(task, *args, countdown: float = 0.0) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        if countdown > 0:
            delayed.add(time.monotonic() + countdown, task, args)
        else:
            _start(task, args)
    else:
        task.apply_async(args=args, countdown=max(0.0, countdown))


def _start(task, args) -> None:
    threading.Thread(target=_run_in_thread, args=(task, args), daemon=True, name=f"task {task.name}").start()


def _run_in_thread(task, args) -> None:
    close_old_connections()
    try:
        task.apply(args=args, throw=True)
    except Exception:  # a background failure must be logged, never lost silently
        log.exception("in-process task %s%r failed", task.name, args)
    finally:
        connections.close_all()


class Delayed:
    """In-process tasks waiting for their countdown: a heap ordered by due time (then by arrival) and
    one daemon thread that sleeps until the earliest is due and starts each due task on a thread of its
    own. The thread is started on first use (again in a forked child, which inherits the heap but not
    the thread). Like Timer threads before it, what waits here is lost when the process ends: the
    sweeps on the beat (core.embedded_beat) find what a restart left undone."""

    def __init__(self):
        self._heap: list = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._owner: tuple[int, threading.Thread] | None = None

    def add(self, due: float, task, args) -> None:
        with self._wake:
            heapq.heappush(self._heap, (due, next(self._order), task, args))
            if self._owner is None or self._owner[0] != os.getpid() or not self._owner[1].is_alive():
                thread = threading.Thread(target=self._serve, daemon=True, name="delayed tasks")
                self._owner = (os.getpid(), thread)
                thread.start()
            self._wake.notify()

    def _serve(self) -> None:
        while True:
            with self._wake:
                while not self._heap or self._heap[0][0] > time.monotonic():
                    self._wake.wait(self._heap[0][0] - time.monotonic() if self._heap else None)
                due = []
                now = time.monotonic()
                while self._heap and self._heap[0][0] <= now:
                    due.append(heapq.heappop(self._heap))
            for _, _, task, args in due:
                try:
                    _start(task, args)
                except Exception:  # never let one task stop the queue
                    log.exception("in-process task %s%r could not start", task.name, args)


delayed = Delayed()
