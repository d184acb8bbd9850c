"""`manage.py wager plan|score|rehearse`: their fixed output shapes and their refusals."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from arena.models import Status
from tournaments.wager.models import Interview, Session, TrialVerdict


def run(*args, stdin=None) -> str:
    out = io.StringIO()
    call_command("wager", *args, stdout=out, stderr=io.StringIO(), **({"stdin": stdin} if stdin else {}))
    return out.getvalue()


def test_plan_prints_one_object_per_line():
    lines = run("plan", "--judges", "3", "--candidates", "4", "--hours", "2", "--json").splitlines()
    rows = [json.loads(line) for line in lines]
    assert len(rows) == 12
    assert all(set(r) == {"slot", "judge", "candidate", "start_h", "end_h"} for r in rows)
    assert rows[0] == {"slot": 1, "judge": "J1", "candidate": "computer", "start_h": 0.0, "end_h": 2.0}
    assert {r["slot"] for r in rows} == {1, 2, 3, 4} and max(r["end_h"] for r in rows) == 8.0
    assert {r["candidate"] for r in rows} == {"computer", "F1", "F2", "F3"}


def test_plan_in_words_and_its_refusals():
    assert "8 h of interviews per judge, 24 h per trial" in run("plan")
    with pytest.raises(CommandError, match="judges must be from 1"):
        run("plan", "--judges", "0")


TRIAL = {
    "verdicts": {
        "J1": {"computer": "human", "F1": "human", "F2": "machine", "F3": "human"},
        "J2": {"computer": "human", "F1": "human", "F2": "human", "F3": "human"},
        "J3": {"computer": "machine", "F1": "human", "F2": "human", "F3": "human"},
    },
    "ranks": {
        "J1": {"computer": 3, "F1": 4, "F2": 1, "F3": 2},
        "J2": {"computer": 2, "F1": 4, "F2": 3, "F3": 1},
        "J3": {"computer": 1, "F1": 4, "F2": 2, "F3": 3},
    },
}


def test_score_prints_the_fixed_shape(tmp_path):
    path = tmp_path / "session.json"
    failing = json.loads(json.dumps(TRIAL))
    failing["verdicts"]["J2"]["computer"] = "machine"
    path.write_text(json.dumps({"trials": [TRIAL, failing, TRIAL], "aggregation": "majority"}))
    result = json.loads(run("score", str(path)))
    assert set(result) == {"trials", "passed"} and result["passed"] is True
    # hand-computed: computer ranks [3,2,1] -> 2; F1 [4,4,4] -> 4; F2 [1,3,2] -> 2; F3 [2,1,3] -> 2; fooled J1, J2
    assert result["trials"][0] == {
        "human_determination": True,
        "rank_order": True,
        "passed": True,
        "fooled": 2,
        "computer_median_rank": 2,
        "foil_median_ranks": {"F1": 4, "F2": 2, "F3": 2},
    }
    assert result["trials"][1]["fooled"] == 1 and result["trials"][1]["passed"] is False
    path.write_text(json.dumps({"trials": [TRIAL, failing, failing], "aggregation": "any"}))
    assert json.loads(run("score", str(path)))["passed"] is True
    path.write_text(json.dumps({"trials": [TRIAL, failing, TRIAL], "aggregation": "all"}))
    assert json.loads(run("score", str(path)))["passed"] is False


@pytest.mark.parametrize(
    "text, words",
    [
        ("{not json", ["not valid JSON"]),
        ('{"trials": [{"verdicts": {}, "ranks": {}}]}', ["trial 1", "verdicts"]),
        ('{"trials": [], "aggregation": "majority"}', ["non-empty"]),
        (
            '{"trials": [{"verdicts": {"J1": {"computer": "human", "F1": "human"}}, '
            '"ranks": {"J1": {"computer": NaN, "F1": 1}}}]}',
            ["not valid JSON"],
        ),
    ],
)
def test_score_refuses_bad_input(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(CommandError) as refused:
        run("score", str(path))
    for word in words:
        assert word in str(refused.value)


def test_score_names_the_trial_and_judge(tmp_path):
    bad = json.loads(json.dumps(TRIAL))
    bad["ranks"]["J3"]["F2"] = 4
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"trials": [TRIAL, bad]}))
    with pytest.raises(CommandError, match=r"trial 2, judge J3: each rank from 1 to 4 must be given once"):
        run("score", str(path))
    with pytest.raises(CommandError, match="cannot be read"):
        run("score", str(tmp_path / "missing.json"))


def test_rehearse_refuses_bad_numbers(db):
    with pytest.raises(CommandError, match="--trials"):
        run("rehearse", "--trials", "0")
    with pytest.raises(CommandError, match="No entry"):
        run("rehearse", "--entry", "nobody")


@pytest.fixture
def fast_rehearsal(transactional_db, task_worker):
    """The computer's replies come through its reply task: in-process threads (embedded), a worker (services)."""


@pytest.mark.slow
def test_rehearse_runs_a_whole_session_through_the_services(fast_rehearsal):
    first = json.loads(run("rehearse", "--trials", "3", "--minutes", "2", "--seed", "S", "--turns", "1"))
    assert len(first["trials"]) == 3 and isinstance(first["passed"], bool)
    assert set(first["trials"][0]) == {
        "human_determination",
        "rank_order",
        "passed",
        "fooled",
        "computer_median_rank",
        "foil_median_ranks",
    }
    session = Session.objects.get()
    assert session.rehearsal and session.interview_minutes == 2
    interviews = Interview.objects.filter(trial__session=session).select_related("interrogation")
    assert interviews.count() == 36 and TrialVerdict.objects.count() == 3 * 3 * 4
    for interview in interviews:
        interrogation = interview.interrogation
        assert interrogation.status == Status.ENDED and interrogation.end_reason == "judge"  # ended early by the bot
        conversation = interrogation.conversations.get()
        assert conversation.seal.message_count == conversation.messages.count() == 2  # question and answer, sealed
    again = json.loads(run("rehearse", "--trials", "3", "--minutes", "2", "--seed", "S", "--turns", "1"))
    assert again == first  # the same seed, the same session result
