"""The Kapor–Kurzweil rules (tournaments.wager.rules, pure): truth tables computed by hand, not by the code."""

import itertools

import pytest

from tournaments.wager.rules import (
    PlanError,
    RulesError,
    plan_check,
    score_document,
    session_passed,
    slot_plan,
    trial_score,
)

CANDIDATES = ["computer", "F1", "F2", "F3"]
# the same ranks for every judge: the computer in the middle (median 2 < F1 4, < F2 3, > F3 1): rank order fails
PLAIN_RANKS = {"computer": 2, "F1": 4, "F2": 3, "F3": 1}


def verdicts_with(fooled: tuple[bool, bool, bool]) -> dict:
    return {
        f"J{i}": {"computer": "human" if f else "machine", "F1": "human", "F2": "human", "F3": "machine"}
        for i, f in enumerate(fooled, start=1)
    }


def same_ranks(ranks: dict) -> dict:
    return {f"J{i}": dict(ranks) for i in (1, 2, 3)}


# --- Human Determination Test: every combination of which of the three judges were fooled ------------
HD_TABLE = [  # (J1 fooled, J2 fooled, J3 fooled) -> (fooled, passes): "two or more of the three"
    ((False, False, False), 0, False),
    ((True, False, False), 1, False),
    ((False, True, False), 1, False),
    ((False, False, True), 1, False),
    ((True, True, False), 2, True),
    ((True, False, True), 2, True),
    ((False, True, True), 2, True),
    ((True, True, True), 3, True),
]


@pytest.mark.parametrize("fooled, count, passes", HD_TABLE)
def test_human_determination_needs_two_of_three_judges_fooled(fooled, count, passes):
    score = trial_score(verdicts_with(fooled), same_ranks({"computer": 4, "F1": 3, "F2": 2, "F3": 1}))
    assert score.fooled == count
    assert score.human_determination is passes
    assert score.rank_order is True  # ranked most human by all: the computer passes iff it fooled enough judges
    assert score.passed is passes


def test_the_table_covers_every_combination():
    assert sorted(row[0] for row in HD_TABLE) == sorted(itertools.product([False, True], repeat=3))


# --- Rank Order Test: medians, ties count for the computer (≥) -----------------------------------------
RANK_TABLE = [
    # (ranks per judge, computer median, foil medians, passes), worked out by hand
    pytest.param(
        {
            "J1": {"computer": 4, "F1": 3, "F2": 2, "F3": 1},
            "J2": {"computer": 4, "F1": 1, "F2": 2, "F3": 3},
            "J3": {"computer": 4, "F1": 2, "F2": 3, "F3": 1},
        },
        4,
        {"F1": 2, "F2": 2, "F3": 1},
        True,
        id="always-most-human",
    ),
    pytest.param(
        {
            "J1": {"computer": 1, "F1": 3, "F2": 2, "F3": 4},
            "J2": {"computer": 1, "F1": 4, "F2": 2, "F3": 3},
            "J3": {"computer": 1, "F1": 2, "F2": 3, "F3": 4},
        },
        1,
        {"F1": 3, "F2": 2, "F3": 4},
        False,
        id="always-least-human",
    ),
    # computer [2,2,3] -> 2; F1 [4,4,4] -> 4; F2 [3,1,2] -> 2 (a tie: counts); F3 [1,3,1] -> 1: two foils -> passes
    pytest.param(
        {
            "J1": {"computer": 2, "F1": 4, "F2": 3, "F3": 1},
            "J2": {"computer": 2, "F1": 4, "F2": 1, "F3": 3},
            "J3": {"computer": 3, "F1": 4, "F2": 2, "F3": 1},
        },
        2,
        {"F1": 4, "F2": 2, "F3": 1},
        True,
        id="tie-makes-the-second",
    ),
    # computer [1,2,3] -> 2; F1 [4,4,1] -> 4; F2 [2,1,2] -> 2 (tie); F3 [3,3,4] -> 3: only one foil -> fails
    pytest.param(
        {
            "J1": {"computer": 1, "F1": 4, "F2": 2, "F3": 3},
            "J2": {"computer": 2, "F1": 4, "F2": 1, "F3": 3},
            "J3": {"computer": 3, "F1": 1, "F2": 2, "F3": 4},
        },
        2,
        {"F1": 4, "F2": 2, "F3": 3},
        False,
        id="one-tie-only",
    ),
    # computer 3 everywhere; F1 4, F2 [1,2,1] -> 1, F3 [2,1,2] -> 2: beats exactly two -> passes
    pytest.param(
        {
            "J1": {"computer": 3, "F1": 4, "F2": 1, "F3": 2},
            "J2": {"computer": 3, "F1": 4, "F2": 2, "F3": 1},
            "J3": {"computer": 3, "F1": 4, "F2": 1, "F3": 2},
        },
        3,
        {"F1": 4, "F2": 1, "F3": 2},
        True,
        id="beats-two",
    ),
    # three-way tie of medians: computer [2,3,2] -> 2, F1 [1,2,4] -> 2, F2 [3,1,3] -> 3, F3 [4,4,1] -> 4
    pytest.param(
        {
            "J1": {"computer": 2, "F1": 1, "F2": 3, "F3": 4},
            "J2": {"computer": 3, "F1": 2, "F2": 1, "F3": 4},
            "J3": {"computer": 2, "F1": 4, "F2": 3, "F3": 1},
        },
        2,
        {"F1": 2, "F2": 3, "F3": 4},
        False,
        id="beats-one-by-tie",
    ),
]


@pytest.mark.parametrize("ranks, computer_median, foil_medians, passes", RANK_TABLE)
def test_rank_order_compares_medians_with_ties_for_the_computer(ranks, computer_median, foil_medians, passes):
    score = trial_score(verdicts_with((True, True, True)), ranks)
    assert score.computer_median_rank == computer_median
    assert score.foil_median_ranks == foil_medians
    assert score.rank_order is passes
    assert score.passed is passes  # all three fooled: both tests iff rank order


def test_passing_needs_both_tests():
    fooled_two_but_plain = trial_score(verdicts_with((True, True, False)), same_ranks(PLAIN_RANKS))
    assert (fooled_two_but_plain.human_determination, fooled_two_but_plain.rank_order, fooled_two_but_plain.passed) == (
        True,
        False,
        False,
    )
    ranked_high_fooled_one = trial_score(
        verdicts_with((True, False, False)), same_ranks({"computer": 4, "F1": 1, "F2": 2, "F3": 3})
    )
    assert (
        ranked_high_fooled_one.human_determination,
        ranked_high_fooled_one.rank_order,
        ranked_high_fooled_one.passed,
    ) == (False, True, False)


# --- the session over its trials: the committee's aggregation ---------------------------------------
@pytest.mark.parametrize(
    "passes, majority, every, any_",
    [
        ([True, False, False], False, False, True),
        ([True, True, False], True, False, True),
        ([True, True, True], True, True, True),
        ([False, False, False], False, False, False),
        ([True, False, True, False], False, False, True),  # two of four is no majority
        ([True, True, True, False, False], True, False, True),
    ],
)
def test_session_aggregation(passes, majority, every, any_):
    assert session_passed(passes, "majority") is majority
    assert session_passed(passes, "all") is every
    assert session_passed(passes, "any") is any_


def test_score_document_default_is_majority():
    good = {
        "verdicts": verdicts_with((True, True, True)),
        "ranks": same_ranks({"computer": 4, "F1": 3, "F2": 2, "F3": 1}),
    }
    bad = {"verdicts": verdicts_with((False, False, False)), "ranks": same_ranks(PLAIN_RANKS)}
    assert score_document({"trials": [good, bad, good]}).passed is True
    assert score_document({"trials": [good, bad, bad]}).passed is False
    assert score_document({"trials": [good, bad, bad], "aggregation": "any"}).passed is True
    assert score_document({"trials": [good, good, bad], "aggregation": "all"}).passed is False


# --- refusals name the trial and the judge -----------------------------------------------------------
def _doc(mutate):
    trials = [{"verdicts": verdicts_with((True, True, True)), "ranks": same_ranks(PLAIN_RANKS)} for _ in range(3)]
    mutate(trials[1])
    return {"trials": trials}


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda t: t["ranks"]["J3"].update(F1=2), ["trial 2, judge J3", "once"]),
        (lambda t: t["ranks"]["J2"].update(F1=5), ["trial 2, judge J2", "from 1 to 4"]),
        (lambda t: t["ranks"]["J2"].update(F1="4"), ["trial 2, judge J2", "whole number"]),
        (lambda t: t["ranks"]["J2"].update(F1=True), ["trial 2, judge J2", "whole number"]),
        (lambda t: t["verdicts"]["J1"].update(F2="maybe"), ["trial 2, judge J1", "human", "machine"]),
        (lambda t: t["verdicts"]["J1"].pop("F3"), ["trial 2, judge J1", "no verdict for F3"]),
        (lambda t: t["ranks"]["J1"].pop("computer"), ["trial 2, judge J1", "no rank for computer"]),
        (lambda t: t["verdicts"]["J3"].update(F4="human"), ["trial 2, judge J3", "F4"]),
        (lambda t: t["ranks"].pop("J2"), ["trial 2, judge J2", "no ranks"]),
        (lambda t: t["ranks"].update(J4=dict(PLAIN_RANKS)), ["trial 2, judge J4", "no verdicts"]),
    ],
)
def test_bad_input_is_refused_naming_trial_and_judge(mutate, words):
    with pytest.raises(RulesError) as refused:
        score_document(_doc(mutate))
    for word in words:
        assert word in str(refused.value)


@pytest.mark.parametrize(
    "document",
    [
        [],
        {"trials": []},
        {"trials": "x"},
        {"trials": [{}], "aggregation": "most"},
        {"trials": [], "extra": 1},
        {"trials": [[]]},
    ],
)
def test_malformed_documents_are_refused(document):
    with pytest.raises(RulesError):
        score_document(document)


# --- the slot plan ------------------------------------------------------------------------------------
def test_the_rules_plan_four_slots_of_two_hours():
    plan = slot_plan(judges=3, candidates=4, hours=2)
    assert max(s.slot for s in plan) == 4 and len(plan) == 12
    for judge in ("J1", "J2", "J3"):
        mine = [s for s in plan if s.judge == judge]
        assert sum(s.end_h - s.start_h for s in mine) == 8  # eight hours of interviews per judge
        assert sorted(s.candidate for s in mine) == sorted(CANDIDATES)
    assert sum(s.end_h - s.start_h for s in plan) == 24  # 24 hours per trial
    assert plan_check(plan, judges=3, candidates=4) == []


@pytest.mark.parametrize("judges, candidates", [(j, c) for j in range(1, 7) for c in range(2, 7)])
def test_plan_properties_for_any_numbers(judges, candidates):
    plan = slot_plan(judges=judges, candidates=candidates, hours=1.5, break_h=0.25)
    assert plan_check(plan, judges=judges, candidates=candidates) == []
    pairs = [(s.judge, s.candidate) for s in plan]
    assert len(pairs) == len(set(pairs)) == judges * candidates  # each judge meets each candidate exactly once
    for slot in {s.slot for s in plan}:
        here = [s for s in plan if s.slot == slot]
        assert len({s.judge for s in here}) == len(here) == len({s.candidate for s in here})  # nobody twice at once
        assert {s.start_h for s in here} == {(slot - 1) * 1.75}
    assert max(s.slot for s in plan) == max(judges, candidates)  # as few slots as possible


def test_plan_check_catches_a_bad_plan():
    plan = slot_plan(judges=3, candidates=4, hours=2)
    moved = [s if s.slot != 2 else type(s)(s.slot, s.judge, s.candidate, 1.0, 3.0) for s in plan]
    assert any("two interviews at once" in p for p in plan_check(moved, judges=3, candidates=4))
    assert any("0 times" in p for p in plan_check(plan[1:], judges=3, candidates=4))


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(judges=0, candidates=4, hours=2),
        dict(judges=3, candidates=1, hours=2),
        dict(judges=3, candidates=4, hours=0),
        dict(judges=3.5, candidates=4, hours=2),
        dict(judges=True, candidates=4, hours=2),
        dict(judges=3, candidates=4, hours=25),
    ],
)
def test_plan_refuses_impossible_numbers(kwargs):
    with pytest.raises(PlanError):
        slot_plan(**kwargs)
