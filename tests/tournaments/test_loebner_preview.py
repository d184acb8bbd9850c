"""What a format becomes for a contest's finalists, judges and confederates before its schedule is built
(tournaments.loebner.rules.preview, pure): rounds, meetings per round, who sits out each round, and the
formats that keep everyone busy; and the compact format that does so for any number of finalists."""

from collections import Counter

import pytest

from tournaments.loebner.rules.formats import format_get
from tournaments.loebner.rules.preview import format_busy, format_preview, formats_preview
from tournaments.loebner.rules.schedule import schedule_build, schedule_problems


def shape(preview):
    return [(r.number, r.meetings, r.idle) for r in preview.rounds]


def test_two_finalists_generic_is_four_one_meeting_rounds_with_half_idle_and_compact_keeps_all_busy():
    generic = format_preview("generic", finalists=2, judges=2, confederates=2)
    assert generic.buildable and not generic.busy
    assert shape(generic) == [
        (1, 1, ("J2", "C2", "E2")),
        (2, 1, ("J1", "C2", "E1")),
        (3, 1, ("J2", "C1", "E1")),
        (4, 1, ("J1", "C1", "E2")),
    ]
    assert generic.summary == "4 rounds of 1 meeting; someone sits out 4 rounds of 4"

    compact = format_preview("compact", finalists=2, judges=2, confederates=2)
    assert compact.busy and shape(compact) == [(1, 2, ()), (2, 2, ())]
    assert compact.summary == "2 rounds of 2 meetings; nobody sits out"
    assert not compact.entry_confederate_once  # the price: each entry meets the same confederate twice
    assert compact.minutes == 2 * (25 + 5 + 5)

    previews = formats_preview(finalists=2, judges=2, confederates=2)
    assert [p.format for p in previews[:2]] == ["compact", "generic"]
    assert format_busy(finalists=2, judges=2, confederates=2) == "compact"
    fixed = {p.format: p.problems for p in previews[2:]}
    assert fixed["aisb"] == ("format aisb has 4 entries, not 2",) and not any(p.rounds for p in previews[2:])


def test_three_finalists_with_three_or_four_judges_and_confederates():
    previews = {p.format: p for p in formats_preview(finalists=3, judges=3, confederates=3)}
    assert previews["generic"].busy and shape(previews["generic"]) == [(r, 3, ()) for r in (1, 2, 3)]
    assert previews["2009-as-run"].problems == ("it needs 4 judges (3 seated)", "it needs 4 confederates (3 seated)")
    assert format_busy(finalists=3, judges=3, confederates=3) == "generic"

    previews = {p.format: p for p in formats_preview(finalists=3, judges=4, confederates=4)}
    as_run = previews["2009-as-run"]
    assert as_run.buildable and [r.meetings for r in as_run.rounds] == [3, 3, 3, 3]
    assert [(r.idle_judges, r.idle_confederates, r.idle_entries) for r in as_run.rounds] == [
        (("J4",), ("C3",), ()),
        (("J3",), ("C4",), ()),
        (("J2",), ("C1",), ()),
        (("J1",), ("C2",), ()),
    ]
    # seated beyond what the format needs: J4 and C4 sit out every round of the generic format
    assert [r.idle for r in previews["generic"].rounds] == [("J4", "C4")] * 3
    assert format_busy(finalists=3, judges=4, confederates=4) is None


def test_four_finalists_every_simultaneous_format_keeps_everyone_busy_and_2009_rules_does_not():
    previews = formats_preview(finalists=4, judges=4, confederates=4)
    busy = [p.format for p in previews if p.busy]
    assert busy == ["2012", "aisb", "generic", "compact"]
    rules = next(p for p in previews if p.format == "2009-rules")
    assert [p.format for p in previews[-2:]] == ["2009-rules", "2009-as-run"] and rules.buildable and not rules.busy
    assert [r.meetings for r in rules.rounds] == [2, 3, 3, 2, 2, 2, 2]
    assert rules.rounds[0].idle == ("J3", "J4", "C3", "C4", "E2", "E4")
    assert rules.summary == "7 rounds of 2 to 3 meetings; someone sits out 7 rounds of 7"
    assert format_preview("aisb", finalists=4, judges=4, confederates=4, lengths={"round_minutes": 10}).minutes == 80


def test_too_few_judges_or_confederates_stops_the_build_and_says_so():
    short = format_preview("compact", finalists=2, judges=2, confederates=1)
    assert not short.buildable and not short.busy and short.problems == ("it needs 2 confederates (1 seated)",)
    assert short.summary.endswith("(it needs 2 confederates (1 seated))")
    nobody = format_preview("aisb", finalists=4, judges=0, confederates=0)
    assert nobody.problems == ("it needs 4 judges (none seated)", "it needs 4 confederates (none seated)")
    assumed = format_preview("aisb", finalists=4, judges=None, confederates=None)  # as many as it needs
    assert assumed.busy and (assumed.judges, assumed.confederates) == (4, 4)


@pytest.mark.parametrize("bad", [{"finalists": -1}, {"judges": 1.5}, {"confederates": True}])
def test_the_preview_refuses_what_is_not_a_count(bad):
    with pytest.raises(ValueError, match="whole number"):
        format_preview("aisb", **{"finalists": 4, "judges": 4, "confederates": 4, **bad})
    with pytest.raises(ValueError, match="unknown format"):
        format_preview("2010", finalists=4, judges=4, confederates=4)


@pytest.mark.parametrize("n", range(2, 15))
def test_compact_keeps_everyone_busy_and_each_judge_meets_each_entry_and_confederate_once(n):
    fmt = format_get("compact", entries=n)
    meetings = schedule_build(fmt, seed=n)
    assert schedule_problems(fmt, meetings) == []
    assert fmt.rounds == n and all(sum(m.round == r for m in meetings) == n for r in range(1, n + 1))
    for a, b in (("judge", "entry"), ("judge", "confederate")):
        assert set(Counter((getattr(m, a), getattr(m, b)) for m in meetings).values()) == {1}
    entry_confederate = Counter((m.entry, m.confederate) for m in meetings)
    if n % 4 == 2:  # no orthogonal array: each entry meets half the confederates, twice each
        assert not fmt.entry_confederate_once and set(entry_confederate.values()) == {2}
        assert len(entry_confederate) == n * n // 2
    else:  # the same plan as generic
        assert fmt.entry_confederate_once and set(entry_confederate.values()) == {1}
        assert [m.pair for m in meetings] == [m.pair for m in schedule_build(format_get("generic", entries=n), seed=0)]


def test_a_compact_schedule_with_an_entry_meeting_a_confederate_three_times_is_refused():
    fmt = format_get("compact", entries=2)
    meetings = schedule_build(fmt, seed=1)
    first = meetings[0]
    problems = schedule_problems(fmt, meetings + meetings[:1])  # one meeting twice
    assert f"{first.entry} meets {first.confederate} 3 times, not at most 2" in problems
