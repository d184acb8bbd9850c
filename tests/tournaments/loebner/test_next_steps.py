"""A contest's judge always knows where to go next: their home page and their console's end screen link to
their meeting on now, their next meeting (the next round's, whatever order the interrogations were made in),
and, once none is left, the rank page while their ranks are due."""

import pytest

from arena.next_steps import judge_next_step, judge_next_steps
from arena.selectors.interrogations import judge_state
from arena.services import verdict_submit
from tests.tournaments.loebner.helpers import finals_make, rounds_play
from tournaments.loebner import selectors, services
from tournaments.loebner.models import Meeting

pytest.importorskip("tournaments.loebner.rules.scoring")
pytestmark = pytest.mark.django_db


def _mine(contest, label="J1"):
    return list(
        Meeting.objects.filter(round__contest=contest, judge__label=label)
        .select_related("round", "interrogation")
        .order_by("round__number")
    )


def _console(meeting) -> str:
    return f"/judge/{meeting.interrogation.public_id}/"


def test_the_home_page_and_the_end_screen_lead_to_the_next_meeting(cast, client):
    contest = finals_make(cast)  # aisb: four rounds, ranks at the end
    mine = _mine(contest)
    client.force_login(cast.jude)
    home = client.get("/").content.decode()
    assert 'id="next-steps"' in home and f'href="{_console(mine[0])}" class="button" id="next-step"' in home
    assert f"{contest.name}, round 1: your next meeting" in home

    first = contest.rounds.get(number=1)
    services.round_start(round_id=first.pk)
    step = judge_next_step(user=cast.jude)
    assert step.text.endswith("round 1: your meeting is on now") and step.url == _console(mine[0])
    services.round_finish(round_id=first.pk)
    assert judge_next_step(user=cast.jude).text.endswith("round 1: give your verdict")

    for m in first.meetings.select_related("judge__user"):
        verdict_submit(interrogation_id=m.interrogation_id, judge=m.judge.user, choice="left", confidence=50)
    state = judge_state(interrogation=mine[0].interrogation)  # the console's end screen, after the verdict
    assert state["next"]["url"] == _console(mine[1]) and state["next"]["text"].endswith("round 2: your next meeting")
    assert state["next"]["when"] is None or state["next"]["when"].endswith("Z")
    assert f'href="{_console(mine[1])}"' in client.get("/").content.decode()


def test_the_next_meeting_is_the_next_rounds_even_after_a_restart_made_its_interrogation_anew(cast):
    contest = finals_make(cast)
    services.round_start(round_id=contest.rounds.get(number=1).pk)
    services.round_finish(round_id=contest.rounds.get(number=1).pk)
    services.round_restart(round_id=contest.rounds.get(number=1).pk)  # round 1's interrogations made anew, last
    mine = _mine(contest)
    assert mine[0].interrogation_id > mine[1].interrogation_id
    steps = judge_next_steps(user=cast.jude)
    assert [s.url for s in steps] == [_console(mine[0])]  # round 1 again, then nothing else listed
    assert all("give your verdict" not in s.text for s in steps)  # the replaced interrogation is not asked for


def test_once_every_meeting_is_judged_the_judge_is_sent_to_rank_until_the_ranks_are_in(cast, client):
    contest = finals_make(cast)
    rounds_play(contest)
    step = judge_next_step(user=cast.jude)
    assert step.url == f"/contests/{contest.pk}/rank/"
    assert step.text == f"{contest.name}: rank the conversations you had"
    mine = _mine(contest)
    state = judge_state(interrogation=mine[-1].interrogation)
    assert state["next"]["url"] == f"/contests/{contest.pk}/rank/"
    client.force_login(cast.jude)
    assert f'href="/contests/{contest.pk}/rank/" class="button" id="next-step"' in client.get("/").content.decode()

    j1 = contest.participants.get(label="J1")
    met = [p.label for p in selectors.judge_entries(contest=contest, judge=j1)]
    services.ranks_submit(contest_id=contest.pk, judge=cast.jude, ranks={label: i for i, label in enumerate(met, 1)})
    assert judge_next_step(user=cast.jude) is None
    assert judge_state(interrogation=mine[-1].interrogation)["next"] is None
    assert 'id="next-steps"' not in client.get("/").content.decode()


def test_a_format_without_ranks_sends_nobody_to_rank(cast):
    contest = finals_make(cast, fmt="2012")
    rounds_play(contest)
    assert judge_next_step(user=cast.jude) is None
