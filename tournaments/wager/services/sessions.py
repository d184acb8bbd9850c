"""Sessions, their trials and the interviews of each trial (arena one-to-one interrogations on the slot plan)."""

import datetime as dt
import random
import secrets

from django.db import transaction

from arena.models import Entry, Status
from arena.services.interrogations import interrogation_create
from arena.services.messages import clean_text
from arena.services.publication import interrogation_publish
from core.errors import Closed, InvalidInput
from markets.models import MAX_SPECTATOR_DELAY_S
from tournaments.wager import rules
from tournaments.wager.models import (
    Aggregation,
    Committee,
    Interview,
    Session,
    SessionFoil,
    SessionJudge,
    Trial,
)
from tournaments.wager.services.audit import audit_record

MAX_TRIALS = 20
MAX_INTERVIEW_MINUTES = 24 * 60
MAX_BREAK_MINUTES = 24 * 60
ALIASES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _whole(value, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{what} must be a whole number from {low} to {high}.")
    return value


def trial_aliases(*, seed: str, number: int, candidates: list[str]) -> dict:
    """The names judges see in a trial: a fresh random letter per candidate each trial (seeded), so neither
    order nor letter says which is the computer, and nothing carries over from one trial to the next."""
    letters = list(ALIASES[: len(candidates)])
    random.Random(f"{seed}:trial:{number}").shuffle(letters)
    return dict(zip(candidates, letters))


def session_create(
    *,
    committee: Committee,
    title: str,
    computer: Entry,
    judges: list,
    foils: list,
    starts_at: dt.datetime,
    called_by: str,
    called_by_kind: str,
    funded_by: str,
    trials: int = 3,
    interview_minutes: int = 120,
    break_minutes: int = 0,
    aggregation: str = Aggregation.MAJORITY,
    rehearsal: bool = False,
    seed: str = "",
    spectator_markets: bool = True,
    spectator_delay_s: float | None = None,
    by=None,
) -> Session:
    """A session and all its trials laid out: each trial's interviews on the slot plan (rules.slot_plan), one
    arena one-to-one interrogation each, the judge as interrogator and the candidate as witness; trial n
    starts when trial n-1's last slot ends. Judges and foils are users; the computer an active entry."""
    if called_by_kind not in Session.CalledBy.values:
        raise InvalidInput(f"called_by_kind must be one of {', '.join(Session.CalledBy.values)}.")
    if aggregation not in Aggregation.values:
        raise InvalidInput(f"aggregation must be one of {', '.join(Aggregation.values)}.")
    trials = _whole(trials, "trials", 1 if rehearsal else 3, MAX_TRIALS)
    interview_minutes = _whole(interview_minutes, "interview_minutes", 1, MAX_INTERVIEW_MINUTES)
    break_minutes = _whole(break_minutes, "break_minutes", 0, MAX_BREAK_MINUTES)
    if not rehearsal and (len(judges) != 3 or len(foils) != 3):
        raise InvalidInput("A session has three judges and three human foils (a rehearsal may have others).")
    if not 1 <= len(judges) <= 10 or not 1 <= len(foils) <= 10:
        raise InvalidInput("From 1 to 10 judges and from 1 to 10 foils.")
    people = list(judges) + list(foils)
    if len({p.pk for p in people}) != len(people):
        raise InvalidInput("Judges and foils must be different people, each named once.")
    if not isinstance(computer, Entry) or not computer.active:
        raise InvalidInput("The computer must be an active entry.")
    if spectator_delay_s is not None and (
        isinstance(spectator_delay_s, bool)
        or not isinstance(spectator_delay_s, (int, float))
        or not 0 <= spectator_delay_s <= MAX_SPECTATOR_DELAY_S
    ):
        raise InvalidInput(f"spectator_delay_s must be a number of seconds from 0 to {MAX_SPECTATOR_DELAY_S}.")
    seed = seed or secrets.token_hex(8)
    with transaction.atomic():
        session = Session.objects.create(
            committee=committee,
            title=clean_text(title, max_chars=200, what="title"),
            computer=computer,
            called_by=clean_text(called_by, max_chars=200, what="name of who called the session"),
            called_by_kind=called_by_kind,
            funded_by=clean_text(funded_by, max_chars=200, what="name of who pays"),
            trials_planned=trials,
            interview_minutes=interview_minutes,
            break_minutes=break_minutes,
            aggregation=aggregation,
            starts_at=starts_at,
            rehearsal=rehearsal,
            seed=seed[:64],
            spectator_markets=bool(spectator_markets),
            spectator_delay_s=spectator_delay_s,
        )
        seated_judges = [
            SessionJudge.objects.create(session=session, user=u, position=i) for i, u in enumerate(judges, start=1)
        ]
        seated_foils = [
            SessionFoil.objects.create(session=session, user=u, position=i) for i, u in enumerate(foils, start=1)
        ]
        plan = rules.slot_plan(
            judges=len(judges), candidates=len(foils) + 1, hours=interview_minutes / 60, break_h=break_minutes / 60
        )
        trial_span = trial_span_of(plan=plan, break_minutes=break_minutes)
        witness = {"computer": computer, **{f.label: f.user for f in seated_foils}}
        judge_by_label = {j.label: j.user for j in seated_judges}
        for number in range(1, trials + 1):
            trial_start = starts_at + (number - 1) * trial_span
            trial = Trial.objects.create(
                session=session,
                number=number,
                starts_at=trial_start,
                aliases=trial_aliases(seed=seed, number=number, candidates=list(witness)),
            )
            for slot in plan:
                at = trial_start + dt.timedelta(hours=slot.start_h)
                interrogation = interrogation_create(
                    judge=judge_by_label[slot.judge],
                    witnesses=[witness[slot.candidate]],
                    time_limit_s=interview_minutes * 60,
                    scheduled_at=at,
                    title=(
                        f"{session.title} · trial {number} · {slot.judge} · Candidate {trial.aliases[slot.candidate]}"
                    ),
                )
                Interview.objects.create(
                    trial=trial,
                    judge=judge_by_label[slot.judge],
                    candidate=slot.candidate,
                    slot=slot.slot,
                    starts_at=at,
                    interrogation=interrogation,
                )
        audit_record(
            actor=by,
            action="session.create",
            session=session,
            detail={
                "title": session.title,
                "computer": computer.display_name,
                "judges": [u.get_username() for u in judges],
                "foils": [u.get_username() for u in foils],
                "trials": trials,
                "interview_minutes": interview_minutes,
                "break_minutes": break_minutes,
                "aggregation": aggregation,
                "called_by": session.called_by,
                "funded_by": session.funded_by,
                "rehearsal": rehearsal,
                "spectator_markets": session.spectator_markets,
                "spectator_delay_s": spectator_delay_s,
            },
        )
    return session


def _plan_of(trial: Trial) -> list[rules.Slot]:
    hour = dt.timedelta(hours=1)
    length = trial.session.interview_minutes / 60
    out = []
    labels = {j.user_id: j.label for j in trial.session.judges.all()}
    for interview in trial.interviews.all():
        start = (interview.starts_at - trial.session.starts_at) / hour
        out.append(rules.Slot(interview.slot, labels[interview.judge_id], interview.candidate, start, start + length))
    return out


def trial_span_of(*, plan, break_minutes: int = 0) -> dt.timedelta:
    """How long one trial lasts on the slot plan: from its first slot's start to the next trial's."""
    return dt.timedelta(hours=max(s.end_h for s in plan) + break_minutes / 60)


def interview_move(*, interview_id: int, starts_at: dt.datetime, by=None) -> Interview:
    """Move one scheduled interview on the calendar; refused if a judge or a candidate would then be in two
    interviews at once."""
    with transaction.atomic():
        interview = (
            Interview.objects.select_for_update().select_related("trial__session", "interrogation").get(pk=interview_id)
        )
        if interview.interrogation.status != Status.SCHEDULED:
            raise Closed("Only an interview that has not started can be moved.")
        before = interview.starts_at
        interview.starts_at = starts_at
        interview.save(update_fields=["starts_at"])
        trial = interview.trial
        problems = [
            p
            for t in trial.session.trials.all()
            for p in rules.plan_check(
                _plan_of(t), judges=trial.session.judges.count(), candidates=trial.session.foils.count() + 1
            )
        ]
        overlap = _overlaps(trial.session)
        if problems or overlap:
            raise InvalidInput("That move is refused: " + "; ".join(problems + overlap))
        interview.interrogation.scheduled_at = starts_at
        interview.interrogation.save(update_fields=["scheduled_at"])
        audit_record(
            actor=by,
            action="interview.move",
            session=trial.session,
            detail={
                "trial": trial.number,
                "slot": interview.slot,
                "candidate": interview.candidate,
                "judge": interview.judge.get_username(),
                "from": before.isoformat(),
                "to": starts_at.isoformat(),
            },
        )
    return interview


def _overlaps(session: Session) -> list[str]:
    """A judge or a candidate in two interviews at once, across all of the session's trials."""
    length = dt.timedelta(minutes=session.interview_minutes)
    rows = list(Interview.objects.filter(trial__session=session).select_related("trial", "judge"))
    problems = []
    for key in ("judge_id", "candidate"):
        by = {}
        for row in rows:
            by.setdefault(getattr(row, key), []).append(row)
        for group in by.values():
            group.sort(key=lambda r: r.starts_at)
            for a, b in zip(group, group[1:]):
                if b.starts_at < a.starts_at + length:
                    who = a.judge.get_username() if key == "judge_id" else a.candidate
                    problems.append(
                        f"{who} would be in two interviews at once (trial {a.trial.number} slot {a.slot}, "
                        f"trial {b.trial.number} slot {b.slot})"
                    )
    return problems


def trial_reschedule(*, trial_id: int, starts_at: dt.datetime, by=None) -> Trial:
    """Move a whole trial (all its interviews that have not started keep their places relative to it)."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().select_related("session").get(pk=trial_id)
        interviews = list(trial.interviews.select_related("interrogation"))
        if any(i.interrogation.status != Status.SCHEDULED for i in interviews):
            raise Closed("This trial has begun: move its interviews that have not started one by one.")
        shift = starts_at - trial.starts_at
        before = trial.starts_at
        trial.starts_at = starts_at
        trial.save(update_fields=["starts_at"])
        for interview in interviews:
            interview.starts_at += shift
            interview.save(update_fields=["starts_at"])
            interview.interrogation.scheduled_at = interview.starts_at
            interview.interrogation.save(update_fields=["scheduled_at"])
        overlap = _overlaps(trial.session)
        if overlap:
            raise InvalidInput("That move is refused: " + "; ".join(overlap))
        audit_record(
            actor=by,
            action="trial.reschedule",
            session=trial.session,
            detail={"trial": trial.number, "from": before.isoformat(), "to": starts_at.isoformat()},
        )
    return trial


def session_publish(*, session_id: int, by=None) -> int:
    """Publish every finished interview's transcript (witnesses anonymised), so the report's signed chain
    heads can be checked against them by anyone; only once every trial's verdicts are in. Returns how many
    were published."""
    from tournaments.wager.selectors import session_result

    session = Session.objects.get(pk=session_id)
    if not session_result(session=session).complete:
        # a published transcript says which witness was human: not while a judge may still be judging
        raise Closed("Publish the transcripts once every trial's verdicts are in.")
    published = 0
    with transaction.atomic():
        for interview in Interview.objects.filter(trial__session=session).select_related("interrogation"):
            if interview.interrogation.status in (Status.ENDED, Status.ABORTED):
                interrogation_publish(interrogation_id=interview.interrogation_id)
                published += 1
        audit_record(actor=by, action="session.publish", session=session, detail={"published": published})
    return published


def session_aggregation_set(*, session_id: int, aggregation: str, by=None) -> Session:
    """The committee's choice of how trials make the session's result (recorded in the audit log)."""
    if aggregation not in Aggregation.values:
        raise InvalidInput(f"aggregation must be one of {', '.join(Aggregation.values)}.")
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session_id)
        before = session.aggregation
        if before != aggregation:
            session.aggregation = aggregation
            session.save(update_fields=["aggregation"])
            audit_record(
                actor=by, action="session.aggregation", session=session, detail={"from": before, "to": aggregation}
            )
    return session
