"""``manage.py loebner schedule`` and ``loebner score``: output shapes and refusals (no database)."""

import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.tournaments.test_loebner_scoring import FOOLED_2009, RANKS_2009


def run(*args) -> str:
    out = StringIO()
    call_command("loebner", *args, stdout=out)
    return out.getvalue()


def test_schedule_json_is_one_meeting_per_line_with_the_fixed_keys():
    lines = run("schedule", "--format", "2009-rules", "--seed", "4", "--json").splitlines()
    rows = [json.loads(line) for line in lines]
    assert len(rows) == 16
    assert all(list(row) == ["round", "judge", "entry", "confederate", "left"] for row in rows)
    assert [(r["round"], r["judge"], r["entry"], r["confederate"]) for r in rows[:2]] == [
        (1, "J1", "E1", "C1"),
        (1, "J2", "E3", "C2"),
    ]
    assert {r["left"] for r in rows} == {"entry", "confederate"}
    assert run("schedule", "--format", "2009-rules", "--seed", "4", "--json").splitlines() == lines
    generic = [json.loads(x) for x in run("schedule", "--format", "generic", "--entries", "7", "--json").splitlines()]
    assert len(generic) == 49 and max(r["round"] for r in generic) == 7


def test_schedule_table_shows_the_square_the_rounds_and_the_excused():
    text = run("schedule", "--format", "2009-rules", "--seed", "1")
    assert "J2     C4   C1   C2   C3" in text
    round_4 = next(line for line in text.splitlines() if line.startswith("4 "))
    assert "J2E1C4[" in round_4 and round_4.rstrip().endswith("J1 J4 C1 C3")
    assert "7 rounds, sequential; round 25 min = talk 10 + review 10 + break 5" in text


def test_schedule_refuses_a_generic_format_without_entries():
    with pytest.raises(CommandError, match="needs the number of entries"):
        run("schedule", "--format", "generic", "--json")


def judgments_file(tmp_path, mutate=None) -> Path:
    rows = [json.loads(x) for x in run("schedule", "--format", "2009-rules", "--json").splitlines()]
    # the schedule's own rows, each given the judge's pick ("left" is allowed and ignored)
    judgments = [r | {"human": "entry" if (r["judge"], r["entry"]) in FOOLED_2009 else "confederate"} for r in rows]
    data = {"judgments": judgments, "ranks": {j: dict(r) for j, r in RANKS_2009.items()}}
    if mutate:
        mutate(data)
    path = tmp_path / "final.json"
    path.write_text(json.dumps(data, indent=2))
    return path


def test_score_prints_the_results(tmp_path):
    result = json.loads(run("score", "--format", "2009-rules", str(judgments_file(tmp_path))))
    assert {"winner", "entries", "silver", "tie_break"} <= set(result)
    assert result["winner"] == "E2" and result["tie_break"] == "mean-rank" and result["silver"] is True
    assert {"entry", "judged_human", "mean_rank", "points"} <= set(result["entries"][0])


@pytest.mark.parametrize(
    "mutate, message",
    [
        # judgments[2] starts on line 19 of the indented file (2 + 8 lines per judgment)
        (lambda d: d["judgments"][2].update(judge="J9"), "line 19, judgments[2].judge: unknown judge 'J9'"),
        (lambda d: d["judgments"][0].update(round=3), "line 3, judgments[0]: J1 does not meet E1 with C1 in round 3"),
        (lambda d: d["judgments"][1].pop("human"), "line 11, judgments[1]: missing human"),
        (lambda d: d["ranks"]["J2"].update(E4=4), "line 139, ranks.J2: rank 4 given twice"),  # 2 + 128 + 9
        (lambda d: d["judgments"].pop(), "judgments: 1 meeting(s) not judged"),
        (lambda d: d.update(extra=1), "extra: unknown key"),
        (lambda d: d["judgments"][4].update(side="left"), "judgments[4]: missing -; unknown side"),
    ],
)
def test_score_refuses_bad_input_naming_the_line_and_place(tmp_path, mutate, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        run("score", "--format", "2009-rules", str(judgments_file(tmp_path, mutate)))


def test_score_refuses_broken_json_with_its_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"judgments": [\n  {"round": 1,,}\n]}')
    with pytest.raises(CommandError, match=r"line 2, column 15"):
        run("score", "--format", "2012", str(path))
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CommandError, match="nested too deeply"):
        run("score", "--format", "2012", str(path))
    with pytest.raises(CommandError, match="No such file"):
        run("score", "--format", "2012", str(tmp_path / "absent.json"))


def test_score_exits_non_zero_on_bad_input(tmp_path):
    """As from manage.py: run_from_argv turns the CommandError into a message on stderr and exit 1."""
    from tournaments.loebner.management.commands.loebner import Command

    path = judgments_file(tmp_path, lambda d: d["ranks"].pop("J1"))
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exited:
        Command(stdout=out, stderr=err).run_from_argv(
            ["manage.py", "loebner", "--skip-checks", "score", "--format", "2009-rules", str(path)]
        )
    assert exited.value.code != 0
    assert "ranks.J1: this judge's ranks are missing" in err.getvalue() and out.getvalue() == ""
