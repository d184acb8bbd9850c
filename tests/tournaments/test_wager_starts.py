"""Wager interviews start at their scheduled time without anyone pressing Start (the beat's sweep)."""

import datetime as dt

from arena import services as arena
from arena.models import Status
from tournaments.wager.services import interviews_start_due

from .wager_helpers import wager_session


def _status(session):
    return {
        (i.trial.number, i.slot, i.judge.username): i.interrogation.status
        for i in session.trials.get(number=1).interviews.select_related("interrogation", "judge", "trial")
    }


def test_the_first_slot_starts_when_its_time_comes_and_not_before(cast):
    session = wager_session(cast, rehearsal=True, trials=1, minutes=60)
    first = session.trials.get().interviews.filter(slot=1)
    assert interviews_start_due(now=session.starts_at - dt.timedelta(seconds=1)) == []
    started = interviews_start_due(now=session.starts_at + dt.timedelta(seconds=3))
    assert sorted(started) == sorted(first.values_list("pk", flat=True)) and len(started) == 3
    assert {s for (_, slot, _), s in _status(session).items() if slot == 1} == {Status.RUNNING}
    assert {s for (_, slot, _), s in _status(session).items() if slot > 1} == {Status.SCHEDULED}
    assert interviews_start_due(now=session.starts_at + dt.timedelta(seconds=8)) == []  # once


def test_an_interview_whose_slot_has_passed_is_left_for_the_organiser(cast):
    session = wager_session(cast, rehearsal=True, trials=1, minutes=60)
    started = interviews_start_due(now=session.starts_at + dt.timedelta(minutes=61))  # the platform was down
    status = _status(session)
    assert {s for (_, slot, _), s in status.items() if slot == 1} == {Status.SCHEDULED}  # its hour is over
    assert {s for (_, slot, _), s in status.items() if slot == 2} == {Status.RUNNING} and len(started) == 3


def test_a_judge_still_in_an_overrunning_interview_is_not_pulled_into_the_next(cast):
    session = wager_session(cast, rehearsal=True, trials=1, minutes=60)
    trial = session.trials.get()
    interviews_start_due(now=session.starts_at)
    late = trial.interviews.get(slot=1, judge=cast.jude)
    for other in trial.interviews.filter(slot=1).exclude(pk=late.pk):
        arena.interrogation_end(interrogation_id=other.interrogation_id, reason="judge")
    second = interviews_start_due(now=session.starts_at + dt.timedelta(minutes=60, seconds=2))
    waiting = trial.interviews.filter(slot=2).filter(judge=cast.jude) | trial.interviews.filter(
        slot=2, candidate=late.candidate
    )
    assert second and not set(second) & set(waiting.values_list("pk", flat=True))
    arena.interrogation_end(interrogation_id=late.interrogation_id, reason="judge")
    assert set(interviews_start_due(now=session.starts_at + dt.timedelta(minutes=61))) == set(
        waiting.values_list("pk", flat=True)
    )


def test_a_judge_who_pressed_start_first_is_not_refused(cast):
    session = wager_session(cast, rehearsal=True, trials=1, minutes=60)
    mine = session.trials.get().interviews.get(slot=1, judge=cast.jude)
    arena.interrogation_start(interrogation_id=mine.interrogation_id, by=cast.jude)
    started = interviews_start_due(now=session.starts_at + dt.timedelta(seconds=1))
    assert mine.pk not in started and len(started) == 2
