"""The delayed spectator feed (writes): open a feed on an interrogation, and release each message to
its spectators once its stored time + the feed's delay has passed.

Release is scheduled, not left to a page's timer: when a message is stored (arena.services.messages),
a task is enqueued with the delay as its countdown; the task re-reads the message's `created_at` and
the feed's delay from the database, pushes only when they allow it, and schedules itself again if it
ran early (a clock or a broker that fires too soon never releases anything before its time). Reads
(`arena.selectors.spectators`) filter on the same stored times, so a reconnect or a JSON read shows
exactly what the pushes may show.
"""

import datetime as dt

from django.utils import timezone

from arena import groups, payloads
from arena.models import Interrogation, Message, SpectatorFeed
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


def spectator_release(*, message_id: int, now=None) -> bool:
    """Push one message to the spectators if its time has come (True), else schedule itself again."""
    from arena.tasks import spectator_release as task

    message = Message.objects.select_related("conversation").filter(pk=message_id).first()
    if message is None:
        return False
    interrogation_id = message.conversation.interrogation_id
    delay = SpectatorFeed.objects.filter(interrogation_id=interrogation_id).values_list("delay_s", flat=True).first()
    if delay is None:
        return False
    due = release_at(message, delay)
    now = now or timezone.now()
    if now < due:
        enqueue_now(task, message_id, countdown=(due - now).total_seconds())
        return False
    push(groups.spectators_group(interrogation_id), payloads.spectator_message(message, message.conversation.side))
    return True


def spectator_status_push(*, interrogation: Interrogation) -> None:
    delay = SpectatorFeed.objects.filter(interrogation=interrogation).values_list("delay_s", flat=True).first()
    if delay is not None:
        push(groups.spectators_group(interrogation.pk), payloads.spectator_status(interrogation, delay))
