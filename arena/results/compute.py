"""Tabulating collected outcomes and battles: pass rates beside the human baseline, the leaderboard with
its win-fraction matrix, judges' accuracy (the statistics themselves are arena.stats).  No database."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from arena import stats
from arena.results.sources import HUMAN, Battle, Outcome, pooled


def _rate_row(name: str, k: int, n: int, *, machine: bool, level: float) -> dict:
    estimate = stats.proportion_estimate(k, n, level=level)
    return {
        "name": name,
        "witness_kind": "machine" if machine else "human",
        "baseline": name == HUMAN,
        "judged_human": k,
        **estimate.as_dict(),
    }


def pass_rates(outcomes: Sequence[Outcome], *, fmt: str | None = None, level: float = 0.95) -> list[dict]:
    """Per witness, how often it was judged human (outcomes of `fmt`, or all), with n, the Wilson interval
    and the exact test against 50 %; first the pooled human witnesses' own rate measured the same way
    (always present, n = 0 when no human witness was judged)."""
    tally: dict[str, list[int]] = {HUMAN: [0, 0]}
    machine: dict[str, bool] = {HUMAN: False}
    for o in outcomes:
        if o.judged_human is None or (fmt is not None and o.format != fmt):
            continue
        name = o.witness if o.witness_is_machine else HUMAN
        counts = tally.setdefault(name, [0, 0])
        counts[0] += int(o.judged_human)
        counts[1] += 1
        machine[name] = o.witness_is_machine
    rows = [_rate_row(name, k, n, machine=machine[name], level=level) for name, (k, n) in tally.items()]
    rows.sort(key=lambda r: (not r["baseline"], -(r["rate"] if r["rate"] is not None else -1.0), r["name"]))
    return rows


def rates_by_format(outcomes: Sequence[Outcome], formats: dict[str, str], *, level: float = 0.95) -> list[dict]:
    """pass_rates for each format that has outcomes, in the registry's order: [{format, label, rows}]."""
    present = {o.format for o in outcomes if o.judged_human is not None}
    return [
        {"format": fmt, "label": label, "rows": pass_rates(outcomes, fmt=fmt, level=level)}
        for fmt, label in formats.items()
        if fmt in present
    ]


def entry_rates(
    outcomes: Sequence[Outcome], witness: str, formats: dict[str, str], *, level: float = 0.95
) -> list[dict]:
    """For one machine witness: per format it played, its rate beside the human baseline of that format."""
    rows = []
    for fmt, label in formats.items():
        mine = [
            o
            for o in outcomes
            if o.format == fmt and o.witness_is_machine and o.witness == witness and o.judged_human is not None
        ]
        if not mine:
            continue
        k = sum(o.judged_human for o in mine)
        humans = [o for o in outcomes if o.format == fmt and not o.witness_is_machine and o.judged_human is not None]
        rows.append(
            {
                "format": fmt,
                "label": label,
                "entry": _rate_row(witness, k, len(mine), machine=True, level=level),
                "human": _rate_row(HUMAN, sum(o.judged_human for o in humans), len(humans), machine=False, level=level),
            }
        )
    return rows


def battle_records(battles: Sequence[Battle], *, pool_humans: bool = True) -> tuple[stats.Battles, list[str]]:
    """The battles as arena.stats.Battles (humans pooled unless asked not to; a battle of a player against
    itself, e.g. two pooled humans, is dropped) and the judge of each battle kept."""
    records, judges = [], []
    for b in battles:
        a, c = (pooled(b.a), pooled(b.b)) if pool_humans else (b.a, b.b)
        if a == c:
            continue
        records.append({"a": a, "b": c, "winner": b.winner})
        judges.append(b.judge)
    return stats.battles_from_records(records), judges


def leaderboard(table: stats.RatingTable) -> dict:
    """A rating table as plain data: ratings best first, the battle-count and win-fraction matrices in the
    same order (None where two players never met)."""
    ratings = [r.as_dict() for r in table.ratings]
    order = [table.names.index(r["name"]) for r in ratings]
    fraction = [
        [None if table.battle_count[i][j] == 0 else float(table.win_fraction[i][j]) for j in order] for i in order
    ]
    count = [[int(table.battle_count[i][j]) for j in order] for i in order]
    return {
        "ratings": ratings,
        "names": [r["name"] for r in ratings],
        "win_fraction": fraction,
        "battle_count": count,
        "notes": list(table.notes),
        "level": table.level,
        "replicates": table.replicates,
        "battles": int(table.battle_count.sum() // 2),
    }


def decision_correct(group: Sequence[Outcome]) -> bool | None:
    """Was a decision right?  Every witness judged human is a human, and when none was judged human, every
    witness judged not human is a machine.  None when the judge decided nothing."""
    judged = [o for o in group if o.judged_human is not None]
    if not judged:
        return None
    picked = [o for o in judged if o.judged_human]
    if picked:
        return all(not o.witness_is_machine for o in picked)
    return all(o.witness_is_machine for o in judged)


def judge_accuracies(
    outcomes: Sequence[Outcome], battles: Sequence[Battle], *, level: float = 0.95, alpha: float = 0.05
) -> list[dict]:
    """Per judge key: decisions right of n with the Wilson interval and the exact test against 50 %, and the
    sequential outlier test (arena.stats.judge_outliers) on the judge's battles against the other judges'
    consensus; most suspect first."""
    decisions: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        decisions[(o.format, o.decision)].append(o)
    tally: dict[str, list[int]] = {}
    for group in decisions.values():
        right = decision_correct(group)
        if right is None:
            continue
        row = tally.setdefault(group[0].judge, [0, 0])
        row[0] += int(right)
        row[1] += 1
    data, judges = battle_records(battles)
    tests = {t.judge: t for t in stats.judge_outliers(data, judges, alpha=alpha)}
    rows = []
    for key in sorted(tally):
        k, n = tally[key]
        test = tests.get(key)
        rows.append(
            {
                "judge": key,
                "correct": k,
                **stats.proportion_estimate(k, n, level=level).as_dict(),
                "battles": test.votes if test else 0,
                "e_value": test.e_value if test else 1.0,
                "outlier": bool(test and test.flagged),
                "flagged_at": test.flagged_at if test else None,
            }
        )
    rows.sort(key=lambda r: -r["e_value"])
    return rows
