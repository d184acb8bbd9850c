"""`loebner rehearse`: a whole contest played by bots through the real services, and the demo contest."""

import io
import json

import pytest
from django.core.management import call_command

from arena.models import Interrogation, Verdict
from tournaments.loebner.models import Contest, JudgeRank, Judgment, Meeting

pytest.importorskip("tournaments.loebner.rules.scoring")
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick(monkeypatch, services_mode):
    from tournaments.loebner.services import rehearsal

    # embedded: machine replies come from in-process threads within a second; services mode has no worker here
    monkeypatch.setattr(rehearsal, "REPLY_WAIT_S", 0.01 if services_mode else 2.0)


def rehearse(*args) -> dict:
    from tournaments.loebner.management.commands import _rehearse

    class Command:
        stdout = io.StringIO()

    parser_args = dict(format_name=args[0], seed=args[1], entries=None, questions=1)
    _rehearse.handle(Command, parser_args)
    return json.loads(Command.stdout.getvalue())


def test_a_rehearsal_plays_every_meeting_and_scores_it_the_same_for_the_same_seed(quick):
    result = rehearse("aisb", 11)
    contest = Contest.objects.get(pk=result["contest_id"])
    meetings = Meeting.objects.filter(round__contest=contest)
    assert contest.status == Contest.Status.DONE and meetings.count() == contest.rounds.count() * 4
    assert Judgment.objects.filter(meeting__in=meetings).count() == meetings.count()
    assert Verdict.objects.filter(interrogation__loebner_meeting__in=meetings).count() == meetings.count()
    assert set(Interrogation.objects.filter(loebner_meeting__in=meetings).values_list("status", flat=True)) == {"ended"}
    assert (
        Interrogation.objects.filter(loebner_meeting__in=meetings, published_at__isnull=False).count()
        == meetings.count()
    )
    assert JudgeRank.objects.filter(contest=contest).count() == 16
    assert {"winner", "entries", "silver", "tie_break"} <= set(result) and result["problem"] is None
    assert (
        sum(row["judged_human"] for row in result["entries"])
        == Judgment.objects.filter(meeting__in=meetings, human="entry").count()
    )
    again = rehearse("aisb", 11)
    assert again["entries"] == result["entries"] and again["winner"] == result["winner"]
    assert again["contest_id"] != result["contest_id"]


def test_the_demo_contest_is_seeded_once_with_some_rounds_judged(quick):
    from arena import roles
    from arena.setup import ensure_role_groups
    from tests.conftest import make_user

    ensure_role_groups()
    judge1, confederate1 = make_user("judge1", roles.JUDGE), make_user("confederate1", roles.CONFEDERATE)
    call_command("seed_demo_loebner", stdout=io.StringIO())
    call_command("seed_demo_loebner", stdout=io.StringIO())
    contest = Contest.objects.get(name__startswith="Demo Loebner")
    assert Contest.objects.filter(name__startswith="Demo Loebner").count() == 1
    judged = Judgment.objects.filter(meeting__round__contest=contest).count()
    assert judged == 8 and contest.rounds.filter(status="scheduled").count() == 2
    assert contest.status == Contest.Status.FINALS
    assert (
        contest.participants.get(label="J1").user == judge1
        and contest.participants.get(label="C1").user == confederate1
    )
    assert contest.participants.get(label="J2").user.username == "rehearsal-judge-demo-1"
