"""Pushes to channel groups, for every app. A push is only a notification: pages re-read state from the
database. Event types: ``arena.event`` (a browser payload, forwarded by :class:`core.consumers.BaseConsumer`)."""

import asyncio
import atexit
import collections
import logging
import os
import threading
import time
import weakref

from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger(__name__)

# The in-memory layer's queues belong to the server's event loop. A push from a thread with no
# loop of its own (an in-process task of the embedded default) must run on that loop, or the
# waiting consumers are never woken. Consumers record the loop when they join a group.
_server_loop: asyncio.AbstractEventLoop | None = None


def remember_server_loop() -> None:
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def push(group: str, payload: dict) -> None:
    push_many([(group, payload)])


def push_many(pushes: list[tuple[str, dict]]) -> None:
    """Send several pushes (group, browser payload), in order, with one hop to the event loop."""
    send_events([(group, {"type": "arena.event", "payload": payload}) for group, payload in pushes])


def send_events(events: list[tuple[str, dict]]) -> None:
    """Send channel-layer events (group, {"type": handler, ...}) after every event this process queued
    before them, without waiting: the caller (a trade, a stored message, a task) never waits for Redis.

    From a thread of a server process (a consumer's database call, an in-process task of the embedded
    default) the events go to that server's event loop; from anywhere else (a Celery worker, the LPP
    bridge, a command, a test) to one long-lived background loop of the process, whose Redis
    connections are reused. Each loop's pump sends everything queued since its last send as one batch
    (on core.channel_layer's Redis layer, two round trips for all), a page's repeated "refresh" once.
    `flush()` waits until what was queued has gone out; it runs at exit too."""
    layer = get_channel_layer()
    if layer is None or not events:
        return
    loop = _server_loop_of_this_thread(layer) or _background_loop()
    _pump(loop, layer).put(events)


def flush(timeout: float = 5.0) -> bool:
    """Wait until every event queued so far from threads of this process has been sent (or failed,
    logged); False on timeout. Not from an event loop's own thread."""
    deadline = time.monotonic() + timeout
    try:
        own = asyncio.get_running_loop()
    except RuntimeError:
        own = None
    with _pumps_lock:
        pumps = [pump for loop, pump in _pumps.items() if loop.is_running() and loop is not own]
    return all(pump.wait_sent(max(0.0, deadline - time.monotonic())) for pump in pumps)


def coalesce(events: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """Drop a "refresh" of a group that a later event of the same batch refreshes again (the page then
    re-reads its whole state); every other event is kept, in order."""
    later, kept = set(), []
    for group, event in reversed(events):
        if event.get("payload", {}).get("type") == "refresh":
            if group in later:
                continue
            later.add(group)
        kept.append((group, event))
    return kept[::-1]


#: How long one batch of pushes may take before it is given up (logged): a connection that hangs must not
#: hold back every later push of the process.
SEND_TIMEOUT_S = 10.0


async def _send(layer, events) -> None:
    try:
        await asyncio.wait_for(_send_all(layer, events), SEND_TIMEOUT_S)
    except Exception:  # the database holds the truth; a lost push is recovered on reconnect
        log.exception("pushes to %s failed", [group for group, _ in events])


async def _send_all(layer, events) -> None:
    if hasattr(layer, "group_send_many"):
        await layer.group_send_many(events)
    else:
        for group, event in events:
            await layer.group_send(group, event)


def _server_loop_of_this_thread(layer) -> asyncio.AbstractEventLoop | None:
    from asgiref.sync import SyncToAsync

    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is not None and running is _server_loop:
        return running  # the server's loop itself (an LPP2 line stored there): its pump, in order with the threads'
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) == os.getpid():
        loop = getattr(local, "main_event_loop", None)  # a consumer's database call
        if loop is not None and loop.is_running():
            return loop
    loop = _server_loop
    if isinstance(layer, InMemoryChannelLayer) and loop is not None and loop.is_running():
        return loop  # the in-memory layer's queues live on the server's loop
    return None


class _Pump:
    """The pushes of one event loop: queued from any thread, sent in order, in batches."""

    def __init__(self, loop, layer):
        self.loop, self.layer = loop, layer
        self.pending: collections.deque = collections.deque()
        self.sent = threading.Condition()
        self.queued = self.done = 0  # events queued and sent so far, for `flush`
        self.draining = False
        self.task: asyncio.Task | None = None  # the drain running: the loop keeps only a weak reference

    def put(self, events) -> None:
        with self.sent:
            self.pending.extend(events)
            self.queued += len(events)
            if self.draining:
                return
            self.draining = True
        try:
            on_loop = asyncio.get_running_loop() is self.loop
        except RuntimeError:  # a thread without a loop
            on_loop = False
        if on_loop:  # on the loop itself (an LPP2 line): no wake-up to write
            self._start()
        else:
            self.loop.call_soon_threadsafe(self._start)

    def _start(self) -> None:
        self.task = self.loop.create_task(self.drain())

    async def drain(self) -> None:
        while True:
            with self.sent:
                if not self.pending:
                    self.draining = False
                    return
                batch = list(self.pending)
                self.pending.clear()
            await _send(self.layer, coalesce(batch))
            with self.sent:
                self.done += len(batch)
                self.sent.notify_all()

    def wait_sent(self, timeout: float) -> bool:
        with self.sent:
            target = self.queued
            return self.sent.wait_for(lambda: self.done >= target, timeout=timeout)


_pumps: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # loop -> its pump
_pumps_lock = threading.Lock()


def _pump(loop, layer) -> _Pump:
    with _pumps_lock:
        pump = _pumps.get(loop)
        if pump is None or pump.layer is not layer:
            pump = _pumps[loop] = _Pump(loop, layer)
        return pump


_loop_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None


def _background_loop() -> asyncio.AbstractEventLoop:
    """This process's loop for pushes from threads without one (a forked child starts its own)."""
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop.is_closed() or _loop_pid != os.getpid():
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="core-pushes", daemon=True).start()
        return _loop


atexit.register(flush, 2.0)
