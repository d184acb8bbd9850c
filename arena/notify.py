"""Pushes to channel groups. A push is only a notification: pages re-read state from the database."""
import asyncio
import logging

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
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "arena.event", "payload": payload}
    try:
        loop = _server_loop
        if isinstance(layer, InMemoryChannelLayer) and loop is not None and loop.is_running() and not _on_loop(loop):
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(timeout=5)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # the database already holds the truth; a lost push is recovered on reconnect
        log.exception("push to %s failed", group)


def _on_loop(loop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def message_stored(message, conversation) -> None:
    push(groups.judge_group(conversation.interrogation_id), payloads.judge_message(message, conversation.side))
    if conversation.witness_human_id:
        push(groups.witness_group(conversation.pk), payloads.witness_message(message))
    push(groups.monitor_group(), payloads.monitor_message(message, conversation))


def status_changed(interrogation, conversations) -> None:
    push(groups.judge_group(interrogation.pk), payloads.judge_status(interrogation))
    for conversation in conversations:
        if conversation.witness_human_id:
            push(groups.witness_group(conversation.pk), payloads.witness_status(interrogation))
    push(groups.monitor_group(), payloads.monitor_status(interrogation))


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
