"""Scoring a Loebner final by paired comparisons (pure, no Django); see formats.py for the rankings.

``contest_score`` checks everything first (each judgment against the schedule, every meeting judged,
every judge's ranks as the format asks) and raises ScoringError naming the place; only then scores, so
nothing is ever half-scored.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .formats import Format
from .schedule import SIDES, Meeting


@dataclass(frozen=True)
class Judgment:
    round: int
    judge: str
    entry: str
    confederate: str
    human: str  # "entry" | "confederate": the side the judge called human


class ScoringError(ValueError):
    """Bad scoring input; ``where`` is a human-readable place such as "judgments[3]" or "ranks.J2"."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _judgments_check(meetings: list[Meeting], judgments: list[Judgment]) -> dict[tuple, Judgment]:
    by_pair = {m.pair: m for m in meetings}
    known = {
        "judge": {m.judge for m in meetings},
        "entry": {m.entry for m in meetings},
        "confederate": {m.confederate for m in meetings},
    }
    found: dict[tuple, tuple[int, Judgment]] = {}
    for k, j in enumerate(judgments):
        where = f"judgments[{k}]"
        if not isinstance(j, Judgment):
            raise ScoringError(where, "not a judgment")
        if not _is_int(j.round):
            raise ScoringError(f"{where}.round", f"round must be a whole number, not {j.round!r}")
        for field, pool in known.items():
            value = getattr(j, field)
            if not isinstance(value, str) or value not in pool:
                raise ScoringError(
                    f"{where}.{field}",
                    f"unknown {field} {value!r} (this schedule has {', '.join(sorted(pool, key=_label_key))})",
                )
        if not isinstance(j.human, str) or j.human not in SIDES:
            raise ScoringError(f"{where}.human", f"human must be 'entry' or 'confederate', not {j.human!r}")
        pair = (j.round, j.judge, j.entry, j.confederate)
        if pair not in by_pair:
            raise ScoringError(
                where, f"{j.judge} does not meet {j.entry} with {j.confederate} in round {j.round} in this schedule"
            )
        if pair in found:
            raise ScoringError(
                where,
                f"{j.judge}'s pair {j.entry}/{j.confederate} in round {j.round} is "
                f"judged twice (first at judgments[{found[pair][0]}])",
            )
        found[pair] = (k, j)
    missing = [m for m in meetings if m.pair not in found]
    if missing:
        m = missing[0]
        raise ScoringError(
            "judgments",
            f"{len(missing)} meeting(s) not judged, first round {m.round} {m.judge} {m.entry}/{m.confederate}",
        )
    return {pair: j for pair, (_, j) in found.items()}


def _label_key(label: str) -> tuple[str, int]:
    return (label[:1], int(label[1:]) if label[1:].isdigit() else 0)


def _expected_ranked(ranking: str, judgments: list[Judgment]) -> dict[str, set[str]]:
    """judge -> the labels the format asks that judge to rank."""
    expected: dict[str, set[str]] = defaultdict(set)
    for j in judgments:
        if ranking == "2009":
            expected[j.judge].add(j.confederate if j.human == "entry" else j.entry)
        elif ranking == "all-entities":
            expected[j.judge] |= {j.entry, j.confederate}
        else:
            expected[j.judge].add(j.entry)
    return expected


def _ranks_check(fmt: Format, judgments: list[Judgment], ranks) -> dict[str, dict[str, int]]:
    if fmt.ranking is None:
        if ranks:
            raise ScoringError("ranks", f"format {fmt.name} takes no ranks (its judges only pick the human)")
        return {}
    expected = _expected_ranked(fmt.ranking, judgments)
    if not isinstance(ranks, dict) or not ranks:
        raise ScoringError("ranks", f"format {fmt.name} needs every judge's ranks ({fmt.ranking} ranking)")
    for judge in ranks:
        if judge not in expected:
            raise ScoringError(f"ranks.{judge}", f"unknown judge {judge!r}")
    for judge in sorted(expected, key=_label_key):
        given, want = ranks.get(judge), expected[judge]
        if given is None:
            raise ScoringError(f"ranks.{judge}", "this judge's ranks are missing")
        if not isinstance(given, dict):
            raise ScoringError(f"ranks.{judge}", "must map labels to ranks")
        for label in given:
            if label not in want:
                raise ScoringError(
                    f"ranks.{judge}.{label}",
                    f"{judge} may not rank {label!r} here: it ranks {', '.join(sorted(want, key=_label_key))}",
                )
        top = len(want)
        holders: dict[int, str] = {}
        for label in sorted(want, key=_label_key):
            if label not in given:
                raise ScoringError(f"ranks.{judge}.{label}", f"{judge} gave {label} no rank")
            value = given[label]
            if not _is_int(value) or not 1 <= value <= top:
                raise ScoringError(f"ranks.{judge}.{label}", f"rank must be a whole number 1..{top}, not {value!r}")
            if value in holders:
                raise ScoringError(f"ranks.{judge}", f"rank {value} given twice ({holders[value]} and {label})")
            holders[value] = label
    return {judge: dict(ranks[judge]) for judge in expected}


def _mean(values: list[int]) -> float | None:
    return round(sum(values) / len(values), 6) if values else None


def _order_keys(ranking: str | None, row: dict) -> tuple[tuple, tuple]:
    """(primary, secondary) sort keys, smaller is better."""
    human = -row["judged_human"]
    if ranking == "2009":  # never called non-human: no mean rank, and nothing to hold against it
        mean = row["mean_rank"]
        return (human,), (-(mean if mean is not None else float("inf")),)
    if ranking in ("mean-rank", "all-entities"):
        return (row["mean_rank"],), (human,)
    if ranking == "points":
        return (-row["points"],), (human,)
    return (human,), ()


TIE_BREAKS = {
    "2009": "mean-rank",
    "mean-rank": "judged-human",
    "all-entities": "judged-human",
    "points": "judged-human",
    None: None,
}


def contest_score(
    fmt: Format, meetings: list[Meeting], judgments: list[Judgment], ranks: dict[str, dict[str, int]] | None = None
) -> dict:
    """The results as the ``loebner score`` command prints them: winner (None when a tie is left to
    the organiser), entries best first with their column total (``judged_human``), ``mean_rank`` and
    ``points`` (None where the ranking has none), ``place`` (shared when tied), whether the silver rule
    was met, and the tie-break that decided the winner (None when none was needed)."""
    judged = _judgments_check(meetings, judgments)
    ranks = _ranks_check(fmt, list(judged.values()), ranks)
    rows = []
    for entry in sorted({m.entry for m in meetings}, key=_label_key):
        mine = [j for j in judged.values() if j.entry == entry]
        fooled = [j for j in mine if j.human == "entry"]
        given = [r[entry] for r in ranks.values() if entry in r]
        rows.append(
            {
                "entry": entry,
                "judged_human": len(fooled),
                "meetings": len(mine),
                "mean_rank": _mean(given) if fmt.ranking not in (None, "points") else None,
                "points": sum(given) if fmt.ranking == "points" else None,
                "judges_fooled": sorted({j.judge for j in fooled}, key=_label_key),
                "confederates_beaten": sorted({j.confederate for j in fooled}, key=_label_key),
            }
        )
    keyed = sorted(rows, key=lambda r: (*_order_keys(fmt.ranking, r), _label_key(r["entry"])))
    for row in keyed:
        row["place"] = 1 + sum(_order_keys(fmt.ranking, o) < _order_keys(fmt.ranking, row) for o in keyed)
    first = _order_keys(fmt.ranking, keyed[0])
    level = [r for r in keyed if _order_keys(fmt.ranking, r)[0] == first[0]]
    best = [r for r in level if _order_keys(fmt.ranking, r) == first]
    winner = keyed[0]["entry"] if len(best) == 1 else None
    tie_break = None if len(level) == 1 else (TIE_BREAKS[fmt.ranking] if winner else "organiser")
    silver = [
        r["entry"]
        for r in keyed
        if 2 * len(r["judges_fooled"]) >= fmt.judges and 2 * len(r["confederates_beaten"]) >= fmt.confederates
    ]
    return {
        "format": fmt.name,
        "ranking": fmt.ranking,
        "winner": winner,
        "bronze": winner,
        "entries": keyed,
        "silver": bool(silver),
        "silver_entries": silver,
        "silver_at_risk": fmt.silver_at_risk,
        "tie_break": tie_break,
        "tied": [r["entry"] for r in level] if len(level) > 1 else [],
        "judgments": len(judged),
    }
