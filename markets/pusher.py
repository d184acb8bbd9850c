"""Turing Trade's pushes leave the request (or trade) that caused them: a service queues them after
its commit and returns; one sender thread per process sends everything queued since its last send,
in order, through arena's `push_many` in one hop to the event loop. When many trades land at once
they go out together, every price point still in its own push (the chart needs every price), and no
trade waits for a push. A push is only a notification (pages re-read state on connect), so the
pushes still queued when the process exits are sent by `flush` at exit, within a short timeout.
"""
import atexit
import itertools
import logging
import os
import queue
import threading

from arena.notify import push_many

log = logging.getLogger(__name__)
_queue: queue.SimpleQueue = queue.SimpleQueue()  # (ticket, pushes)
_start_lock, _send_lock = threading.Lock(), threading.Lock()
_owner_pid: int | None = None  # the sender thread belongs to this process (not to a forked child)
_tickets = itertools.count(1)  # each queued batch's number, for `flush`
_issued = _sent = 0
_sent_cond = threading.Condition()


def send(pushes: list[tuple[str, dict]]) -> None:
    """Queue these pushes (group, payload) behind every push queued before them in this process."""
    global _issued
    if not pushes:
        return
    if _owner_pid != os.getpid():
        _start()
    with _send_lock:  # tickets in queue order
        _issued = ticket = next(_tickets)
        _queue.put((ticket, pushes))


def flush(timeout: float = 5.0) -> bool:
    """Wait until every push queued so far in this process has been sent; False on timeout."""
    target = _issued
    with _sent_cond:
        return _sent_cond.wait_for(lambda: _sent >= target, timeout=timeout)


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


def _start() -> None:
    global _owner_pid, _queue, _tickets, _issued, _sent
    with _start_lock:
        if _owner_pid == os.getpid():
            return
        if _owner_pid is not None:  # a forked child: its parent's queue and thread are not its own
            _queue, _tickets, _issued, _sent = queue.SimpleQueue(), itertools.count(1), 0, 0
        threading.Thread(target=_run, args=(_queue,), name="markets-pushes", daemon=True).start()
        _owner_pid = os.getpid()


def _run(pending: queue.SimpleQueue) -> None:
    global _sent
    while True:
        batches = [pending.get()]
        while not pending.empty():
            batches.append(pending.get_nowait())
        try:
            push_many(coalesce([push for _, batch in batches for push in batch]))  # logs its own failures
        except Exception:  # noqa: BLE001 (the sender must outlive any one batch; a push is recovered on reconnect)
            log.exception("markets pushes failed")
        with _sent_cond:
            _sent = max(ticket for ticket, _ in batches)
            _sent_cond.notify_all()


atexit.register(flush, 2.0)
