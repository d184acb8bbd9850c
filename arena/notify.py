"""Pushes to channel groups. A push is only a notification: pages re-read state from the database."""
import asyncio
import collections
import logging
import os
import threading
import weakref

from channels.layers import InMemoryChannelLayer, get_channel_layer

from arena import groups, payloads

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
    """Send channel-layer events (group, {"type": handler, ...}) in the order given.

    From a thread of a server process (a consumer's database call, an in-process task of the embedded
    default) the events go to that server's event loop without waiting: its pump sends everything
    queued, in order, as one batch (on arena.channel_layer's Redis layer, two round trips for all).
    Elsewhere (a Celery worker, the LPP bridge, a command) they go through one long-lived background
    loop, and the call returns once they are sent."""
    layer = get_channel_layer()
    if layer is None or not events:
        return
    loop = _server_loop_of_this_thread(layer)
    if loop is not None:
        _pump(loop, layer).put(events)
        return
    try:
        # One long-lived loop for all pushes of this process, so the Redis layer's connection pool
        # (kept per loop) is reused instead of reconnecting.
        asyncio.run_coroutine_threadsafe(_send(layer, events), _background_loop()).result(timeout=10)
    except Exception:
        log.exception("pushes to %s failed", [group for group, _ in events])


async def _send(layer, events) -> None:
    try:
        if hasattr(layer, "group_send_many"):
            await layer.group_send_many(events)
        else:
            for group, event in events:
                await layer.group_send(group, event)
    except Exception:  # the database holds the truth; a lost push is recovered on reconnect
        log.exception("pushes to %s failed", [group for group, _ in events])


def _server_loop_of_this_thread(layer) -> asyncio.AbstractEventLoop | None:
    from asgiref.sync import SyncToAsync

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
        self.lock = threading.Lock()
        self.draining = False

    def put(self, events) -> None:
        with self.lock:
            self.pending.extend(events)
            if self.draining:
                return
            self.draining = True
        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(self.drain()))

    async def drain(self) -> None:
        while True:
            with self.lock:
                if not self.pending:
                    self.draining = False
                    return
                batch = list(self.pending)
                self.pending.clear()
            await _send(self.layer, batch)


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


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="arena-pushes", daemon=True).start()
        return _loop


def message_stored(message, conversation, *, witness_label: str | None = None) -> None:
    """One event to the conversation's group (its judge's and its confederate's consoles each forward
    their own payload) and one to the organisers' live view."""
    event = {"type": "arena.message", "judge": payloads.judge_message(message, conversation.side)}
    if conversation.witness_human_id:
        event["witness"] = payloads.witness_message(message)
    monitor = payloads.monitor_message(message, conversation, witness_label=witness_label)
    send_events([
        (groups.conversation_group(conversation.pk), event),
        (groups.monitor_group(), {"type": "arena.event", "payload": monitor}),
    ])


def status_changed(interrogation, conversations) -> None:
    pushes = [(groups.judge_group(interrogation.pk), payloads.judge_status(interrogation))]
    for conversation in conversations:
        if conversation.witness_human_id:
            pushes.append((groups.witness_group(conversation.pk), payloads.witness_status(interrogation)))
    pushes.append((groups.monitor_group(), payloads.monitor_status(interrogation)))
    push_many(pushes)


def verdict_given(verdict, conversations) -> None:
    push(groups.judge_group(verdict.interrogation_id), {"type": "refresh"})
    push(groups.monitor_group(), payloads.monitor_verdict(verdict))


def typing(conversation, *, by_role: str) -> None:
    if by_role == "witness":
        push(groups.judge_group(conversation.interrogation_id), payloads.judge_typing(conversation.side))
    elif conversation.witness_human_id:
        push(groups.witness_group(conversation.pk), payloads.witness_typing())

