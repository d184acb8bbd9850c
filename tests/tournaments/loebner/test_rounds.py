"""Rounds: the schedule realised as arena interrogations; start, the sequential halves, pause, resume,
restart; every phase from stored timestamps."""

import datetime as dt
import io

import pytest

from arena.models import Interrogation, Message, Status
from arena.services import message_post
from core.errors import Closed
from tests.tournaments.loebner.helpers import finals_make
from tournaments.loebner import selectors, services
from tournaments.loebner.models import Meeting, Round

pytest.importorskip("tournaments.loebner.rules.schedule")
pytestmark = pytest.mark.django_db


def post(meeting, side, text="Hello there"):
    conversation = meeting.interrogation.conversations.get(side=side)
    return message_post(
        conversation_id=conversation.pk, sender_role=Message.Role.INTERROGATOR, text=text, user=meeting.judge.user
    )


def rewind(round_, seconds):
    """As if the round had started ``seconds`` earlier (its interrogations' deadlines too)."""
    Round.objects.filter(pk=round_.pk).update(started_at=round_.started_at - dt.timedelta(seconds=seconds))
    for meeting in round_.meetings.all():
        Interrogation.objects.filter(pk=meeting.interrogation_id).update(
            deadline=meeting.interrogation.deadline - dt.timedelta(seconds=seconds)
        )
    round_.refresh_from_db()


def test_every_meeting_is_a_three_party_interrogation_with_the_schedules_sides(cast):
    contest = finals_make(cast, fmt="aisb", keystroke_mode=True)
    fmt = selectors.contest_format(contest=contest)
    meetings = list(
        Meeting.objects.filter(round__contest=contest).select_related("interrogation", "entry__contest_entry")
    )
    assert len(meetings) == fmt.rounds * fmt.judges and contest.rounds.count() == fmt.rounds
    for m in meetings:
        i = m.interrogation
        assert i.kind == "three_party" and i.status == Status.SCHEDULED and i.keystroke_mode
        assert i.judge == m.judge.user and i.time_limit_s == round(fmt.round_minutes * 60)
        machine_side = i.conversations.get(witness_entry__isnull=False).side
        assert (machine_side == "left") == (m.left == "entry")
        assert i.conversations.get(witness_human__isnull=False).witness_human == m.confederate.user
    assert {m.left for m in meetings} == {"entry", "confederate"}


def test_a_round_starts_all_its_meetings_and_another_waits_for_its_break(cast):
    contest = finals_make(cast, fmt="aisb")
    first, second = contest.rounds.order_by("number")[:2]
    services.round_start(round_id=first.pk)
    assert set(Interrogation.objects.filter(loebner_meeting__round=first).values_list("status", flat=True)) == {
        "running"
    }
    with pytest.raises(Closed):
        services.round_start(round_id=second.pk)
    fmt = selectors.contest_format(contest=contest)
    rewind(Round.objects.get(pk=first.pk), selectors.talk_seconds(fmt) + fmt.review_minutes * 60 + 1)
    services.round_start(round_id=second.pk)  # the first is in its break: over for the judges
    assert Round.objects.get(pk=first.pk).status == Round.Status.ENDED


def test_sequential_rounds_open_the_left_witness_then_the_right(cast):
    contest = finals_make(cast, fmt="2009-rules")
    fmt = selectors.contest_format(contest=contest)
    assert fmt.mode == "sequential"
    round_ = contest.rounds.order_by("number").first()
    services.round_start(round_id=round_.pk)
    meeting = round_.meetings.select_related("interrogation", "judge__user").first()
    post(meeting, "left")
    with pytest.raises(Closed):
        post(meeting, "right")
    round_.refresh_from_db()
    rewind(round_, fmt.round_minutes * 60 + 1)
    assert services.round_tick(round_id=round_.pk)["side"] == "right"
    post(meeting, "right")
    with pytest.raises(Closed):
        post(meeting, "left")


def test_the_judge_and_the_confederates_are_told_which_side_waits_its_turn(cast, django_capture_on_commit_callbacks):
    """A sequential round holds one side: the judge's console says which (its box takes nothing), and the
    held confederate reads that the judge is not talking to them yet; pushes say it as states do."""
    from unittest import mock

    from arena.selectors.interrogations import judge_state, witness_state

    contest = finals_make(cast, fmt="2009-rules")
    fmt = selectors.contest_format(contest=contest)
    round_ = contest.rounds.order_by("number").first()
    meeting = round_.meetings.select_related("interrogation").first()
    assert judge_state(interrogation=meeting.interrogation)["held"] == []  # not started: nothing is held
    with mock.patch("arena.notify.push_many") as pushed, django_capture_on_commit_callbacks(execute=True):
        services.round_start(round_id=round_.pk)
    conversations = {c.side: c for c in meeting.interrogation.conversations.all()}
    assert judge_state(interrogation=meeting.interrogation)["held"] == ["right"]
    human = next(side for side, c in conversations.items() if c.witness_human_id)
    assert witness_state(conversation=conversations[human])["held"] is (human == "right")
    judge_pushes = [
        payload
        for call in pushed.call_args_list
        for group, payload in call.args[0]
        if payload.get("type") == "status" and "held" in payload and isinstance(payload["held"], list)
    ]
    assert judge_pushes and judge_pushes[-1]["held"] == ["right"]
    round_.refresh_from_db()
    rewind(round_, fmt.round_minutes * 60 + 1)
    services.round_tick(round_id=round_.pk)
    assert judge_state(interrogation=meeting.interrogation)["held"] == ["left"]
    assert witness_state(conversation=conversations[human])["held"] is (human == "left")


def test_the_beat_switches_sides_and_ends_rounds_without_a_page_or_a_timer(cast):
    """The sweep the beat runs every 5 s: half time opens the right witness, and once talk, review and
    break are over the round is ended, though no page looked and the in-process timer died with a restart."""
    contest = finals_make(cast, fmt="2009-rules")
    fmt = selectors.contest_format(contest=contest)
    round_ = contest.rounds.order_by("number").first()
    services.round_start(round_id=round_.pk)
    round_.refresh_from_db()
    meeting = round_.meetings.select_related("interrogation").first()
    assert services.rounds_tick_running() == []
    rewind(round_, fmt.round_minutes * 60 + 1)
    assert services.rounds_tick_running() == []
    assert set(meeting.interrogation.conversations.values_list("side", "status")) == {
        ("left", Status.SCHEDULED),
        ("right", Status.RUNNING),
    }
    rewind(round_, selectors.talk_seconds(fmt) + (fmt.review_minutes + fmt.break_minutes) * 60)
    assert services.rounds_tick_running() == [round_.pk]
    assert Round.objects.get(pk=round_.pk).status == Round.Status.ENDED


def test_pause_stops_the_clock_and_resume_gives_back_the_time_left(cast):
    contest = finals_make(cast, fmt="aisb")
    round_ = contest.rounds.order_by("number").first()
    services.round_start(round_id=round_.pk)
    round_.refresh_from_db()
    rewind(round_, 60)
    services.round_pause(round_id=round_.pk)
    meeting = round_.meetings.select_related("interrogation", "judge__user").first()
    with pytest.raises(Closed):
        post(meeting, "left")
    round_.refresh_from_db()
    ten = dt.timedelta(seconds=600)  # as if paused 10 minutes ago
    Round.objects.filter(pk=round_.pk).update(paused_at=round_.paused_at - ten, started_at=round_.started_at - ten)
    services.round_resume(round_id=round_.pk)
    round_.refresh_from_db()
    fmt = selectors.contest_format(contest=contest)
    clock = selectors.round_clock(round_=round_, fmt=fmt)
    assert 59 <= clock["elapsed_s"] <= 62 and round_.paused_s >= 600
    deadline = Interrogation.objects.get(pk=meeting.interrogation_id).deadline
    from django.utils import timezone

    left = (deadline - timezone.now()).total_seconds()
    assert abs(left - (fmt.round_minutes * 60 - 60)) < 3
    post(meeting, "left")


def test_restart_keeps_the_old_interrogations_and_makes_fresh_ones(cast):
    contest = finals_make(cast, fmt="aisb")
    round_ = contest.rounds.order_by("number").first()
    services.round_start(round_id=round_.pk)
    meeting = round_.meetings.select_related("interrogation", "judge__user").first()
    old = meeting.interrogation_id
    post(meeting, "left")
    services.round_restart(round_id=round_.pk)
    meeting.refresh_from_db()
    assert meeting.interrogation_id != old
    assert Interrogation.objects.get(pk=old).end_reason == "restart"
    assert Interrogation.objects.get(pk=old).conversations.get(side="left").messages.count() == 1
    assert meeting.interrogation.status == Status.SCHEDULED
    round_.refresh_from_db()
    assert round_.status == Round.Status.SCHEDULED and round_.restarts == 1
    machine_side = meeting.interrogation.conversations.get(witness_entry__isnull=False).side
    assert (machine_side == "left") == (meeting.left == "entry")


# --- rounds that run themselves ------------------------------------------------------------------


def end_meeting(meeting):
    """The judge ends their interrogation ("End now" in the console)."""
    from arena.services import interrogation_end

    return interrogation_end(interrogation_id=meeting.interrogation_id, reason="judge", by=meeting.judge.user)


def test_a_round_ends_when_its_last_meeting_ends_and_the_next_starts_at_once(cast, django_capture_on_commit_callbacks):
    contest = finals_make(cast, fmt="aisb", rounds_follow_on=True)
    first, second = contest.rounds.order_by("number")[:2]
    services.round_start(round_id=first.pk)
    started = Round.objects.get(pk=first.pk).started_at
    *others, last = first.meetings.select_related("judge__user").order_by("judge__label")
    with django_capture_on_commit_callbacks(execute=True):
        for meeting in others:
            end_meeting(meeting)
    assert Round.objects.get(pk=first.pk).status == Round.Status.RUNNING  # one meeting still talks
    assert Round.objects.get(pk=second.pk).status == Round.Status.SCHEDULED
    with django_capture_on_commit_callbacks(execute=True):
        ended = end_meeting(last)
    first.refresh_from_db()
    assert first.status == Round.Status.ENDED and first.ended_at == ended.ended_at
    assert first.started_at == started  # recorded, not rewritten
    assert selectors.round_clock(round_=first, fmt=selectors.contest_format(contest=contest))["phase"] == "over"
    second.refresh_from_db()
    assert second.status == Round.Status.RUNNING and second.started_at >= first.ended_at
    assert set(Interrogation.objects.filter(loebner_meeting__round=second).values_list("status", flat=True)) == {
        Status.RUNNING
    }


def test_without_follow_on_the_organiser_starts_the_next_round_as_soon_as_the_last_meeting_ends(
    cast, django_capture_on_commit_callbacks
):
    contest = finals_make(cast, fmt="aisb")
    first, second = contest.rounds.order_by("number")[:2]
    services.round_start(round_id=first.pk)
    with django_capture_on_commit_callbacks(execute=True):
        for meeting in first.meetings.select_related("judge__user"):
            end_meeting(meeting)
    assert Round.objects.get(pk=first.pk).status == Round.Status.ENDED
    assert Round.objects.get(pk=second.pk).status == Round.Status.SCHEDULED  # nobody asked for it yet
    services.round_start(round_id=second.pk)  # at once: no review or break to wait out
    assert Round.objects.get(pk=second.pk).status == Round.Status.RUNNING


def test_ending_the_talking_now_ends_the_round_without_moving_its_start(cast):
    contest = finals_make(cast, fmt="aisb", rounds_follow_on=True)
    first, second = contest.rounds.order_by("number")[:2]
    services.round_start(round_id=first.pk)
    started = Round.objects.get(pk=first.pk).started_at
    services.round_finish(round_id=first.pk)
    first.refresh_from_db()
    assert first.status == Round.Status.ENDED and first.started_at == started and first.ended_at >= started
    assert set(Interrogation.objects.filter(loebner_meeting__round=first).values_list("end_reason", flat=True)) == {
        "organiser"
    }
    assert Round.objects.get(pk=second.pk).status == Round.Status.RUNNING  # the contest's rounds follow on


def test_a_round_still_talking_refuses_the_next_start_by_name(cast):
    contest = finals_make(cast, fmt="aisb")
    first, second = contest.rounds.order_by("number")[:2]
    services.round_start(round_id=first.pk)
    with pytest.raises(Closed, match="Round 1 is still running"):
        services.round_start(round_id=second.pk)


def test_the_sweep_finishes_a_round_whose_end_was_lost(cast):
    """The last meeting ended, then the process died before the round's end was recorded (the arena's
    callback runs after the commit; here it never runs): the sweep at start-up finishes the job."""
    from django.core.management import call_command

    contest = finals_make(cast, fmt="aisb", rounds_follow_on=True)
    first, second = contest.rounds.order_by("number")[:2]
    services.round_start(round_id=first.pk)
    started = Round.objects.get(pk=first.pk).started_at
    ends = [end_meeting(m).ended_at for m in first.meetings.select_related("judge__user")]  # callbacks lost
    assert Round.objects.get(pk=first.pk).status == Round.Status.RUNNING
    out = io.StringIO()
    call_command("arena_sweep", stdout=out)
    assert "closed 0 interrogation(s)" in out.getvalue()
    first.refresh_from_db()
    assert first.status == Round.Status.ENDED and first.ended_at == max(ends) and first.started_at == started
    assert Round.objects.get(pk=second.pk).status == Round.Status.RUNNING


def test_the_sweep_ends_a_round_whose_time_is_up_though_every_timer_was_lost(cast):
    contest = finals_make(cast, fmt="aisb")
    fmt = selectors.contest_format(contest=contest)
    round_ = contest.rounds.order_by("number").first()
    services.round_start(round_id=round_.pk)
    round_.refresh_from_db()
    rewind(round_, selectors.talk_seconds(fmt) + 1)
    assert services.rounds_tick_running() == [round_.pk]
    round_.refresh_from_db()
    assert round_.status == Round.Status.ENDED
    ended = Interrogation.objects.filter(loebner_meeting__round=round_)
    assert set(ended.values_list("end_reason", flat=True)) == {"time"}
    assert round_.ended_at == max(i.deadline for i in ended)  # when its time was up, not when the sweep came


def test_a_paused_round_whose_meetings_all_end_is_over(cast, django_capture_on_commit_callbacks):
    contest = finals_make(cast, fmt="aisb")
    round_ = contest.rounds.order_by("number").first()
    services.round_start(round_id=round_.pk)
    services.round_pause(round_id=round_.pk)
    with django_capture_on_commit_callbacks(execute=True):
        for meeting in round_.meetings.select_related("judge__user"):
            end_meeting(meeting)
    round_.refresh_from_db()
    assert round_.status == Round.Status.ENDED and round_.paused_at is None and round_.paused_s >= 0
