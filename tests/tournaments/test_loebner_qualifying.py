"""Qualifying: answers marked 0/1/2 and summed, shared ranks, the finalists (pure: no database)."""

import pytest

from tournaments.loebner.rules.qualifying import QualifyingTie, answers_score, finalists, qualifying_rank

# The 2017 selection (docs/reference/formats.md): totals out of 40.
SCORES_2017 = {
    "Mitsuku": 27,
    "Rose": 23,
    "Uberbot": 21,
    "Midge": 20,
    "Tutor": 18,
    "Colombina": 18,
    "Arckon": 18,
    "Johnny": 16,
    "Aidan": 16,
    "Alt Inc": 15,
    "Talk2me": 13,
    "Izar": 13,
    "Simplex": 12,
    "Alice": 12,
    "Momo": 8,
    "P.A.M.": 2,
}


def test_2017_selection_ranks_with_shared_places_and_takes_the_top_four():
    ranked = qualifying_rank(SCORES_2017)
    assert [rank for rank, _, _ in ranked] == [1, 2, 3, 4, 5, 5, 5, 8, 8, 10, 11, 11, 13, 13, 15, 16]
    assert ranked[4:7] == [(5, "Arckon", 18), (5, "Colombina", 18), (5, "Tutor", 18)]
    assert finalists(SCORES_2017) == ["Mitsuku", "Rose", "Uberbot", "Midge"]


def test_a_tie_across_the_cut_is_the_organisers():
    scores = {"E1": 30, "E2": 25, "E3": 20, "E4": 20, "E5": 20, "E6": 3}
    assert finalists(scores, 2) == ["E1", "E2"]
    with pytest.raises(QualifyingTie, match="E3, E4, E5 tie for the last 2") as caught:
        finalists(scores, 4)
    assert caught.value.tied == ["E3", "E4", "E5"]
    assert finalists(scores, 4, order=["E5", "E3", "E4"]) == ["E1", "E2", "E5", "E3"]
    assert finalists(scores, 5) == ["E1", "E2", "E3", "E4", "E5"]  # the whole tie fits
    assert finalists({"E1": 1, "E2": 1}, 4) == ["E1", "E2"]  # fewer entries than places
    with pytest.raises(ValueError, match="missing E4"):
        finalists(scores, 4, order=["E5", "E3"])


def test_answers_are_marked_0_1_or_2_and_summed():
    assert answers_score([2, 1, 0, 2]) == 5
    assert answers_score([2] * 20) == 40
    for bad in ([0, 3], [1, -1], [1, 1.5], [True]):
        with pytest.raises(ValueError, match=f"answer {len(bad)}: mark must be 0, 1 or 2"):
            answers_score(bad)


@pytest.mark.parametrize(
    "scores, message",
    [({"E1": float("nan")}, "E1: score must be a finite number"), ({"E1": "9"}, "E1: score must be a finite number")],
)
def test_bad_scores_are_refused(scores, message):
    with pytest.raises(ValueError, match=message):
        qualifying_rank(scores)
    with pytest.raises(ValueError, match="positive whole number"):
        finalists({"E1": 1}, 0)
