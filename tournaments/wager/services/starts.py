"""Interviews start at their scheduled time, without anyone pressing Start: a periodic sweep (Celery beat,
or the embedded default's beat in daphne) starts every interview whose time has come, at most one sweep
period late. An interview whose whole slot has passed (the platform was down) is left for the organiser to
move; one whose judge or candidate is still in another interview of the session waits for it to end."""

import datetime as dt

from django.db.models import Q
from django.utils import timezone

from arena.models import Status
from arena.services.interrogations import interrogation_start
from core.errors import Closed
from tournaments.wager.models import Interview


def interviews_start_due(*, now: dt.datetime | None = None) -> list[int]:
    """Start every due interview; returns the ids of the interviews started."""
    now = now or timezone.now()
    due = (
        Interview.objects.filter(starts_at__lte=now, interrogation__status=Status.SCHEDULED)
        .select_related("trial", "interrogation")
        .order_by("starts_at", "pk")
    )
    started = []
    for interview in due:
        if now >= interview.starts_at + dt.timedelta(seconds=interview.interrogation.time_limit_s):
            continue  # its slot is over: the organiser moves it (interview_move)
        busy = Interview.objects.filter(
            trial__session_id=interview.trial.session_id, interrogation__status=Status.RUNNING
        ).filter(Q(judge_id=interview.judge_id) | Q(candidate=interview.candidate))
        if busy.exists():
            continue
        try:
            interrogation_start(interrogation_id=interview.interrogation_id)
        except Closed:
            continue  # started meanwhile (the judge pressed Start, another sweep)
        started.append(interview.pk)
    return started
