"""Clock changes a contest format asks of a running interrogation (a Loebner round's pause, resume and
sequential halves). The deadline stays in the database, so a restart loses nothing.

- :func:`conversations_hold`: only the conversations on ``open_sides`` accept messages; the others are
  held (status scheduled) until opened: a paused round holds both, a sequential round the right side
  during the first half and the left during the second.
- :func:`interrogation_deadline_move`: a new deadline (a paused round's is pushed away; resuming sets
  the remaining time back), with the close timer enqueued for it.
"""

import datetime as dt

from django.db import transaction

from arena import notify
from arena.models import Interrogation, Status
from core.dispatch import enqueue_on_commit
from core.errors import Closed


def _running(interrogation_id: int) -> Interrogation:
    interrogation = Interrogation.objects.select_for_update(of=("self",)).get(pk=interrogation_id)
    if interrogation.status != Status.RUNNING:
        raise Closed(f"This interrogation is {interrogation.status}, not running.")
    return interrogation


def conversations_hold(*, interrogation_id: int, open_sides: tuple[str, ...]) -> None:
    with transaction.atomic():
        interrogation = _running(interrogation_id)
        interrogation.conversations.filter(side__in=open_sides).update(status=Status.RUNNING)
        interrogation.conversations.exclude(side__in=open_sides).update(status=Status.SCHEDULED)
        conversations = list(interrogation.conversations.all())
        transaction.on_commit(lambda: notify.status_changed(interrogation, conversations))


def interrogation_deadline_move(*, interrogation_id: int, deadline: dt.datetime) -> None:
    from django.utils import timezone

    from arena.tasks import interrogation_close

    with transaction.atomic():
        interrogation = _running(interrogation_id)
        interrogation.deadline = deadline
        interrogation.save(update_fields=["deadline"])
        conversations = list(interrogation.conversations.all())
        transaction.on_commit(lambda: notify.status_changed(interrogation, conversations))
        countdown = (deadline - timezone.now()).total_seconds() + 0.05
        if countdown < 86400:  # a paused round's far deadline needs no timer: resuming sets a new one
            enqueue_on_commit(interrogation_close, interrogation.pk, countdown=countdown)
