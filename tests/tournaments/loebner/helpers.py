"""Builders shared by the Loebner tests."""

import datetime as dt

from django.utils import timezone

from arena import roles
from arena.models import Entry
from tests.conftest import FAST, make_user


def contest_make(name="Test Prize", *, fmt="2009-rules", status="open", **fields):
    from tournaments.loebner.models import Contest

    return Contest.objects.create(name=name, format_name=fmt, status=status, **fields)


def entrant_make(username):
    return make_user(username, roles.ENTRANT)


def entry_make(owner, name, engine="simple", settings=None):
    return Entry.objects.create(owner=owner, display_name=name, engine=engine, settings=settings or dict(FAST))


def entered(contest, owner, name, *, people=None, compliant=True, minutes=0, engine_name="simple", **statements):
    """An entry entered at ``contest_day``-independent receipt times (``minutes`` after a fixed start)."""
    from tournaments.loebner import services

    entry = entry_make(owner, name, engine=engine_name)
    statements.setdefault("rights_statement", True)
    item = services.contest_enter(
        contest_id=contest.pk,
        entry_id=entry.pk,
        entrant=owner,
        people=people or [name + " author"],
        now=timezone.now() - dt.timedelta(hours=1) + dt.timedelta(minutes=minutes),
        **statements,
    )
    if compliant is not None and item.statements_ok:
        services.entry_check(contest_entry_id=item.pk, compliant=compliant)
    return item


def finals_make(cast, *, fmt="aisb", seed=3, schedule=True, **fields):
    """A contest in its finals: four compliant finalists E1…E4 (built-in engines), judges J1… (jude and
    june first) and confederates C1… (connie and carl first) as the format needs; the schedule built
    unless ``schedule`` is false."""
    from tournaments.loebner import services
    from tournaments.loebner.models import Contest, Participant

    contest = contest_make(f"Finals {fmt}", fmt=fmt, seed=seed, **fields)
    owner = entrant_make("finalist-owner")
    for i in range(4):
        item = entered(contest, owner, f"Finalist {i + 1}", minutes=i, engine_name=("simple", "eliza")[i % 2])
        item.qualified = item.finalist = True
        item.save()
        Participant.objects.create(contest=contest, label=f"E{i + 1}", kind=Participant.Kind.ENTRY, contest_entry=item)
    Contest.objects.filter(pk=contest.pk).update(status=Contest.Status.FINALS)
    from tournaments.loebner.selectors import contest_format

    need = contest_format(contest=contest)
    judges = [cast.jude, cast.june] + [make_user(f"judge{i}", roles.JUDGE) for i in range(3, need.judges + 1)]
    confederates = [cast.connie, cast.carl] + [
        make_user(f"conf{i}", roles.CONFEDERATE) for i in range(3, need.confederates + 1)
    ]
    services.participants_assign(
        contest_id=contest.pk, judges=judges[: need.judges], confederates=confederates[: need.confederates]
    )
    if schedule:
        services.schedule_create(contest_id=contest.pk)
    contest.refresh_from_db()
    return contest


def judge_round(round_, pick_entry):
    """Start the round, end its talk, and have each judge pick the entry as human when ``pick_entry(meeting)``."""
    from arena.services import verdict_submit
    from tournaments.loebner import services

    services.round_start(round_id=round_.pk)
    services.round_finish(round_id=round_.pk)
    for m in round_.meetings.select_related("judge__user"):
        entry_side = "left" if m.left == "entry" else "right"
        other = "right" if entry_side == "left" else "left"
        verdict_submit(
            interrogation_id=m.interrogation_id,
            judge=m.judge.user,
            choice=entry_side if pick_entry(m) else other,
            confidence=70,
        )


def rounds_play(contest, pick_entry=lambda meeting: False):
    """Every round of the final played in turn and judged (``judge_round``)."""
    for round_ in contest.rounds.order_by("number"):
        judge_round(round_, pick_entry)
