"""The Loebner schedules: the 2009 rules' tables cell for cell, the 2009 run and 2012's tables, and
every property of the generic schedule for N = 2..12 (pure: no database)."""

import re
from collections import Counter

import pytest

from tournaments.loebner.rules.formats import FORMATS, format_get
from tournaments.loebner.rules.schedule import Meeting, excused, latin_square, schedule_build, schedule_problems

# The seed (2009 rules), copied verbatim: the matrix and the 7-round table.
SEED_MATRIX = """
        E1 .... E2 .... E3 .... E4
J1 .... C1 .... C2 .... C3 .... C4
J2 .... C4 .... C1 .... C2 .... C3
J3 .... C3 .... C4 .... C1 .... C2
J4 .... C2 .... C3 .... C4 .... C1
"""
SEED_ROUNDS = """
1 .... J1E1C1 J2E3C2 ................ J4 C3 J3 C4
2 .... J4E1C2 J3E3C1 J2E4C3 ......... J1 C4
3 .... J3E1C3 J4E3C4 J1E2C2 ......... J2 C1
4 .... J2E1C4 J3E4C2 ................ J1 C1 J4 C3
5 .... J2E2C1 J1E3C3 ................ J3 J4 C2 C4
6 .... J1E4C4 J4E2C3................. J2 J3 C1 C2
7 .... J4E4C1 J3E2C4................. J1 J2 C2 C3
"""
# docs/reference/formats.md: the 2009 contest as run with three entries.
AS_RUN = {
    1: ["J1E1C1", "J2E3C2", "J3E2C4"],
    2: ["J1E3C3", "J2E2C1", "J4E1C2"],
    3: ["J1E2C2", "J3E1C3", "J4E3C4"],
    4: ["J2E1C4", "J3E3C1", "J4E2C3"],
}


def cells(meetings, round_no):
    return [f"{m.judge}{m.entry}{m.confederate}" for m in meetings if m.round == round_no]


def test_2009_rules_reproduce_the_seeds_matrix_cell_for_cell():
    header, *rows = SEED_MATRIX.strip().splitlines()
    entries = re.findall(r"E\d", header)
    expected = {re.match(r"J\d", row)[0]: dict(zip(entries, re.findall(r"C\d", row))) for row in rows}
    assert len(expected) == 4 and all(len(cells) == 4 for cells in expected.values())
    assert latin_square(schedule_build(format_get("2009-rules"), seed=1)) == expected


def test_2009_rules_reproduce_the_seeds_seven_rounds_and_excused():
    fmt = format_get("2009-rules")
    meetings = schedule_build(fmt, seed=7)
    out = excused(fmt, meetings)
    for line in SEED_ROUNDS.strip().splitlines():
        round_no = int(line.split()[0])
        participating = re.findall(r"J\dE\dC\d", line)
        sitting_out = re.findall(r"\b[JC]\d\b", line.split(participating[-1])[1])
        assert cells(meetings, round_no) == participating, f"round {round_no}"
        assert sorted(out[round_no]) == sorted(sitting_out), f"round {round_no}"
    assert fmt.rounds == 7 and len(meetings) == 16
    assert (fmt.mode, fmt.round_minutes, fmt.review_minutes, fmt.break_minutes) == ("sequential", 5, 10, 5)
    assert fmt.slot_minutes == 25  # "seven rounds of 20 minutes duration with 5 minute intermissions"
    assert schedule_problems(fmt, meetings) == []


def test_2009_as_run_is_the_published_four_round_table():
    fmt = format_get("2009-as-run")
    meetings = schedule_build(fmt, seed=1)
    assert {r: cells(meetings, r) for r in range(1, 5)} == AS_RUN
    assert (fmt.entries, fmt.judges, fmt.confederates, fmt.rounds) == (3, 4, 4, 4)
    # the 2009 rules' matrix, less its fourth column
    assert latin_square(meetings)["J2"] == {"E1": "C4", "E2": "C1", "E3": "C2"}
    assert excused(fmt, meetings) == {1: ["J4", "C3"], 2: ["J3", "C4"], 3: ["J2", "C1"], 4: ["J1", "C2"]}
    assert schedule_problems(fmt, meetings) == []


@pytest.mark.parametrize("name", ["2012", "aisb"])
def test_2012_and_aisb_are_four_simultaneous_rounds_with_2012s_judge_by_round_square(name):
    fmt = format_get(name)
    meetings = schedule_build(fmt, seed=3)
    assert (fmt.rounds, fmt.mode, fmt.round_minutes) == (4, "simultaneous", 25)
    # 2012 logs (docs/reference/formats.md), E1..E4 = chip, angela, linguo, burke: judge's programs by round
    logs = {
        "J1": "chip angela linguo burke",
        "J2": "angela chip burke linguo",
        "J3": "linguo burke chip angela",
        "J4": "burke linguo angela chip",
    }
    names = {"E1": "chip", "E2": "angela", "E3": "linguo", "E4": "burke"}
    for judge, programs in logs.items():
        mine = sorted((m for m in meetings if m.judge == judge), key=lambda m: m.round)
        assert " ".join(names[m.entry] for m in mine) == programs
    assert all(out == [] for out in excused(fmt, meetings).values())
    assert schedule_problems(fmt, meetings) == []


@pytest.mark.parametrize("n", range(2, 13))
def test_generic_schedule_for_n_entries_has_every_property(n):
    fmt = format_get("generic", entries=n)
    assert (fmt.judges, fmt.entries, fmt.confederates) == (n, n, n)
    meetings = schedule_build(fmt, seed=n)
    assert schedule_problems(fmt, meetings) == []
    judges, entries, confs = ([f"{p}{k}" for k in range(1, n + 1)] for p in "JEC")
    # checked here directly too, not only through schedule_problems
    for a, b, xs, ys in (
        ("judge", "entry", judges, entries),
        ("entry", "confederate", entries, confs),
        ("judge", "confederate", judges, confs),
    ):
        met = Counter((getattr(m, a), getattr(m, b)) for m in meetings)
        assert met == Counter({(x, y): 1 for x in xs for y in ys}), (a, b)
    rounds = sorted({m.round for m in meetings})
    assert rounds == list(range(1, fmt.rounds + 1))
    out = excused(fmt, meetings)
    for r in rounds:
        here = [m for m in meetings if m.round == r]
        seats = [p for m in here for p in (m.judge, m.entry, m.confederate)]
        assert len(seats) == len(set(seats)), f"round {r}: someone in two places"
        present = {m.judge for m in here} | {m.confederate for m in here}
        assert set(out[r]) == set(judges + confs) - present
    # where an orthogonal pair of squares exists we find it: N rounds, nobody excused
    if n not in (2, 6, 10):
        assert fmt.rounds == n and not any(out.values())
    else:
        assert fmt.rounds <= n + 2


def test_left_and_right_come_from_the_seed():
    fmt = format_get("generic", entries=5)
    sides = [m.left for m in schedule_build(fmt, seed=42)]
    assert sides == [m.left for m in schedule_build(fmt, seed=42)]
    assert set(sides) == {"entry", "confederate"}
    assert any([m.left for m in schedule_build(fmt, seed=s)] != sides for s in range(3))


def test_schedule_problems_names_what_is_wrong():
    fmt = format_get("2012")
    meetings = schedule_build(fmt, seed=1)
    m = meetings[0]
    other = next(x for x in meetings if x.round == m.round and x.judge != m.judge)
    broken = [Meeting(m.round, m.judge, m.entry, other.confederate, "up")] + meetings[1:]
    problems = schedule_problems(fmt, broken)
    assert f"round {m.round}: {other.confederate} is in 2 places at once" in problems
    assert any("left must be" in p for p in problems)
    assert any(p.startswith(f"{m.judge} meets {m.confederate} 0 times") for p in problems)
    assert schedule_problems(fmt, meetings[1:])  # a meeting missing


@pytest.mark.parametrize(
    "name, kwargs, message",
    [
        ("2010", {}, "unknown format '2010'"),
        ("generic", {}, "needs the number of entries"),
        ("compact", {}, "format compact needs the number of entries"),
        ("generic", {"entries": 1}, "from 2 to 30"),
        ("generic", {"entries": 31}, "from 2 to 30"),
        ("2012", {"entries": 5}, "has 4 entries, not 5"),
        ("aisb", {"ranking": "borda"}, "unknown ranking 'borda'"),
    ],
)
def test_format_get_refuses_with_a_reason(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        format_get(name, **kwargs)


def test_every_format_is_known_and_aisb_takes_2017s_points():
    assert FORMATS == ("2009-rules", "2009-as-run", "2012", "aisb", "generic", "compact")
    assert format_get("aisb").ranking == "mean-rank"
    assert format_get("aisb", ranking="points").ranking == "points"
    assert format_get("2009-rules").silver_at_risk is False
