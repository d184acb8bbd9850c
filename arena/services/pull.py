"""Pull mode: an entrant's program fetches the judge messages awaiting its answer and posts replies.

A conversation is pending when its interrogation is running, its witness is the entry, its last
message is the interrogator's, and the entry has not answered that message yet. The conversation key
handed out is the conversation's public id.

A reply is accepted only as the answer to a pending message, one answer per judge message (anything
else is a :class:`~core.errors.Conflict`), and it is not stored at once: it is held and delivered
through the built-in engines' delayed delivery (:func:`arena.services.witnesses.bot_reply_schedule`)
no sooner than the entry's typing model allows, counted from the judge's message, so that a program
answering in a millisecond looks to the judge like any other witness.

The long poll (:func:`pull_pending_wait`) is a coroutine: while it waits it holds no thread and no
database connection (one query a step checks every waiting poll of the process:
:mod:`arena.services.pull_watch`), and it ends with its request when the client goes away.
"""

import asyncio
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.models import ApiKey, Conversation, EngineCall, Entry, Message, Status
from arena.services.pull_watch import pending_watch, poll_executor
from core.db import connection_release
from core.errors import Closed, Conflict, InvalidInput, NotAllowed


class KeyRevoked(NotAllowed):
    """The API key a long poll was authenticated with has been revoked (or its user deactivated)."""


def _answered(conversation_ids) -> set[tuple[int, int]]:
    """(conversation id, judge message seq) of the replies a pull entry has had accepted."""
    return set(
        EngineCall.objects.filter(
            conversation_id__in=conversation_ids,
            kind=EngineCall.Kind.PULL,
            outcome=EngineCall.Outcome.OK,
        ).values_list("conversation_id", "trigger_seq")
    )


def pull_pending(*, entry: Entry) -> list[dict]:
    pending = []
    now = timezone.now()
    conversations = list(
        Conversation.objects.filter(
            witness_entry=entry, interrogation__status=Status.RUNNING, interrogation__deadline__gt=now
        ).order_by("pk")
    )
    answered = _answered([c.pk for c in conversations]) if conversations else set()
    for conversation in conversations:
        messages = list(conversation.messages.order_by("seq").values_list("seq", "sender_role", "text"))
        if not messages or messages[-1][1] != Message.Role.INTERROGATOR:
            continue
        *earlier, (seq, _, text) = messages
        if (conversation.pk, seq) in answered:
            continue  # its reply is being "typed"
        pending.append(
            {
                "conversation": str(conversation.public_id),
                "seq": seq,
                "message": text,
                "history": [{"role": role, "text": t} for _, role, t in earlier],
            }
        )
    return pending


def _pending_released(*, entry: Entry, key_id: int | None = None) -> list[dict]:
    """:func:`pull_pending`, then this thread's connection is closed, so that a waiting poll holds none
    (a persistent connection would stay open for CONN_MAX_AGE); kept inside a transaction (a test's).
    Raises KeyRevoked when the poll's API key (``key_id``) is no longer active."""
    try:
        if (
            key_id is not None
            and not ApiKey.objects.filter(pk=key_id, revoked_at__isnull=True, user__is_active=True).exists()
        ):
            raise KeyRevoked("This API key has been revoked.", code="key_revoked")
        return pull_pending(entry=entry)
    finally:
        connection_release()


async def pull_pending_wait(
    *,
    entry: Entry,
    wait_s: float,
    key_id: int | None = None,
    since: float | None = None,
    first: list[dict] | None = None,
) -> list[dict]:
    """:func:`pull_pending`, for up to ``wait_s`` seconds, which must be finite, from 0 to
    ARENA_PULL_MAX_WAIT_S (InvalidInput otherwise: NaN fails every comparison and would never end the wait).

    Checked once at once; then the poll waits on this process's watch (:mod:`arena.services.pull_watch`),
    which checks every waiting poll's entry in one query every ARENA_PULL_POLL_S and wakes this one when
    its entry has a message to answer; it then reads its pending messages again. Each read runs on a
    worker thread (not the shared sync thread) and closes its connection; in between the poll holds no
    thread or connection, and it is cancelled with the request when its client disconnects. Each read
    first makes sure the poll's API key (``key_id``) is still active, and the watch wakes a poll whose key
    is revoked: a key revoked meanwhile ends its open polls (KeyRevoked), which receive nothing more.
    The wait counts from ``since`` (the event loop's time when the request arrived; now by default), so
    the time its authentication took under load is part of it, not added to it. ``first``: the first
    check's result, when the caller read it already (with the authentication, on one connection)."""
    if not 0 <= wait_s <= settings.ARENA_PULL_MAX_WAIT_S:
        raise InvalidInput(f"wait must be a number of seconds from 0 to {settings.ARENA_PULL_MAX_WAIT_S:g}.")
    check = sync_to_async(_pending_released, thread_sensitive=False, executor=poll_executor())
    loop = asyncio.get_running_loop()
    deadline = (loop.time() if since is None else since) + wait_s
    pending = await check(entry=entry, key_id=key_id) if first is None else first
    while not pending:
        left = deadline - loop.time()
        if left <= 0 or not await pending_watch().until_due(entry_id=entry.pk, key_id=key_id, timeout=left):
            return []
        pending = await check(entry=entry, key_id=key_id)
    return pending


@dataclass(frozen=True)
class HeldReply:
    """A pull reply accepted and held until its typing delay has passed."""

    reply_to: int  # the seq of the judge message it answers
    text: str  # as the judge will see it (cleaned)
    deliver_at: datetime  # not shown before then


def pull_reply(*, entry: Entry, conversation_key, text) -> HeldReply | None:
    """Accept the entry's reply (cleaned by the reply rules) to the conversation's pending judge
    message and schedule its delivery after the entry's typing delay, counted from that message.

    None when the conversation is not the entry's. Raises InvalidInput (not a pull entry, a reply the
    rules refuse), Closed (the conversation is over) or Conflict: nothing to answer (the last message
    is not the judge's: ``not_pending``) or that message already has its answer (``already_answered``).
    """
    from arena.services.breaker import CallResult, breaker_record, engine_call_log
    from arena.services.engines import reply_cap, typing_model_load
    from arena.services.witnesses import bot_reply_schedule
    from bots.base import EngineError
    from bots.sanitize import clean_reply

    conversation = (
        Conversation.objects.filter(public_id=conversation_key, witness_entry=entry)
        .select_related("interrogation")
        .first()
    )
    if conversation is None:
        return None
    if entry.engine != "pull":
        raise InvalidInput("This entry is not in pull mode: its engine answers for it.")
    last = conversation.messages.order_by("-seq").first()
    latency_ms = int((timezone.now() - last.created_at).total_seconds() * 1000) if last else 0
    try:
        cleaned = clean_reply(text, max_chars=reply_cap(conversation.interrogation))
    except EngineError as exc:
        result = CallResult(EngineCall.Outcome.ERROR, latency_ms=latency_ms, error=f"bad reply: {exc}")
        engine_call_log(entry, result, kind=EngineCall.Kind.PULL, conversation=conversation)
        raise InvalidInput(f"Reply refused: {exc}.") from None
    detail = "reply cleaned" if cleaned != text else ""
    with transaction.atomic():  # one answer per judge message, however many requests race for it
        Conversation.objects.select_for_update().filter(pk=conversation.pk).values_list("pk").first()
        interrogation = conversation.interrogation
        interrogation.refresh_from_db(fields=["status", "deadline"])
        if interrogation.status != Status.RUNNING or (
            interrogation.deadline and timezone.now() >= interrogation.deadline
        ):
            raise Closed("The conversation is over: no reply can be sent.")
        trigger = conversation.messages.order_by("-seq").first()
        if trigger is None or trigger.sender_role != Message.Role.INTERROGATOR:
            raise Conflict("Nothing to answer: a reply must answer the judge's latest message.", code="not_pending")
        if (conversation.pk, trigger.seq) in _answered([conversation.pk]):
            raise Conflict(
                f"Message {trigger.seq} already has its answer: one reply per judge message.", code="already_answered"
            )
        latency_ms = max(0, int((timezone.now() - trigger.created_at).total_seconds() * 1000))
        result = CallResult(EngineCall.Outcome.OK, text=cleaned, latency_ms=latency_ms, detail=detail)
        engine_call_log(entry, result, kind=EngineCall.Kind.PULL, conversation=conversation, trigger_seq=trigger.seq)
    breaker_record(entry, result)
    model = typing_model_load(entry=entry)
    elapsed_s = (timezone.now() - trigger.created_at).total_seconds()
    typing_after_s, delay_s = model.schedule(trigger.text, cleaned, random.Random())
    countdown = bot_reply_schedule(
        conversation=conversation,
        trigger_seq=trigger.seq,
        text=cleaned,
        typing=model,
        delay_s=delay_s,
        typing_after_s=typing_after_s,
        elapsed_s=elapsed_s,
    )
    return HeldReply(reply_to=trigger.seq, text=cleaned, deliver_at=timezone.now() + timedelta(seconds=countdown))


def pull_typing(*, entry: Entry, conversation_key) -> bool:
    """Push "the witness is typing" to the judge, at the one cadence of every witness's typing (a call
    that comes sooner is taken and not shown); False when the conversation is not the entry's."""
    from arena import notify
    from arena.services.witnesses import typing_cadence_take

    conversation = Conversation.objects.filter(
        public_id=conversation_key, witness_entry=entry, interrogation__status=Status.RUNNING
    ).first()
    if conversation is None:
        return False
    if typing_cadence_take(conversation_id=conversation.pk):
        notify.typing(conversation, by_role=Message.Role.WITNESS)
    return True
