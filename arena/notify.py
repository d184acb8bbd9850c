"""The arena's pushes: stored messages, status changes, verdicts, typing signals (on core.notify's pump)."""

from arena import groups, payloads
from core.channel_layer import LEAVE_OUT
from core.notify import push, push_many, send_events  # arena.services.keystrokes calls notify.push_many too


def message_stored(message, conversation, *, witness_label: str | None = None, leave_out: str | None = None) -> None:
    """One event to the conversation's group (its judge's and its confederate's consoles each forward
    their own payload) and one to the organisers' live view. ``leave_out``: a member channel of the
    conversation's group that has the message already (its sender's LPP2 hub): a layer that can
    (``core.channel_layer.LEAVE_OUT``) does not send it there."""
    event = {"type": "arena.message", "judge": payloads.judge_message(message, conversation.side)}
    if leave_out:
        event[LEAVE_OUT] = leave_out
    if conversation.witness_human_id:
        event["witness"] = payloads.witness_message(message)
    monitor = payloads.monitor_message(message, conversation, witness_label=witness_label)
    send_events(
        [
            (groups.conversation_group(conversation.pk), event),
            (groups.monitor_group(), {"type": "arena.event", "payload": monitor}),
        ]
    )


def status_changed(interrogation, conversations) -> None:
    """``conversations`` as the change left them (read after it): the pushes say which sides are held."""
    pushes = [(groups.judge_group(interrogation.pk), payloads.judge_status(interrogation, conversations))]
    for conversation in conversations:
        if conversation.witness_human_id:
            pushes.append((groups.witness_group(conversation.pk), payloads.witness_status(interrogation, conversation)))
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
