"""Pushes to channel groups. A push is only a notification: pages re-read state from the database."""
import asyncio
import logging
import os
import threading

from asgiref.sync import async_to_sync
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
    """Send several pushes, in order, with one hop to the event loop."""
    layer = get_channel_layer()
    if layer is None or not pushes:
        return

    async def send_all():
        for group, payload in pushes:
            try:
                await layer.group_send(group, {"type": "arena.event", "payload": payload})
            except Exception:  # the database holds the truth; a lost push is recovered on reconnect
                log.exception("push to %s failed", group)

    try:
        loop = _server_loop
        if isinstance(layer, InMemoryChannelLayer) and loop is not None and loop.is_running() and not _on_loop(loop):
            asyncio.run_coroutine_threadsafe(send_all(), loop).result(timeout=5)
        elif _in_server_thread():
            async_to_sync(send_all)()  # a consumer's database call: back onto the server's own loop
        else:
            # A worker, a bridge or a background thread: one long-lived loop for all its pushes, so
            # the Redis layer's connection pool (kept per loop) is reused instead of reconnecting.
            asyncio.run_coroutine_threadsafe(send_all(), _background_loop()).result(timeout=10)
    except Exception:
        log.exception("pushes to %s failed", [group for group, _ in pushes])


_loop_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="arena-pushes", daemon=True).start()
        return _loop


def _in_server_thread() -> bool:
    """True in a thread that sync_to_async runs for an event loop of this process."""
    from asgiref.sync import SyncToAsync

    return getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid()


def _on_loop(loop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def message_stored(message, conversation) -> None:
    pushes = [(groups.judge_group(conversation.interrogation_id), payloads.judge_message(message, conversation.side))]
    if conversation.witness_human_id:
        pushes.append((groups.witness_group(conversation.pk), payloads.witness_message(message)))
    pushes.append((groups.monitor_group(), payloads.monitor_message(message, conversation)))
    push_many(pushes)


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


def keys_typed(conversation, *, by_role: str, keys: list[str]) -> None:
    """Keystroke mode: the other party sees each key as it is typed."""
    if by_role == "witness":
        push(groups.judge_group(conversation.interrogation_id), payloads.judge_keys(conversation.side, keys))
    elif conversation.witness_human_id:
        push(groups.witness_group(conversation.pk), payloads.witness_keys(keys))
