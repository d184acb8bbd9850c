"""Outlier judges: a sequential test of each judge's votes against the other judges' consensus."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from arena.stats.battles import Battles, battle_cells
from arena.stats.solver import _newton, _row_priors


@dataclass
class JudgeTest:
    judge: object
    votes: int
    agreement: float | None  # share of decisive votes that went the consensus's way (q > ½)
    e_value: float  # sup over t of the test martingale Mₜ
    flagged: bool
    flagged_at: int | None  # the vote (1-based) at which Mₜ first reached 1/α


def judge_outliers(
    battles: Battles, judges: Sequence, *, alpha: float = 0.05, weight: float = 0.5, min_votes: int = 1
) -> list[JudgeTest]:
    """The sequential test of the module docstring for every judge with at least `min_votes` battles
    (`judges[k]` gave battle k; battles in time order).  The consensus for judge u is fitted on the other
    judges' battles (prior rule as in `bradley_terry_fit`; a player only u has seen is then known only
    through the prior, q ≈ ½, and says little)."""
    if not 0 < alpha < 1 or not 0 < weight < 1:
        raise ValueError("alpha and weight must be between 0 and 1")
    if len(judges) != len(battles):
        raise ValueError("one judge per battle")
    if len(battles) == 0:
        return []
    order: dict = {}
    for judge in judges:
        order.setdefault(judge, len(order))
    codes = np.array([order[j] for j in judges], dtype=np.int64)
    kept = [u for u in order if (codes == order[u]).sum() >= min_votes]
    if not kept:
        return []
    cells = battle_cells(battles)
    swap = battles.a > battles.b
    i = np.where(swap, battles.b, battles.a)
    j = np.where(swap, battles.a, battles.b)
    s = np.where(swap, 1.0 - battles.score, battles.score)
    pair_of_battle = np.searchsorted(cells.pair_i * battles.players + cells.pair_j, i * battles.players + j)
    n_all, w_all = cells.totals(cells.cell_count[None, :])
    n = np.repeat(n_all, len(kept), axis=0)
    w = np.repeat(w_all, len(kept), axis=0)
    for row, judge in enumerate(kept):
        mine = codes == order[judge]
        np.subtract.at(n[row], pair_of_battle[mine], 1.0)
        np.subtract.at(w[row], pair_of_battle[mine], s[mine])
    tau = _row_priors(cells, n, w, None)
    theta, _ = _newton(cells, n, w, tau)
    threshold = 1.0 / alpha
    results = []
    for row, judge in enumerate(kept):
        mine = np.flatnonzero(codes == order[judge])
        q_i = expit(theta[row, i[mine]] - theta[row, j[mine]])  # consensus P(pair_i scores)
        outcome = s[mine]
        q = np.where(outcome == 1.0, q_i, 1.0 - q_i)  # consensus probability of the vote given
        factor = np.where(outcome == 0.5, 1.0, 1.0 + weight * (1.0 - 2.0 * q) / np.maximum(q, 1e-300))
        martingale = np.cumprod(factor)
        hit = np.flatnonzero(martingale >= threshold)
        decisive = outcome != 0.5
        results.append(
            JudgeTest(
                judge=judge,
                votes=int(mine.size),
                agreement=float(np.mean(q[decisive] > 0.5)) if decisive.any() else None,
                e_value=float(martingale.max()),
                flagged=bool(hit.size),
                flagged_at=int(hit[0]) + 1 if hit.size else None,
            )
        )
    return results
