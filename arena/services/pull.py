"""Pull mode: an entrant's program fetches the judge messages awaiting its answer and posts replies.

A conversation is pending when its interrogation is running, its witness is the entry, and its last
message is the interrogator's. The conversation key handed out is the conversation's public id.
"""
import time

from django.conf import settings
from django.utils import timezone

from core.errors import InvalidInput
from arena.models import Conversation, EngineCall, Entry, Message, Status

POLL_STEP_S = 0.2


def pull_pending(*, entry: Entry) -> list[dict]:
    pending = []
    now = timezone.now()
    conversations = Conversation.objects.filter(
        witness_entry=entry, interrogation__status=Status.RUNNING, interrogation__deadline__gt=now
    ).order_by("pk")
    for conversation in conversations:
        messages = list(conversation.messages.order_by("seq").values_list("seq", "sender_role", "text"))
        if not messages or messages[-1][1] != Message.Role.INTERROGATOR:
            continue
        *earlier, (seq, _, text) = messages
        pending.append({
            "conversation": str(conversation.public_id),
            "seq": seq,
            "message": text,
            "history": [{"role": role, "text": t} for _, role, t in earlier],
        })
    return pending


def pull_pending_wait(*, entry: Entry, wait_s: float, step_s: float = POLL_STEP_S) -> list[dict]:
    """:func:`pull_pending`, polling the database for up to ``wait_s`` (capped by ARENA_PULL_MAX_WAIT_S)."""
    wait_s = min(max(wait_s, 0.0), settings.ARENA_PULL_MAX_WAIT_S)
    deadline = time.monotonic() + wait_s
    while True:
        pending = pull_pending(entry=entry)
        left = deadline - time.monotonic()
        if pending or left <= 0:
            return pending
        time.sleep(min(step_s, left))


def pull_reply(*, entry: Entry, conversation_key, text) -> Message | None:
    """Post the entry's reply (cleaned by the reply rules); None when the conversation is not the entry's."""
    from arena.services.health import CallResult, breaker_record, engine_call_log
    from arena.services.messages import message_post
    from bots.base import EngineError
    from bots.sanitize import clean_reply

    conversation = Conversation.objects.filter(public_id=conversation_key, witness_entry=entry).first()
    if conversation is None:
        return None
    if entry.engine != "pull":
        raise InvalidInput("This entry is not in pull mode: its engine answers for it.")
    trigger = conversation.messages.order_by("-seq").first()
    latency_ms = int((timezone.now() - trigger.created_at).total_seconds() * 1000) if trigger else 0
    try:
        cleaned = clean_reply(text, max_chars=settings.ARENA_BOT_REPLY_MAX_CHARS)
    except EngineError as exc:
        result = CallResult(EngineCall.Outcome.ERROR, latency_ms=latency_ms, error=f"bad reply: {exc}")
        engine_call_log(entry, result, kind=EngineCall.Kind.PULL, conversation=conversation)
        raise InvalidInput(f"Reply refused: {exc}.") from None
    message = message_post(conversation_id=conversation.pk, sender_role=Message.Role.WITNESS, text=cleaned, user=None)
    detail = "reply cleaned" if cleaned != text else ""
    result = CallResult(EngineCall.Outcome.OK, text=cleaned, latency_ms=max(latency_ms, 0), detail=detail)
    engine_call_log(entry, result, kind=EngineCall.Kind.PULL, conversation=conversation, trigger_seq=trigger and trigger.seq)
    breaker_record(entry, result)
    return message


def pull_typing(*, entry: Entry, conversation_key) -> bool:
    """Push "the witness is typing" to the judge; False when the conversation is not the entry's."""
    from arena import notify

    conversation = Conversation.objects.filter(
        public_id=conversation_key, witness_entry=entry, interrogation__status=Status.RUNNING
    ).first()
    if conversation is None:
        return False
    notify.typing(conversation, by_role=Message.Role.WITNESS)
    return True
