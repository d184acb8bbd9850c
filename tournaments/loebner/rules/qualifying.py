"""Qualifying (the selection of the finalists), pure: answers marked 0/1/2 and summed (2017), ranking
with shared ranks, the top N. A tie across the cut is the organiser's to break (2011, Exeter)."""

from __future__ import annotations

import math

MARKS = (0, 1, 2)


class QualifyingTie(ValueError):
    """Entries tied across the finalists' cut; ``tied`` lists them, the organiser orders them."""

    def __init__(self, tied: list[str], places: int):
        super().__init__(
            f"{', '.join(tied)} tie for the last {places} finalist place(s): "
            "the organiser breaks the tie (pass order=[...])"
        )
        self.tied = tied
        self.places = places


def answers_score(marks: list[int]) -> int:
    """The sum of one entry's marks, each 0, 1 or 2; ValueError naming the answer."""
    for k, mark in enumerate(marks):
        if isinstance(mark, bool) or mark not in MARKS:
            raise ValueError(f"answer {k + 1}: mark must be 0, 1 or 2, not {mark!r}")
    return sum(marks)


def _checked(scores: dict[str, float]) -> None:
    for label, score in scores.items():
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
            raise ValueError(f"{label}: score must be a finite number, not {score!r}")


def qualifying_rank(scores: dict[str, float]) -> list[tuple[int, str, float]]:
    """(rank, label, score), best first; tied scores share the rank and the next rank skips
    (1, 2, 3, 4, 5, 5, 5, 8 ...); ties listed by label."""
    _checked(scores)
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return [(1 + sum(s > score for s in scores.values()), label, score) for label, score in ordered]


def finalists(scores: dict[str, float], n: int = 4, *, order: list[str] | None = None) -> list[str]:
    """The top ``n`` labels, best first. When entries tie across the cut, ``order`` (the organiser's
    ranking of at least the tied ones) decides; without it QualifyingTie names them."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive whole number, not {n!r}")
    ranked = qualifying_rank(scores)
    if len(ranked) <= n:
        return [label for _, label, _ in ranked]
    cut = ranked[n - 1][2]
    sure = [label for _, label, score in ranked if score > cut]
    tied = [label for _, label, score in ranked if score == cut]
    places = n - len(sure)
    if len(tied) <= places:
        return sure + tied
    if order is None:
        raise QualifyingTie(tied, places)
    missing = [label for label in tied if label not in order]
    if missing:
        raise ValueError(f"order must rank every tied entry; missing {', '.join(missing)}")
    return sure + sorted(tied, key=order.index)[:places]
