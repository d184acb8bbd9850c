"""Scoring a Loebner final, one hand-computed case per format's ranking, and every refusal naming its
place (pure: no database)."""

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.loebner.rules.formats import format_get
from tournaments.loebner.rules.schedule import schedule_build
from tournaments.loebner.rules.scoring import Judgment, ScoringError, contest_score


def judge_all(meetings, fooled=()):
    """Every meeting judged: the entry called human in the (judge, entry) pairs listed, else the
    confederate."""
    return [
        Judgment(m.round, m.judge, m.entry, m.confederate, "entry" if (m.judge, m.entry) in fooled else "confederate")
        for m in meetings
    ]


def by_entry(result):
    return {row["entry"]: row for row in result["entries"]}


# 2009 rules. E2 fools J1 (round 3, vs C2) and J4 (round 6, vs C3); E3 fools J2 (round 1, vs C2) and
# J3 (round 2, vs C1). Column totals: E1 0, E2 2, E3 2, E4 0, so E2 and E3 tie.
# Each judge ranks the four it called non-human, 4 most human:
#   J1 met E1/C1 E2/C2 E3/C3 E4/C4, called E2 human -> ranks E1 C2 E3 E4
#   J2 met E3/C2 E4/C3 E1/C4 E2/C1, called E3 human -> ranks C2 E4 E1 E2
#   J3 met E3/C1 E1/C3 E4/C2 E2/C4, called E3 human -> ranks C1 E1 E4 E2
#   J4 met E1/C2 E3/C4 E2/C3 E4/C1, called E2 human -> ranks E1 E3 C3 E4
RANKS_2009 = {
    "J1": {"E3": 4, "C2": 3, "E1": 2, "E4": 1},
    "J2": {"E2": 4, "C2": 3, "E4": 2, "E1": 1},
    "J3": {"C1": 4, "E2": 3, "E1": 2, "E4": 1},
    "J4": {"E1": 4, "C3": 3, "E3": 2, "E4": 1},
}
FOOLED_2009 = {("J1", "E2"), ("J4", "E2"), ("J2", "E3"), ("J3", "E3")}


@pytest.fixture(scope="module")
def rules_2009():
    fmt = format_get("2009-rules")
    return fmt, schedule_build(fmt, seed=2009)


def test_2009_column_totals_tie_and_the_mean_rank_of_the_non_human_calls_breaks_it(rules_2009):
    fmt, meetings = rules_2009
    result = contest_score(fmt, meetings, judge_all(meetings, FOOLED_2009), RANKS_2009)
    # mean rank among the judges who called it non-human: E2 (J2 4, J3 3) 3.5; E3 (J1 4, J4 2) 3.0;
    # E1 (2, 1, 2, 4) 2.25; E4 (1, 2, 1, 1) 1.25 -> E2 beats E3 on the tie-break.
    assert result["winner"] == "E2" and result["bronze"] == "E2"
    assert result["tie_break"] == "mean-rank" and result["tied"] == ["E2", "E3"]
    assert [(r["entry"], r["judged_human"], r["mean_rank"], r["place"]) for r in result["entries"]] == [
        ("E2", 2, 3.5, 1),
        ("E3", 2, 3.0, 2),
        ("E1", 0, 2.25, 3),
        ("E4", 0, 1.25, 4),
    ]
    assert by_entry(result)["E2"]["points"] is None
    # silver: E2 fooled 2 of 4 judges (J1, J4) paired with 2 of 4 confederates (C2, C3): half is enough
    assert result["silver"] is True and result["silver_entries"] == ["E2", "E3"]
    assert by_entry(result)["E2"]["confederates_beaten"] == ["C2", "C3"]
    assert result["silver_at_risk"] is False


def test_2009_a_full_tie_goes_to_the_organiser(rules_2009):
    fmt, meetings = rules_2009
    # nobody fooled: every judge ranks its four entries. E1 4+3+4+3 = 14 -> 3.5, E2 3+4+3+4 -> 3.5,
    # E3 2+1+2+2 -> 1.75, E4 1+2+1+1 -> 1.25: E1 and E2 still tie.
    ranks = {
        "J1": {"E1": 4, "E2": 3, "E3": 2, "E4": 1},
        "J2": {"E2": 4, "E1": 3, "E4": 2, "E3": 1},
        "J3": {"E1": 4, "E2": 3, "E3": 2, "E4": 1},
        "J4": {"E2": 4, "E1": 3, "E3": 2, "E4": 1},
    }
    result = contest_score(fmt, meetings, judge_all(meetings), ranks)
    assert result["winner"] is None and result["bronze"] is None
    assert result["tie_break"] == "organiser"
    assert [(r["entry"], r["place"]) for r in result["entries"]] == [("E1", 1), ("E2", 1), ("E3", 3), ("E4", 4)]
    assert result["silver"] is False


def test_2009_as_run_ranks_every_entity_met_lower_is_better():
    fmt = format_get("2009-as-run")
    meetings = schedule_build(fmt, seed=1)
    # 2009's published means: Levy 4.5, Carpenter 5, Embar 5.5. Each judge ranks its 3 confederates
    # 1..3 and its 3 entries 4..6:  E1 4+4+5+5 = 18 -> 4.5; E2 5+5+4+6 = 20 -> 5.0; E3 6+6+6+4 = 22 -> 5.5
    machines = {"J1": (4, 5, 6), "J2": (4, 5, 6), "J3": (5, 4, 6), "J4": (5, 6, 4)}
    ranks = {}
    for judge, (e1, e2, e3) in machines.items():
        confs = sorted(m.confederate for m in meetings if m.judge == judge)
        ranks[judge] = {"E1": e1, "E2": e2, "E3": e3} | {c: k for k, c in enumerate(confs, start=1)}
    result = contest_score(fmt, meetings, judge_all(meetings), ranks)
    assert [(r["entry"], r["mean_rank"], r["place"]) for r in result["entries"]] == [
        ("E1", 4.5, 1),
        ("E2", 5.0, 2),
        ("E3", 5.5, 3),
    ]
    assert result["winner"] == "E1" and result["tie_break"] is None and result["silver"] is False


def test_aisb_2015_mean_rank_one_is_best_and_column_totals_break_ties_below():
    fmt = format_get("aisb")
    meetings = schedule_build(fmt, seed=15)
    # 2015: Rose 1.5, Mitsuku 2.0, Izar 3.25, Lisa 3.25. E1 1+2+1+2 = 6 -> 1.5; E2 2+1+2+3 = 8 -> 2.0;
    # E3 4+4+4+1 = 13 -> 3.25; E4 3+3+3+4 = 13 -> 3.25; E4 fooled J1 once, so E4 is placed before E3.
    ranks = {
        "J1": {"E1": 1, "E2": 2, "E3": 4, "E4": 3},
        "J2": {"E1": 2, "E2": 1, "E3": 4, "E4": 3},
        "J3": {"E1": 1, "E2": 2, "E3": 4, "E4": 3},
        "J4": {"E1": 2, "E2": 3, "E3": 1, "E4": 4},
    }
    result = contest_score(fmt, meetings, judge_all(meetings, {("J1", "E4")}), ranks)
    assert [(r["entry"], r["mean_rank"], r["judged_human"], r["place"]) for r in result["entries"]] == [
        ("E1", 1.5, 0, 1),
        ("E2", 2.0, 0, 2),
        ("E4", 3.25, 1, 3),
        ("E3", 3.25, 0, 4),
    ]
    assert result["winner"] == "E1" and result["tie_break"] is None
    assert result["silver"] is False  # 1 of 4 judges fooled


def test_aisb_2017_points_four_to_the_most_human():
    fmt = format_get("aisb", ranking="points")
    meetings = schedule_build(fmt, seed=17)
    # 2017: Mitsuku 13, Midge 12, Uberbot 8, Rose 7. E1 4+3+3+3 = 13; E2 3+4+4+1 = 12;
    # E3 2+2+2+2 = 8; E4 1+1+1+4 = 7.
    ranks = {
        "J1": {"E1": 4, "E2": 3, "E3": 2, "E4": 1},
        "J2": {"E1": 3, "E2": 4, "E3": 2, "E4": 1},
        "J3": {"E1": 3, "E2": 4, "E3": 2, "E4": 1},
        "J4": {"E1": 3, "E2": 1, "E3": 2, "E4": 4},
    }
    result = contest_score(fmt, meetings, judge_all(meetings), ranks)
    assert [(r["entry"], r["points"], r["mean_rank"]) for r in result["entries"]] == [
        ("E1", 13, None),
        ("E2", 12, None),
        ("E3", 8, None),
        ("E4", 7, None),
    ]
    assert result["winner"] == "E1"


def test_2012_no_ranks_column_totals_decide_and_a_tie_goes_to_the_organiser():
    fmt = format_get("2012")
    meetings = schedule_build(fmt, seed=12)
    # E1 fools J1, J2, J3 (3 of 4: silver rule met); E2 fools J4: E1 wins on 3 vs 1.
    result = contest_score(fmt, meetings, judge_all(meetings, {("J1", "E1"), ("J2", "E1"), ("J3", "E1"), ("J4", "E2")}))
    assert result["winner"] == "E1" and result["tie_break"] is None
    assert [(r["entry"], r["judged_human"]) for r in result["entries"]] == [("E1", 3), ("E2", 1), ("E3", 0), ("E4", 0)]
    assert result["silver"] is True and result["silver_entries"] == ["E1"]
    # E1 and E2 both fool two judges: nothing in the format breaks the tie
    tie = contest_score(fmt, meetings, judge_all(meetings, {("J1", "E1"), ("J2", "E1"), ("J3", "E2"), ("J4", "E2")}))
    assert tie["winner"] is None and tie["tie_break"] == "organiser" and tie["tied"] == ["E1", "E2"]


def test_a_lone_fooled_judge_is_not_half(rules_2009):
    fmt, meetings = rules_2009
    ranks = {j: dict(r) for j, r in RANKS_2009.items()}
    fooled = {("J1", "E2"), ("J4", "E2"), ("J2", "E3")}  # J3 no longer fooled by E3
    ranks["J3"] = {"E3": 4, "E2": 3, "E1": 2, "E4": 1}  # J3 now called C1 human, so ranks E3
    result = contest_score(fmt, meetings, judge_all(meetings, fooled), ranks)
    assert result["winner"] == "E2" and result["tie_break"] is None
    assert result["silver_entries"] == ["E2"]  # E3: 1 of 4 judges


def meetings_of(name):
    fmt = format_get(name)
    return fmt, schedule_build(fmt, seed=5)


def _set(k, **fields):
    return lambda js: js.__setitem__(k, replace(js[k], **fields))


@pytest.mark.parametrize(
    "change, where, message",
    [
        (_set(2, judge="J9"), "judgments[2].judge", "unknown judge 'J9'"),
        (_set(2, entry="E0"), "judgments[2].entry", "unknown entry 'E0'"),
        (_set(2, confederate=["C1"]), "judgments[2].confederate", "unknown confederate ['C1']"),
        (_set(0, round=2), "judgments[0]", "J1 does not meet E1 with C1 in round 2"),
        (_set(0, round="1"), "judgments[0].round", "whole number"),
        (lambda js: js.__setitem__(1, js[0]), "judgments[1]", "judged twice (first at judgments[0])"),
        (lambda js: js.pop(), "judgments", "1 meeting(s) not judged, first round 7 J3 E2/C4"),
        (_set(3, human="both"), "judgments[3].human", "human must be 'entry' or 'confederate'"),
    ],
)
def test_bad_judgments_are_refused_naming_the_place(rules_2009, change, where, message):
    fmt, meetings = rules_2009
    judgments = judge_all(meetings, FOOLED_2009)
    change(judgments)
    with pytest.raises(ScoringError, match=re.escape(message)) as caught:
        contest_score(fmt, meetings, judgments, RANKS_2009)
    assert caught.value.where == where


@pytest.mark.parametrize(
    "ranks, where, message",
    [
        (RANKS_2009 | {"J2": {"E2": 4, "C2": 4, "E4": 2, "E1": 1}}, "ranks.J2", "rank 4 given twice"),
        ({k: v for k, v in RANKS_2009.items() if k != "J3"}, "ranks.J3", "missing"),
        (RANKS_2009 | {"J7": {}}, "ranks.J7", "unknown judge"),
        (RANKS_2009 | {"J1": {"E3": 4, "E2": 3, "E1": 2, "E4": 1}}, "ranks.J1.E2", "may not rank 'E2'"),
        (RANKS_2009 | {"J1": {"E3": 4, "C2": 3, "E1": 2}}, "ranks.J1.E4", "gave E4 no rank"),
        (RANKS_2009 | {"J1": {"E3": 5, "C2": 3, "E1": 2, "E4": 1}}, "ranks.J1.E3", r"whole number 1\.\.4"),
        (RANKS_2009 | {"J1": {"E3": True, "C2": 3, "E1": 2, "E4": 4}}, "ranks.J1.E3", "whole number"),
        (None, "ranks", "needs every judge's ranks"),
    ],
)
def test_bad_ranks_are_refused_naming_the_place(rules_2009, ranks, where, message):
    fmt, meetings = rules_2009
    with pytest.raises(ScoringError, match=message) as caught:
        contest_score(fmt, meetings, judge_all(meetings, FOOLED_2009), ranks)
    assert caught.value.where == where


def test_ranks_where_the_format_takes_none_are_refused():
    fmt, meetings = meetings_of("2012")
    with pytest.raises(ScoringError, match="takes no ranks") as caught:
        contest_score(fmt, meetings, judge_all(meetings), {"J1": {"E1": 1}})
    assert caught.value.where == "ranks"


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 8), data=st.data())
def test_any_complete_generic_final_scores_and_the_winner_has_the_top_column_total(n, data):
    fmt = format_get("generic", entries=n)
    meetings = schedule_build(fmt, seed=n)
    picks = data.draw(
        st.lists(st.sampled_from(["entry", "confederate"]), min_size=len(meetings), max_size=len(meetings))
    )
    judgments = [Judgment(m.round, m.judge, m.entry, m.confederate, h) for m, h in zip(meetings, picks)]
    ranks = {}
    for judge in {m.judge for m in meetings}:
        called = [j.confederate if j.human == "entry" else j.entry for j in judgments if j.judge == judge]
        order = data.draw(st.permutations(range(1, len(called) + 1)))
        ranks[judge] = dict(zip(called, order))
    result = contest_score(fmt, meetings, judgments, ranks)
    totals = [r["judged_human"] for r in result["entries"]]
    assert sum(totals) == picks.count("entry")
    assert totals == sorted(totals, reverse=True)
    if result["winner"]:
        assert result["entries"][0]["entry"] == result["winner"]
        assert result["entries"][0]["judged_human"] == max(totals)
    else:
        assert result["tie_break"] == "organiser"
