"""Machine witnesses: ask the entry's engine for a reply, then deliver it after a typing delay."""

import logging
import time

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from arena import notify
from arena.models import Conversation, EngineCall, Message, Status
from arena.services.engines import engine_reply, reply_cap, reply_queue_pick, typing_model_load
from bots.typing_delay import TYPING_GAP_S, typing_gap
from core.dispatch import enqueue_now
from core.errors import Closed

log = logging.getLogger(__name__)


def _context(conversation: Conversation, trigger_seq: int):
    from bots.base import ReplyContext, Turn

    messages = list(conversation.messages.filter(seq__lte=trigger_seq).order_by("seq"))
    *earlier, trigger = messages
    persona = {k: str(v) for k, v in (conversation.witness_entry.settings.get("persona") or {}).items()}
    return ReplyContext(
        conversation_key=str(conversation.public_id),
        history=tuple(Turn(role=m.sender_role, text=m.text) for m in earlier),
        message=trigger.text,
        persona=persona,
    )


def bot_reply_queue(conversation_id: int) -> str:
    """The Celery queue for this conversation's replies (:func:`arena.services.engines.reply_queue_pick`)."""
    engine = Conversation.objects.filter(pk=conversation_id).values_list("witness_entry__engine", flat=True).first()
    return reply_queue_pick(engine=engine)


def _superseded(conversation: Conversation, trigger_seq: int) -> bool:
    """A retry is pointless once the judge has written again or the witness has answered."""
    return conversation.messages.filter(seq__gt=trigger_seq).exists()


def bot_reply_compose(*, conversation_id: int, trigger_seq: int, attempt: int = 0, retry=None) -> bool:
    """Compute the engine's reply to message `trigger_seq` and schedule its delivery.

    Returns False when there is nothing to do (conversation over, not a machine, breaker open, or the
    engine failed). The engine is asked through the gateway (:func:`arena.services.engines.engine_reply`):
    failures are logged (EngineCall, EntryHealth) for the organiser and never shown to the judge; a
    transient failure with retries left calls ``retry(countdown)`` (the task's way of trying again later).
    """
    conversation = Conversation.objects.select_related("interrogation", "witness_entry").get(pk=conversation_id)
    if not conversation.witness_is_machine or conversation.interrogation.status != Status.RUNNING:
        return False
    entry = conversation.witness_entry
    if entry.is_external:
        return False  # answered by its own process (lpp_bridge, a pull-mode program), not by a bots engine
    trigger = conversation.messages.filter(seq=trigger_seq).first()
    if trigger is None or trigger.sender_role != Message.Role.INTERROGATOR:
        return False
    if attempt and _superseded(conversation, trigger_seq):
        return False
    if _reply_delivered(conversation.pk, trigger_seq):
        return False  # a task redelivered after a worker died, or re-asked by the sweep: already answered
    reply = engine_reply(
        entry=entry,
        context=_context(conversation, trigger_seq),
        conversation=conversation,
        subject=f"conversation {conversation.pk} message {trigger_seq}",
        trigger_seq=trigger_seq,
        attempt=attempt,
        retry=retry,
        max_chars=reply_cap(conversation.interrogation),
    )
    if reply is None:
        return False
    elapsed_s = (timezone.now() - trigger.created_at).total_seconds()  # the engine's own time counts as reading
    bot_reply_schedule(
        conversation=conversation,
        trigger_seq=trigger_seq,
        text=reply.text,
        typing=reply.typing,
        delay_s=reply.delay_s,
        typing_after_s=reply.typing_after_s,
        elapsed_s=elapsed_s,
    )
    return True


def bot_reply_schedule(
    *,
    conversation: Conversation,
    trigger_seq: int,
    text: str,
    typing,
    delay_s: float,
    typing_after_s: float = 0.0,
    elapsed_s: float = 0.0,
) -> float:
    """Deliver a machine's reply ``text`` to message ``trigger_seq`` as its typing model allows
    (``typing.schedule(message, text)``), counted from the judge's message, ``elapsed_s`` ago: the
    witness is shown typing from ``typing_after_s`` (it has read the message and thought), never before,
    and the reply arrives at ``delay_s``; in keystroke mode, its keys from ``typing_after_s``, one by one.
    ``conversation`` comes with its interrogation. Returns the seconds until the whole reply is shown."""
    from arena.tasks import bot_deliver, bot_typing

    start = max(0.0, typing_after_s - elapsed_s)
    if conversation.interrogation.keystroke_mode:  # typed key by key, live, as the Loebner protocol did
        from arena.tasks import bot_type

        interval = key_interval(typing, text, typing_after_s)
        enqueue_now(bot_type, conversation.pk, trigger_seq, text, 0, interval, countdown=start)
        return start + interval * len(text)
    shown = max(start, delay_s - elapsed_s)
    if shown - start > 0.2:  # typing for a moment at least: else the reply itself is the first sign
        enqueue_now(bot_typing, conversation.pk, trigger_seq, shown - start, countdown=start)
    enqueue_now(bot_deliver, conversation.pk, trigger_seq, text, countdown=shown)
    return shown


def _typing_next_key(conversation_id: int) -> str:
    return f"arena:typing-next:{conversation_id}"


def typing_cadence_take(*, conversation_id: int) -> bool:
    """Whether a machine's own "is typing" call (a pull entry's) may be shown now: only once the gap the
    one cadence drew after the conversation's last signal has passed (``bots.typing_delay.typing_gap``);
    then the next gap is drawn. A program calling at its own rhythm is seen at the platform's."""
    key, now = _typing_next_key(conversation_id), time.time()
    try:
        due = cache.get(key)
        if due is not None and now < due:
            return False
        cache.set(key, now + typing_gap(), timeout=TYPING_GAP_S[1] + 1)
    except Exception:  # the cache is down: the call is shown, as the consoles' typing is
        log.warning("typing cadence of conversation %s: the cache failed", conversation_id, exc_info=True)
    return True


def bot_typing_signal(*, conversation_id: int, trigger_seq: int, remaining_s: float) -> float | None:
    """Show the machine witness typing its reply to ``trigger_seq``, unless that reply is shown already,
    the judge wrote again or the conversation is over. Returns the seconds until the signal is to be
    repeated, drawn as a person's are (``bots.typing_delay.typing_gap``: one cadence for every witness),
    or None when the reply, ``remaining_s`` away, comes first."""
    conversation = Conversation.objects.select_related("interrogation").filter(pk=conversation_id).first()
    if conversation is None or conversation.interrogation.status != Status.RUNNING:
        return None
    if _superseded(conversation, trigger_seq):
        return None
    notify.typing(conversation, by_role="witness")
    gap = typing_gap()
    try:  # a pull entry's own typing call is not shown before this gap has passed
        cache.set(_typing_next_key(conversation.pk), time.time() + gap, timeout=TYPING_GAP_S[1] + 1)
    except Exception:
        log.warning("typing cadence of conversation %s: the cache failed", conversation.pk, exc_info=True)
    return gap if remaining_s > gap else None


TYPE_STEP_S = 0.25  # keystroke mode: a machine's keys are stored and pushed in batches this far apart


def key_interval(model, text: str, think_s: float) -> float:
    """Seconds per character so that thinking plus typing stays within the model's ``max_s``."""
    if not text:
        return 0.0
    return max(0.0, min(model.per_char_s, (model.max_s - think_s) / len(text)))


def bot_reply_type(
    *, conversation_id: int, trigger_seq: int, text: str, typed: int, per_char_s: float
) -> tuple[int, float] | None:
    """Keystroke mode: store and push the next batch of the reply's keys; with the last one, Return
    and the message itself. Returns (characters typed so far, seconds until the next batch), or None
    when done (or the conversation closed, or the reply is another delivery's).

    Exactly once, like :func:`bot_reply_deliver`: tasks are acknowledged late, so a batch can be
    delivered again (its worker died after storing it), and a re-asked engine can start a second
    chain. Under the conversation's row lock, the witness's line since its last Return says what has
    been typed: a batch already there is skipped (the chain goes on, in case its next batch was never
    sent); a line that is not this reply's prefix belongs to another chain, which owns the reply, and
    this one stops. The last batch, its Return and the message are one transaction, the message's seq
    written on the trigger's engine calls: a later delivery finds it and types nothing."""
    from arena.services.keystrokes import RETURN, Key, composing_line, keystrokes_store
    from arena.services.messages import message_post

    batch = len(text) - typed if per_char_s <= 0 else max(1, round(TYPE_STEP_S / per_char_s))
    chunk = text[typed : typed + batch]
    done = typed + len(chunk) >= len(text)
    following = (typed + len(chunk), len(chunk) * per_char_s)
    with transaction.atomic():
        conversation = (
            Conversation.objects.select_for_update(of=("self",)).select_related("interrogation").get(pk=conversation_id)
        )
        interrogation = conversation.interrogation
        if interrogation.status != Status.RUNNING or (
            interrogation.deadline and timezone.now() >= interrogation.deadline
        ):
            return None  # time ran out while typing: dropped, as a person's unfinished line would be
        if _reply_delivered(conversation_id, trigger_seq):
            return None  # a batch delivered again after its reply was shown
        line = composing_line(conversation, Message.Role.WITNESS)
        if line != text[:typed]:
            if not done and line.startswith(text[: typed + len(chunk)]):
                return following  # this batch is stored already (an earlier delivery of this task)
            log.info(
                "conversation %s: another delivery is typing the reply to message #%s", conversation_id, trigger_seq
            )
            return None
        keys = [Key(ch, ch) for ch in chunk] + ([Key(RETURN)] if done else [])
        keystrokes_store(conversation=conversation, sender_role=Message.Role.WITNESS, keys=keys)
        if not done:
            return following
        try:
            message = message_post(
                conversation_id=conversation_id, sender_role=Message.Role.WITNESS, text=text, user=None
            )
        except Closed:
            return None
        _reply_calls(conversation_id, trigger_seq).filter(outcome=EngineCall.Outcome.OK).update(reply_seq=message.seq)
    return None


def _reply_calls(conversation_id: int, trigger_seq: int):
    return EngineCall.objects.filter(
        conversation_id=conversation_id, trigger_seq=trigger_seq, kind=EngineCall.Kind.REPLY
    )


def _reply_delivered(conversation_id: int, trigger_seq: int) -> bool:
    return _reply_calls(conversation_id, trigger_seq).filter(reply_seq__isnull=False).exists()


def bot_reply_deliver(*, conversation_id: int, trigger_seq: int, text: str) -> Message | None:
    """Store the machine's reply to message `trigger_seq`, at most once.

    Tasks are acknowledged late, so a worker that dies after storing a reply but before acknowledging
    its task gets the task delivered again (at once when a prefork child dies, after the broker's
    visibility timeout when the whole worker does), and the sweep may have asked again meanwhile
    (:func:`bot_replies_resume`). The reply's seq is written on the trigger's engine calls in the same
    transaction as the reply, under the conversation's row lock: a second delivery finds it and
    stores nothing. None when nothing was stored (already answered, or the conversation is over).
    """
    from arena.services.messages import message_post

    with transaction.atomic():
        Conversation.objects.select_for_update(of=("self",)).filter(pk=conversation_id).values_list("pk").first()
        calls = _reply_calls(conversation_id, trigger_seq)
        if calls.filter(reply_seq__isnull=False).exists():
            log.info("conversation %s: the reply to message #%s was already delivered", conversation_id, trigger_seq)
            return None
        try:
            message = message_post(
                conversation_id=conversation_id, sender_role=Message.Role.WITNESS, text=text, user=None
            )
        except Closed:
            return None  # time ran out while the bot was "typing": the reply is dropped, as a human's would be
        calls.filter(outcome=EngineCall.Outcome.OK).update(reply_seq=message.seq)
    return message


def bot_replies_resume(*, grace_s: float = 15.0) -> int:
    """Ask again for replies lost to a crash or restart (an in-process timer, a lost task message).

    A running machine conversation whose latest message is the judge's, older than `grace_s`, is
    answered again when no engine call was made for that message, or when the last one succeeded but
    its reply never arrived within the longest typing delay. Returns how many replies were re-enqueued.
    """
    from arena.tasks import bot_reply

    now = timezone.now()
    conversations = Conversation.objects.filter(
        interrogation__status=Status.RUNNING, witness_entry__isnull=False
    ).select_related("witness_entry")
    resumed = 0
    for conversation in conversations:
        if conversation.witness_entry.is_external:
            continue
        last = conversation.messages.order_by("-seq").only("seq", "sender_role", "created_at").first()
        if last is None or last.sender_role != Message.Role.INTERROGATOR:
            continue
        if (now - last.created_at).total_seconds() < grace_s:
            continue
        call = (
            EngineCall.objects.filter(conversation=conversation, trigger_seq=last.seq, kind=EngineCall.Kind.REPLY)
            .order_by("-created_at")
            .first()
        )
        if call is not None:
            if call.outcome != EngineCall.Outcome.OK:
                continue  # failures have their own retries and circuit breaker
            longest_delay = typing_model_load(entry=conversation.witness_entry).max_s
            if (now - call.created_at).total_seconds() < longest_delay + grace_s:
                continue  # still being "typed"
        log.warning(
            "conversation %s: re-asking for the reply to message #%s, lost in a restart", conversation.pk, last.seq
        )
        enqueue_now(bot_reply, conversation.pk, last.seq)
        resumed += 1
    return resumed
