"""Turing Trade's pushes leave the request (or trade) that caused them: a service queues them after
its commit and returns; one sender thread per process sends everything queued since its last send,
in order, through arena's `push_many` in one hop to the event loop. When many trades land at once
they go out together, every price point still in its own push (the chart needs every price), and no
trade waits for a push. A push is only a notification (pages re-read state on connect), so the
pushes still queued when the process exits are sent by `flush` at exit, within a short timeout.
"""
import atexit
import logging
import os
import threading
from collections import deque

from arena.notify import push_many

log = logging.getLogger(__name__)

_cond = threading.Condition()
_queue: deque = deque()
_sending = False
_owner_pid: int | None = None  # the sender thread belongs to this process (not to a forked child)


def send(pushes: list[tuple[str, dict]]) -> None:
    """Queue these pushes (group, payload) behind every push queued before them in this process."""
    global _owner_pid
    if not pushes:
        return
    with _cond:
        if _owner_pid != os.getpid():
            _queue.clear()  # a forked child: its parent's queue and thread are not its own
            _owner_pid = os.getpid()
            threading.Thread(target=_run, name="markets-pushes", daemon=True).start()
        _queue.extend(pushes)
        _cond.notify_all()


def flush(timeout: float = 5.0) -> bool:
    """Wait until every push queued so far in this process has been sent; False on timeout."""
    with _cond:
        return _cond.wait_for(lambda: not _queue and not _sending, timeout=timeout)


def coalesce(batch: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """Drop a "refresh" of a group that a later push of the same batch refreshes again (the page
    re-reads its whole state then); every other push is kept, in order."""
    later, kept = set(), []
    for group, payload in reversed(batch):
        if payload.get("type") == "refresh":
            if group in later:
                continue
            later.add(group)
        kept.append((group, payload))
    return kept[::-1]


def _run() -> None:
    global _sending
    while True:
        with _cond:
            _sending = False
            _cond.notify_all()
            _cond.wait_for(lambda: _queue)
            batch, _sending = list(_queue), True
            _queue.clear()
        try:
            push_many(coalesce(batch))  # logs its own failures; a lost push is recovered on reconnect
        except Exception:  # noqa: BLE001 (the sender must outlive any one batch)
            log.exception("markets pushes failed")


atexit.register(flush, 2.0)
