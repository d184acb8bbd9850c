"""Enqueue Celery tasks after the current transaction commits.

Services mode: the task goes to the broker and a separate worker runs it (with its countdown).
Embedded default (CELERY_TASK_ALWAYS_EAGER): the task runs in this process on a daemon thread after
its countdown, so a web request or a websocket handler never blocks on a bot's typing delay.
"""
import logging
import threading

from django.conf import settings
from django.db import close_old_connections, connections, transaction

log = logging.getLogger(__name__)


def enqueue_on_commit(task, *args, countdown: float = 0.0) -> None:
    transaction.on_commit(lambda: enqueue_now(task, *args, countdown=countdown))


def enqueue_now(task, *args, countdown: float = 0.0) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        timer = threading.Timer(max(0.0, countdown), _run_in_thread, args=(task, args))
        timer.daemon = True
        timer.start()
    else:
        task.apply_async(args=args, countdown=max(0.0, countdown))


def _run_in_thread(task, args) -> None:
    close_old_connections()
    try:
        task.apply(args=args, throw=True)
    except Exception:  # a background failure must be logged, never lost silently
        log.exception("in-process task %s%r failed", task.name, args)
    finally:
        connections.close_all()
