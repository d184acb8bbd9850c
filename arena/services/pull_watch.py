"""The waiting of pull mode's long polls: one database visit per step for every poll of the process.

A waiting poll registers its entry (and its API key) with this event loop's :class:`PendingWatch` and
sleeps. Every ``ARENA_PULL_POLL_S`` the watch asks the database once, in one thread, which of the waiting
entries have a judge message to answer and which of the waiting keys are still active, and wakes those
polls (the poll then reads its pending messages itself). However many polls wait, that is one query a
step, not one (and a fresh connection) per poll and step, which would queue hundreds of polls behind each
other on the worker threads, past their deadlines (bench/long_polls.py measures it). A poll that nothing
wakes ends at its deadline.
"""

import asyncio
import logging
import os
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from arena.models import ApiKey, Conversation, EngineCall, Message, Status
from core.db import connection_release

log = logging.getLogger(__name__)


def entries_due(*, entry_ids: set[int], key_ids: set[int]) -> tuple[set[int], set[int]]:
    """(the entries among ``entry_ids`` with a judge message awaiting their answer, the keys among
    ``key_ids`` still active): two queries, whatever the number of ids; the connection closed after."""
    try:
        last = Message.objects.filter(conversation=OuterRef("pk")).order_by("-seq")
        answered = EngineCall.objects.filter(
            conversation=OuterRef("pk"),
            kind=EngineCall.Kind.PULL,
            outcome=EngineCall.Outcome.OK,
            trigger_seq=OuterRef("last_seq"),
        )
        due = (
            Conversation.objects.filter(
                witness_entry_id__in=entry_ids,
                interrogation__status=Status.RUNNING,
                interrogation__deadline__gt=timezone.now(),
            )
            .annotate(last_role=Subquery(last.values("sender_role")[:1]), last_seq=Subquery(last.values("seq")[:1]))
            .filter(last_role=Message.Role.INTERROGATOR)
            .exclude(Exists(answered))
            .values_list("witness_entry_id", flat=True)
        )
        active = (
            ApiKey.objects.filter(pk__in=key_ids, revoked_at__isnull=True, user__is_active=True).values_list(
                "pk", flat=True
            )
            if key_ids
            else []
        )
        return set(due), set(active)
    finally:
        connection_release()


@dataclass(eq=False)
class Waiter:
    entry_id: int
    key_id: int | None
    woken: asyncio.Event = field(default_factory=asyncio.Event)


class PendingWatch:
    """The waiting polls of one event loop, and the task that checks them all at each step."""

    def __init__(self):
        self.waiters: set[Waiter] = set()
        self.task: asyncio.Task | None = None

    async def until_due(self, *, entry_id: int, key_id: int | None, timeout: float) -> bool:
        """Wait until the entry has something to answer or its key is revoked (True: check now), or
        ``timeout`` seconds (False)."""
        waiter = Waiter(entry_id, key_id)
        self.waiters.add(waiter)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())
        try:
            await asyncio.wait_for(waiter.woken.wait(), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            self.waiters.discard(waiter)

    async def _run(self) -> None:
        check = sync_to_async(entries_due, thread_sensitive=False, executor=poll_executor())
        while self.waiters:
            await asyncio.sleep(settings.ARENA_PULL_POLL_S)
            waiters = list(self.waiters)
            if not waiters:
                break
            keys = {w.key_id for w in waiters if w.key_id is not None}
            try:
                due, active = await check(entry_ids={w.entry_id for w in waiters}, key_ids=keys)
            except Exception:  # the database is away: the polls end at their deadlines
                log.exception("long polls: the check of %d waiting polls failed", len(waiters))
                continue
            for waiter in waiters:
                if waiter.entry_id in due or (waiter.key_id is not None and waiter.key_id not in active):
                    waiter.woken.set()


_pool: tuple[int, ThreadPoolExecutor] | None = None
_pool_lock = threading.Lock()
POLL_THREADS = 32


def poll_executor() -> ThreadPoolExecutor:
    """This process's threads for long polls' database visits (authentication, reads): waiting on
    PostgreSQL's connection set-up, hundreds of polls arriving together are read in parallel rather than
    queued on the event loop's few default threads (os.cpu_count() + 4)."""
    global _pool
    with _pool_lock:
        if _pool is None or _pool[0] != os.getpid():
            _pool = (os.getpid(), ThreadPoolExecutor(max_workers=POLL_THREADS, thread_name_prefix="long-polls"))
        return _pool[1]


_watches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its PendingWatch


def pending_watch() -> PendingWatch:
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = PendingWatch()
    return watch
