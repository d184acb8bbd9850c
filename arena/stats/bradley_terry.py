"""Bradley–Terry fits, bootstrap replicates and the rating table (formulas: the package docstring)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from arena.stats.battles import BattleError, Battles, battle_cells
from arena.stats.rates import _z
from arena.stats.solver import DEFAULT_PRIOR, _chord, _Model, _newton, _row_priors, _strongly_connected

SCALE = 400.0  # rating points per factor 10 of strength
CENTRE = 1000.0  # the players' mean rating (unless anchored)


@dataclass
class Fit:
    """A Bradley–Terry fit: log-strengths θ (natural log, mean 0), the prior τ used, and what to know."""

    names: list[str]
    theta: np.ndarray
    prior: float
    games: np.ndarray
    points: np.ndarray
    notes: list[str] = field(default_factory=list)


def _degeneracy_notes(battles: Battles) -> list[str]:
    games, points = battles.games(), battles.points()
    notes = []
    for name, g, s in zip(battles.names, games, points):
        if g == 0:
            notes.append(f"{name} played no battles: only the prior places it")
        elif s == g:
            notes.append(f"{name} won every battle it played ({g}): its maximum-likelihood rating is infinite")
        elif s == 0:
            notes.append(f"{name} lost every battle it played ({g}): its maximum-likelihood rating is minus infinity")
    if not notes:
        notes.append(
            "the battles split the players into groups never compared both ways, so maximum "
            "likelihood cannot place the groups against each other"
        )
    return notes


def bradley_terry_fit(battles: Battles, *, prior: float | None = None) -> Fit:
    """Maximise ℓ_τ(θ) (module docstring) by damped Newton to |Δθ| < 1e-10; θ centred on mean 0.
    prior None: τ = 0 (plain maximum likelihood) when it exists, else DEFAULT_PRIOR, and `notes` says why.
    prior 0 on data whose maximum likelihood does not exist raises BattleError naming the players."""
    games, points = battles.games(), battles.points()
    if len(battles) == 0:
        return Fit(
            names=list(battles.names),
            theta=np.zeros(battles.players),
            prior=0.0,
            games=games,
            points=points,
            notes=["no battles: nothing to rate"],
        )
    if prior is not None and prior < 0:
        raise ValueError("prior must be >= 0")
    cells = battle_cells(battles)
    n, w = cells.totals(cells.cell_count[None, :])
    tau = _row_priors(cells, n, w, prior)
    notes = []
    if tau[0] > 0 and prior is None:
        notes = _degeneracy_notes(battles) + [
            f"regularised: every player was given a prior of {DEFAULT_PRIOR:g} virtual battle(s), a tie, "
            "against a reference player at the mean"
        ]
    elif tau[0] == 0 and not _strongly_connected(cells.players, cells.pair_i, cells.pair_j, n[0], w[0]):
        raise BattleError(
            "maximum likelihood does not exist: " + "; ".join(_degeneracy_notes(battles)) + " (give a prior > 0)"
        )
    theta, _ = _newton(cells, n, w, tau)
    theta = theta[0] - theta[0].mean()
    return Fit(names=list(battles.names), theta=theta, prior=float(tau[0]), games=games, points=points, notes=notes)


def bradley_terry_bootstrap(
    battles: Battles,
    *,
    replicates: int = 1000,
    seed=None,
    prior: float | None = None,
    fit: Fit | None = None,
    chunk: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """θ of `replicates` bootstrap resamples of the battles, shape (R, players), each row centred.

    Each replicate draws N battles with replacement from the N battles: the counts of the distinct
    (pair, outcome) cells are one multinomial draw (N; cell counts / N).  Replicates are fitted
    together (see the module docstring), `chunk` rows at a time (bounded memory), warm-started from the
    point estimate; `progress(rows_done)` is called after each chunk.  The prior follows the point
    fit's rule per replicate (prior None: 0 where the replicate's MLE exists, DEFAULT_PRIOR where not)."""
    fit = fit or bradley_terry_fit(battles, prior=prior)
    replicates = int(replicates)
    if replicates <= 0 or len(battles) == 0:
        return np.zeros((max(replicates, 0), battles.players))
    cells = battle_cells(battles)
    rng = np.random.default_rng(seed)
    total = int(cells.cell_count.sum())
    pvals = cells.cell_count / total
    n0, w0 = cells.totals(cells.cell_count[None, :])
    base = (w0 > 0, n0 - w0 > 0) if fit.prior == 0 else None
    p = battles.players
    model = _Model(cells)
    theta_hat = fit.theta[None, :]
    inverse = np.linalg.inv(model.hessian(theta_hat, n0, np.array([fit.prior]))[0])
    chunk = chunk or max(1, min(replicates, int(5e6 // max(p * p, cells.pair_i.size, 1))))
    out = np.empty((replicates, p))
    for start in range(0, replicates, chunk):
        rows = min(chunk, replicates - start)
        counts = rng.multinomial(total, pvals, size=rows)
        n, w = cells.totals(counts)
        tau = (
            _row_priors(cells, n, w, prior, base)
            if prior is None and fit.prior == 0
            else (np.full(rows, fit.prior) if prior is None else np.full(rows, float(prior)))
        )
        theta = _chord(cells, n, w, tau, np.broadcast_to(fit.theta, (rows, p)), inverse)
        out[start : start + rows] = theta - theta.mean(axis=1, keepdims=True)
        if progress is not None:
            progress(rows)
    return out


def theta_to_rating(
    theta: np.ndarray, *, names: Sequence[str] | None = None, anchor: tuple[str, float] | None = None
) -> np.ndarray:
    """rating = 1000 + 400·θ/ln 10, centred on a mean of 1000 over the last axis, or shifted so that the
    anchor (name, rating) has that rating."""
    theta = np.asarray(theta, dtype=np.float64)
    rating = SCALE * theta / math.log(10.0)
    if anchor is None:
        return CENTRE + rating - rating.mean(axis=-1, keepdims=True)
    name, value = anchor
    if names is None or name not in names:
        raise BattleError(f"anchor {name!r} is not one of the rated players")
    k = list(names).index(name)
    return float(value) + rating - rating[..., k : k + 1]


@dataclass
class Rating:
    name: str
    rating: float
    ci_low: float | None
    ci_high: float | None
    battles: int
    points: float

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "rating": self.rating,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "battles": self.battles,
        }


@dataclass
class RatingTable:
    ratings: list[Rating]  # best first
    prior: float
    replicates: int
    level: float
    notes: list[str]
    win_fraction: np.ndarray  # (P, P) score of row against column / battles (nan where never met), names order
    battle_count: np.ndarray  # (P, P)
    names: list[str]


def ratings_compute(
    battles: Battles,
    *,
    replicates: int = 1000,
    seed=None,
    anchor: tuple[str, float] | None = None,
    level: float = 0.95,
    prior: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> RatingTable:
    """The leaderboard: the point fit on the rating scale, percentile bootstrap intervals (None when
    replicates = 0), battles per player, the pairwise battle counts and win fractions, and the notes."""
    _z(level)
    fit = bradley_terry_fit(battles, prior=prior)
    names = fit.names
    if anchor is not None and anchor[0] not in names:
        raise BattleError(f"anchor {anchor[0]!r} is not one of the rated players")
    rating = theta_to_rating(fit.theta, names=names, anchor=anchor) if names else np.zeros(0)
    low = high = None
    if replicates > 0 and len(battles):
        boot = theta_to_rating(
            bradley_terry_bootstrap(battles, replicates=replicates, seed=seed, prior=prior, fit=fit, progress=progress),
            names=names,
            anchor=anchor,
        )
        low, high = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2], axis=0)
    p = battles.players
    count = np.zeros((p, p))
    won = np.zeros((p, p))
    np.add.at(count, (battles.a, battles.b), 1)
    np.add.at(won, (battles.a, battles.b), battles.score)
    count, won = count + count.T, won + (count.T - won.T)
    with np.errstate(invalid="ignore", divide="ignore"):
        fraction = np.where(count > 0, won / np.where(count > 0, count, 1), np.nan)
    rows = [
        Rating(
            name=name,
            rating=float(rating[k]),
            ci_low=None if low is None else float(low[k]),
            ci_high=None if high is None else float(high[k]),
            battles=int(fit.games[k]),
            points=float(fit.points[k]),
        )
        for k, name in enumerate(names)
    ]
    rows.sort(key=lambda r: (-r.rating, r.name))
    return RatingTable(
        ratings=rows,
        prior=fit.prior,
        replicates=max(int(replicates), 0) if len(battles) else 0,
        level=level,
        notes=fit.notes,
        win_fraction=fraction,
        battle_count=count,
        names=list(names),
    )
