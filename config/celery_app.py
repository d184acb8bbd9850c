import os

from celery import Celery
from celery.signals import task_postrun, worker_init, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Celery's Django fixup closes the database connection before and after every task unless told to
# reuse it: a new PostgreSQL connection per task. Keep it (recycled by the fixup only every 10,000
# tasks); after each task, Django's own rule closes it if it broke or outlived CONN_MAX_AGE, as after
# a request.
app.conf.CELERY_DB_REUSE_MAX = 10_000
app.autodiscover_tasks()


@task_postrun.connect
def _close_old_connections(sender=None, **kwargs):
    if sender is None or getattr(sender.request, "is_eager", False):
        return  # run in the caller's process (and perhaps its transaction): its connection, its rules
    from django.db import close_old_connections

    close_old_connections()


@worker_init.connect
def _warm_start(sender=None, **kwargs):
    """Before the pool starts (a prefork pool's processes inherit both): the LLM client library is
    imported (no pool process's first turn or bot reply waits 0.6 s for it), then the start-up heap is
    frozen out of the cyclic collector (core.gcpolicy)."""
    from bots.engines.llm import client_library_load
    from core import gcpolicy

    client_library_load()
    gcpolicy.freeze_startup_heap()


@worker_init.connect
def _warm_lambdastar(sender=None, **kwargs):
    """A prefork worker serving the lambdastar queue loads the Λ* kernels before its pool forks, and
    each pool process opens its database connection as it starts (both before any task is taken).
    Other pools (solo, threads: the test suite's workers) load kernels on their first chunk."""
    from lambdastar.tasks import QUEUE
    from lambdastar.workers import connect, warm_engine

    if sender is None or QUEUE not in sender.app.amqp.queues.consume_from:
        return
    pool = sender.pool_cls if isinstance(sender.pool_cls, str) else getattr(sender.pool_cls, "__module__", "")
    if "prefork" in pool:
        warm_engine()
        # connected here, after the Django fixup's own handler that drops inherited connections
        worker_process_init.connect(connect, weak=False, dispatch_uid="lambdastar-connect")
