"""What a judge must do next (reads): their meeting that is on now, a verdict still to give, their next
scheduled meeting, or a task of their contest (a Loebner contest's ranks, a wager trial's verdicts).

The judge's home page and the console's end screen show these links; no view works them out itself.

A format whose interrogations come in an order of its own (a contest's rounds) or that asks its judges for
more than a verdict registers a source: `source(user) -> FormatSteps`, the steps it has for that user and the
interrogations it speaks for (the arena lists none of those itself). The arena's own source covers every
other interrogation the user judges (plain interrogations, a study's games).
"""

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Q
from django.urls import reverse

from arena.models import Interrogation, Status
from arena.services.verdicts import verdict_elsewhere
from core.payloads import iso

# the order of the steps: what is on now, a verdict due now, the next meeting, then a task due
RUNNING, VERDICT, SCHEDULED, TASK = range(4)
SCHEDULED_SHOWN = 3  # the arena's own source lists this many of a judge's scheduled interrogations


@dataclass(frozen=True)
class NextStep:
    """One thing to do: the link's words, where it goes, how urgent (RUNNING … TASK), when it is due (a
    scheduled meeting's start; None: now), and the interrogation it opens (None: a contest's page)."""

    text: str
    url: str
    order: int
    when: dt.datetime | None = None
    interrogation_id: int | None = None

    @property
    def starts(self) -> dt.datetime | None:
        """When a scheduled meeting starts: the time a page shows beside the link (None for what is due now)."""
        return self.when if self.order == SCHEDULED else None

    def as_dict(self) -> dict:
        return {"text": self.text, "url": self.url, "when": iso(self.starts)}


@dataclass
class FormatSteps:
    steps: list = field(default_factory=list)
    claimed: set = field(default_factory=set)  # interrogation ids the format speaks for


_SOURCES: list = []


def next_steps_register(source) -> None:
    """`source(user) -> FormatSteps`."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def console_url(interrogation) -> str:
    return reverse("judge_console", args=[interrogation.public_id])


def _arena_steps(user, claimed: set) -> list[NextStep]:
    """The user's other interrogations as judge: running ones, ended ones awaiting a verdict given here, and
    the first scheduled ones (soonest first)."""
    mine = Interrogation.objects.filter(judge=user).exclude(pk__in=claimed)
    steps = [
        NextStep(f"{i}: on now", console_url(i), RUNNING, None, i.pk)
        for i in mine.filter(status=Status.RUNNING).order_by("deadline")
    ]
    steps += [
        NextStep(f"{i}: give your verdict", console_url(i), VERDICT, i.ended_at, i.pk)
        for i in mine.filter(Q(status=Status.ENDED) & Q(verdict__isnull=True)).order_by("ended_at")[:10]
        if not verdict_elsewhere(i.pk)
    ]
    scheduled = mine.filter(status=Status.SCHEDULED).order_by("scheduled_at", "created_at")[:SCHEDULED_SHOWN]
    steps += [NextStep(str(i), console_url(i), SCHEDULED, i.scheduled_at, i.pk) for i in scheduled]
    return steps


_LAST = dt.datetime.max.replace(tzinfo=dt.UTC)


def _sort_key(step: NextStep):
    return (step.order, step.when or _LAST, step.text)  # within a kind, the soonest first, an undated one last


def judge_next_steps(*, user, exclude: int | None = None) -> list[NextStep]:
    """Everything the user must do next as a judge, most urgent first; ``exclude``: an interrogation whose
    page the user is on (its end screen links to what follows it)."""
    if not user.is_authenticated:
        return []
    steps, claimed = [], set()
    for source in _SOURCES:
        found = source(user)
        steps += found.steps
        claimed |= set(found.claimed)
    steps += _arena_steps(user, claimed)
    return sorted((s for s in steps if exclude is None or s.interrogation_id != exclude), key=_sort_key)


def judge_next_step(*, user, exclude: int | None = None) -> NextStep | None:
    steps = judge_next_steps(user=user, exclude=exclude)
    return steps[0] if steps else None
