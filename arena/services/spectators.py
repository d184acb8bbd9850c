"""The delayed spectator feed (writes): open a feed on an interrogation, and release each message to
its spectators once its stored time + the feed's delay has passed.

Release is scheduled, not left to a page's timer: when a message is stored (arena.services.messages),
a task is enqueued with the delay as its countdown; the task re-reads the message's `created_at` and
the feed's delay from the database, pushes only when they allow it, and schedules itself again if it
ran early (a clock or a broker that fires too soon never releases anything before its time). Reads
(`arena.selectors.spectators`) filter on the same stored times, so a reconnect or a JSON read shows
exactly what the pushes may show.

A release task lost with the broker's data (Redis down and back empty) is made up by the periodic sweep
(:func:`spectator_releases_resume`). The feed records the last message pushed in each conversation
(`SpectatorFeed.released`), under its row lock, so each message is pushed once, in order, by whichever of
its task and the sweep comes first.
"""

import datetime as dt

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from arena import groups, payloads
from arena.models import Conversation, Interrogation, Message, SpectatorFeed, Status
from core.dispatch import enqueue_now
from core.errors import InvalidInput
from core.notify import push

MAX_DELAY_S = 3600.0


def _clean_delay(delay_s) -> float:
    if isinstance(delay_s, bool):
        raise InvalidInput("The spectator delay must be a number of seconds.")
    try:
        value = float(delay_s)
    except (TypeError, ValueError):
        raise InvalidInput("The spectator delay must be a number of seconds.") from None
    if not 0 <= value <= MAX_DELAY_S:
        raise InvalidInput(f"The spectator delay must be between 0 and {MAX_DELAY_S:g} seconds.")
    return value


def spectator_feed_open(*, interrogation_id: int, delay_s=60.0) -> SpectatorFeed:
    """Open (or find) the interrogation's feed. An existing feed keeps its delay unless a longer one
    is asked for: shortening it while people watch would show them messages sooner than promised."""
    delay = _clean_delay(delay_s)
    feed, created = SpectatorFeed.objects.get_or_create(interrogation_id=interrogation_id, defaults={"delay_s": delay})
    if not created and delay > feed.delay_s:
        feed.delay_s = delay
        feed.save(update_fields=["delay_s"])
    return feed


def message_release_schedule(message, delay_s: float | None) -> None:
    """After a message is stored: if its interrogation has a feed (``delay_s``, read by the append's own
    statement: a feed opened before the message, in any process, is seen), schedule its release."""
    from arena.tasks import spectator_release

    if delay_s is not None:
        enqueue_now(spectator_release, message.pk, countdown=delay_s)


def release_at(message: Message, delay_s: float) -> dt.datetime:
    return message.created_at + dt.timedelta(seconds=delay_s)


def _releasable(feed: SpectatorFeed, conversation_id: int, now, through_seq: int | None = None) -> list[Message]:
    """With the feed's row locked: the conversation's messages after the last one pushed that are due
    (up to ``through_seq``), in order; the feed's mark moves past them (saved by the caller)."""
    done = feed.released.get(str(conversation_id), 0)
    due = Message.objects.filter(
        conversation_id=conversation_id, seq__gt=done, created_at__lte=now - dt.timedelta(seconds=feed.delay_s)
    )
    if through_seq is not None:
        due = due.filter(seq__lte=through_seq)
    messages = list(due.select_related("conversation").order_by("seq"))
    if messages:
        feed.released[str(conversation_id)] = messages[-1].seq
    return messages


def _push_released(interrogation_id: int, messages: list[Message]) -> None:
    for message in messages:
        push(groups.spectators_group(interrogation_id), payloads.spectator_message(message, message.conversation.side))


def spectator_release(*, message_id: int, now=None) -> bool:
    """Push one message to the spectators if its time has come and the sweep has not pushed it yet
    (True; with any earlier message of its conversation still unpushed), else schedule itself again if
    it ran early."""
    from arena.tasks import spectator_release as task

    message = Message.objects.select_related("conversation").filter(pk=message_id).first()
    if message is None:
        return False
    interrogation_id = message.conversation.interrogation_id
    now = now or timezone.now()
    with transaction.atomic():
        feed = SpectatorFeed.objects.select_for_update().filter(interrogation_id=interrogation_id).first()
        if feed is None:
            return False
        due = release_at(message, feed.delay_s)
        if now < due:
            enqueue_now(task, message_id, countdown=(due - now).total_seconds())
            return False
        released = _releasable(feed, message.conversation_id, now, through_seq=message.seq)
        if released:
            feed.save(update_fields=["released"])
    _push_released(interrogation_id, released)
    return any(m.pk == message.pk for m in released)


def spectator_releases_resume(*, now=None) -> int:
    """The sweep's step: push every due message no release task has pushed (a task lost with the
    broker's data), once. Feeds of interrogations still running, or ended less than the longest delay
    ago. Returns how many messages it pushed."""
    now = now or timezone.now()
    recent = now - dt.timedelta(seconds=MAX_DELAY_S + 60)
    feeds = SpectatorFeed.objects.filter(
        Q(interrogation__status=Status.RUNNING) | Q(interrogation__ended_at__gte=recent)
    ).values_list("pk", "interrogation_id")
    pushed = 0
    for feed_id, interrogation_id in feeds:
        with transaction.atomic():
            feed = SpectatorFeed.objects.select_for_update(skip_locked=True).filter(pk=feed_id).first()
            if feed is None:
                continue  # a release task holds it now
            released = []
            for conversation_id in Conversation.objects.filter(interrogation_id=interrogation_id).values_list(
                "pk", flat=True
            ):
                released += _releasable(feed, conversation_id, now)
            if released:
                feed.save(update_fields=["released"])
        _push_released(interrogation_id, released)
        pushed += len(released)
    return pushed


def spectator_status_push(*, interrogation: Interrogation) -> None:
    delay = SpectatorFeed.objects.filter(interrogation=interrogation).values_list("delay_s", flat=True).first()
    if delay is not None:
        push(groups.spectators_group(interrogation.pk), payloads.spectator_status(interrogation, delay))
