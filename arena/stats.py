"""Results people can trust: rates with confidence intervals, Bradley–Terry ratings, outlier judges.

NumPy and SciPy only, no Django (an import-linter contract checks it), so a researcher can use it on
exported data and the platform's selectors, commands and benchmarks share one implementation.

Proportions (the pass rate of Jones & Bergen: how often a witness was judged human)
    k successes in n trials, p̂ = k/n, z = Φ⁻¹((1 + level)/2) (1.96 for 95 %).
    * `wilson_interval`: (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n).  Never leaves [0, 1] and
      stays informative at k = 0 or k = n, which is why it is the default.
    * `bootstrap_interval`: the percentile bootstrap: resampling n outcomes with replacement makes
      k* ~ Binomial(n, p̂); the interval is the (1−level)/2 and (1+level)/2 quantiles of k*/n (as Jones &
      Bergen report).  It collapses to a point at k = 0 or k = n: use Wilson there.
    * `binomial_test`: the exact two-sided test of p = p0 (default 50 %, "indistinguishable from chance"):
      P = Σ P(X = i) over every i with P(X = i) ≤ P(X = k), X ~ Binomial(n, p0) (SciPy's `binomtest`).
    * `proportion_estimate`: all three in one `Proportion`.  n = 0 gives rate None, the interval [0, 1]
      and p-value None: nothing is known, and nothing crashes.

Bradley–Terry ratings (Chatbot Arena's fit, FastChat `elo_analysis`)
    Player i has a strength πᵢ = exp(θᵢ); P(i beats j) = πᵢ/(πᵢ + πⱼ) = σ(θᵢ − θⱼ), σ(x) = 1/(1 + e⁻ˣ).
    A battle's score for its first player is 1 (win), ½ (tie: half a win each) or 0.  With wᵢⱼ the score of
    i against j and nᵢⱼ their battles, the log-likelihood is
        ℓ(θ) = Σ_{i<j} [wᵢⱼ log σ(θᵢ − θⱼ) + (nᵢⱼ − wᵢⱼ) log σ(θⱼ − θᵢ)]  −  the prior term below,
    maximised by Newton's method (`bradley_terry_fit`).  The maximum exists and is unique up to a common
    shift exactly when the battles are *strongly connected* (Ford 1957, Zermelo 1929): for every split
    of the players into two groups, each group scored (won or tied) against the other.  A witness that
    always wins (or never scores) breaks it: its maximum-likelihood strength is infinite.
    *Prior*: then, and only then (by default), every player is given `DEFAULT_PRIOR` = 1 virtual battle,
    a tie, against a reference player of strength 1 (θ = 0):
        ℓ_τ(θ) = ℓ(θ) + (τ/2) Σᵢ [log σ(θᵢ) + log σ(−θᵢ)],
    a proper, concave log-prior that shrinks log-strengths towards their mean by about as much as one
    drawn game would, and leaves well-measured players nearly untouched.  The result says so (`notes`).
    Pass `prior=` to force a value for every fit (0: plain maximum likelihood, refused when it does not
    exist).
    Ratings: rating = 1000 + 400·log₁₀ πᵢ = 1000 + 400·θᵢ/ln 10 (the Elo scale: 400 points = 10:1 odds),
    centred so that the players' mean rating is 1000, or shifted so that one anchor player has a given
    rating (`--anchor NAME=RATING`).
    Confidence intervals (`bradley_terry_bootstrap`, `ratings_compute`): resample the N battles with
    replacement R times (a multinomial draw of N over the distinct (pair, outcome) cells, which is the same
    thing), refit each replicate, and take the (1−level)/2 and (1+level)/2 quantiles of each player's
    replicate ratings, each replicate centred (or anchored) like the point estimate.  The replicates are
    fitted together, vectorised on an (R × players) array warm-started from the point estimate: chord
    iterations θ ← θ + A(θ̂)⁻¹∇ℓ_τ(θ) with the point fit's Hessian A(θ̂) (one matrix product per iteration
    for all replicates), and batched damped Newton (a Cholesky factorisation per replicate) for any
    replicate the chord iteration does not settle.  Converged to |Δθ| < 1e-10.

Forecasts (`brier_score`: Turing Trade's markets as forecasters of "the target is human")
    B = (1/n) Σ (fₜ − oₜ)² with a percentile bootstrap interval, and the skill 1 − B/B_ref against a
    reference forecast (the base rate, or each game's prior P(human)).

Outlier judges (`judge_outliers`, after FastChat's `outlier_detect`)
    For each judge, the consensus is the Bradley–Terry fit on every *other* judge's battles (all judges'
    leave-one-out fits are solved together, like bootstrap replicates).  Vote t of the judge had consensus
    probability qₜ of the outcome the judge chose.  Against the alternative "the judge votes against the
    consensus with probability λ", the likelihood ratio of vote t is
        Eₜ = 1 − λ + λ(1 − qₜ)/qₜ = 1 + λ(1 − 2qₜ)/qₜ        (a tie: Eₜ = 1),
    whose expectation under the consensus is 1, so Mₜ = E₁·…·Eₜ is a test martingale and, by Ville's
    inequality, P(supₜ Mₜ ≥ 1/α) ≤ α: a judge is flagged as soon as Mₜ ≥ 1/α, a valid sequential test
    however often it is looked at (defaults λ = ½, α = 0.05 → threshold 20).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components
from scipy.special import expit, log_expit
from scipy.stats import binomtest

DEFAULT_PRIOR = 1.0  # virtual battles (one tie) per player against θ = 0, used only when the MLE does not exist
SCALE = 400.0  # rating points per factor 10 of strength
CENTRE = 1000.0  # the players' mean rating (unless anchored)
WINNERS = {"a": 1.0, "b": 0.0, "tie": 0.5}


def _z(level: float) -> float:
    if not 0.0 < level < 1.0:
        raise ValueError("level must be between 0 and 1, e.g. 0.95")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


# --- proportions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Proportion:
    """k of n, the rate k/n (None when n = 0), its confidence interval and the exact test against p0."""

    successes: int
    n: int
    rate: float | None
    ci_low: float
    ci_high: float
    p_value: float | None
    method: str = "wilson"
    level: float = 0.95

    def as_dict(self) -> dict:
        return {"successes": self.successes, "n": self.n, "rate": self.rate, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "p_value": self.p_value, "method": self.method, "level": self.level}


def _check_counts(successes: int, n: int) -> tuple[int, int]:
    k, n = int(successes), int(n)
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    return k, n


def wilson_interval(successes: int, n: int, *, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval: (p̂ + z²/2n ± z√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n); (0, 1) when n = 0."""
    k, n = _check_counts(successes, n)
    if n == 0:
        return 0.0, 1.0
    z = _z(level)
    p = k / n
    denominator = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # exact at the ends (rounding would otherwise leave 1e-17 outside [0, 1])
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def bootstrap_interval(successes: int, n: int, *, level: float = 0.95, replicates: int = 10_000,
                       seed=None) -> tuple[float, float]:
    """Percentile bootstrap: quantiles (1∓level)/2 of k*/n, k* ~ Binomial(n, k/n); (0, 1) when n = 0."""
    k, n = _check_counts(successes, n)
    _z(level)
    if n == 0:
        return 0.0, 1.0
    draws = np.random.default_rng(seed).binomial(n, k / n, size=int(replicates)) / n
    low, high = np.quantile(draws, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high)


def binomial_test(successes: int, n: int, *, p0: float = 0.5, alternative: str = "two-sided") -> float | None:
    """Exact binomial test of p = p0: two-sided P = Σ_{i: P(X=i) ≤ P(X=k)} P(X=i), X ~ Bin(n, p0).
    None when n = 0 (no evidence either way)."""
    k, n = _check_counts(successes, n)
    if n == 0:
        return None
    return float(binomtest(k, n, p0, alternative=alternative).pvalue)


def proportion_estimate(successes: int, n: int, *, level: float = 0.95, method: str = "wilson", p0: float = 0.5,
                        replicates: int = 10_000, seed=None) -> Proportion:
    """k/n with its interval (method "wilson" or "bootstrap") and the exact binomial test against p0."""
    k, n = _check_counts(successes, n)
    if method == "wilson":
        low, high = wilson_interval(k, n, level=level)
    elif method == "bootstrap":
        low, high = bootstrap_interval(k, n, level=level, replicates=replicates, seed=seed)
    else:
        raise ValueError("method must be 'wilson' or 'bootstrap'")
    return Proportion(successes=k, n=n, rate=(k / n if n else None), ci_low=low, ci_high=high,
                      p_value=binomial_test(k, n, p0=p0), method=method, level=level)


@dataclass(frozen=True)
class BrierScore:
    """Mean Brier score of probability forecasts, its interval, and the skill against a reference."""

    n: int
    score: float | None
    ci_low: float | None
    ci_high: float | None
    reference: float | None
    skill: float | None
    level: float = 0.95

    def as_dict(self) -> dict:
        return {"n": self.n, "brier": self.score, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "reference_brier": self.reference, "skill": self.skill, "level": self.level}


def brier_score(forecasts, outcomes, *, reference=None, level: float = 0.95, replicates: int = 2000,
                seed=None) -> BrierScore:
    """B = (1/n) Σ (fₜ − oₜ)², fₜ ∈ [0, 1] the forecast probability of the event, oₜ ∈ {0, 1} what happened
    (0 is perfect, 0.25 is always saying ½).  Interval: percentile bootstrap over the n forecasts.
    reference: the forecast to beat, one number or one per item (default: the base rate ō, "climatology");
    B_ref = (1/n) Σ (rₜ − oₜ)², skill = 1 − B/B_ref (> 0: better than the reference; None when B_ref = 0).
    No forecasts: every figure None."""
    _z(level)
    f = np.asarray(forecasts, dtype=np.float64).ravel()
    o = np.asarray(outcomes, dtype=np.float64).ravel()
    if f.shape != o.shape:
        raise ValueError("one outcome per forecast")
    if f.size and (np.any((f < 0) | (f > 1)) or not np.all(np.isin(o, (0.0, 1.0)))):
        raise ValueError("forecasts must lie in [0, 1] and outcomes be 0 or 1")
    if f.size == 0:
        return BrierScore(n=0, score=None, ci_low=None, ci_high=None, reference=None, skill=None, level=level)
    errors = (f - o) ** 2
    rng = np.random.default_rng(seed)
    boot = errors[rng.integers(0, f.size, size=(int(replicates), f.size))].mean(axis=1)
    low, high = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2])
    r = np.broadcast_to(np.asarray(o.mean() if reference is None else reference, dtype=np.float64), o.shape)
    ref = float(np.mean((r - o) ** 2))
    score = float(errors.mean())
    return BrierScore(n=int(f.size), score=score, ci_low=float(low), ci_high=float(high), reference=ref,
                      skill=(1.0 - score / ref) if ref > 0 else None, level=level)


# --- battles --------------------------------------------------------------------------------------


class BattleError(ValueError):
    """A battle record that cannot be read; `index` is its 0-based position in the input."""

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.index = index


@dataclass
class Battles:
    """Battles between named players: a[k] met b[k] (indices into `names`); score[k] is a's score
    (1 win, ½ tie, 0 loss)."""

    names: list[str]
    a: np.ndarray
    b: np.ndarray
    score: np.ndarray

    def __post_init__(self):
        self.a = np.asarray(self.a, dtype=np.int64)
        self.b = np.asarray(self.b, dtype=np.int64)
        self.score = np.asarray(self.score, dtype=np.float64)
        if not (self.a.shape == self.b.shape == self.score.shape) or self.a.ndim != 1:
            raise BattleError("a, b and score must be one-dimensional arrays of one length")
        if len(self.a) and (min(self.a.min(), self.b.min()) < 0 or max(self.a.max(), self.b.max()) >= len(self.names)):
            raise BattleError("a player index is out of range")
        if np.any(self.a == self.b):
            raise BattleError("a player cannot battle itself", index=int(np.argmax(self.a == self.b)))
        if not np.all(np.isin(self.score, (0.0, 0.5, 1.0))):
            raise BattleError("a score must be 1 (win), 0.5 (tie) or 0 (loss)")

    def __len__(self) -> int:
        return len(self.a)

    @property
    def players(self) -> int:
        return len(self.names)

    def games(self) -> np.ndarray:
        """Battles played by each player."""
        return np.bincount(self.a, minlength=self.players) + np.bincount(self.b, minlength=self.players)

    def points(self) -> np.ndarray:
        """Score of each player (wins + ½ ties)."""
        return (np.bincount(self.a, weights=self.score, minlength=self.players)
                + np.bincount(self.b, weights=1.0 - self.score, minlength=self.players))


def battles_from_records(records: Iterable[Mapping]) -> Battles:
    """Battles from records {"a": name, "b": name, "winner": "a" | "b" | "tie"}; players are numbered in
    order of first appearance.  A bad record raises BattleError naming its position (`index`)."""
    names: list[str] = []
    index: dict[str, int] = {}
    a, b, score = [], [], []
    for position, record in enumerate(records):
        if not isinstance(record, Mapping):
            raise BattleError("a battle must be an object {\"a\": name, \"b\": name, \"winner\": \"a\"|\"b\"|\"tie\"}", position)
        missing = [key for key in ("a", "b", "winner") if key not in record]
        if missing:
            raise BattleError(f"missing {', '.join(repr(m) for m in missing)}", position)
        first, second, winner = record["a"], record["b"], record["winner"]
        for key, name in (("a", first), ("b", second)):
            if not isinstance(name, str) or not name.strip():
                raise BattleError(f"{key!r} must be a non-empty name", position)
        if first == second:
            raise BattleError(f"a player cannot battle itself ({first!r})", position)
        if winner not in WINNERS:
            raise BattleError(f"'winner' must be \"a\", \"b\" or \"tie\", not {winner!r}", position)
        for name in (first, second):
            if name not in index:
                index[name] = len(names)
                names.append(name)
        a.append(index[first])
        b.append(index[second])
        score.append(WINNERS[winner])
    return Battles(names=names, a=np.array(a, dtype=np.int64), b=np.array(b, dtype=np.int64),
                   score=np.array(score, dtype=np.float64))


@dataclass
class BattleCells:
    """Battles grouped by unordered pair (i < j) and outcome: the sufficient statistics of the fit."""

    players: int
    pair_i: np.ndarray  # (K,) first player of each pair
    pair_j: np.ndarray  # (K,)
    cell_pair: np.ndarray  # (C,) pair of each (pair, outcome) cell, sorted
    cell_score: np.ndarray  # (C,) score of pair_i in that cell
    cell_count: np.ndarray  # (C,) battles in that cell
    pair_start: np.ndarray  # (K,) first cell of each pair

    def totals(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(games, score of pair_i) per pair, for cell counts of shape (R, C)."""
        counts = np.asarray(counts, dtype=np.float64)
        n = np.add.reduceat(counts, self.pair_start, axis=1)
        w = np.add.reduceat(counts * self.cell_score, self.pair_start, axis=1)
        return n, w


def battle_cells(battles: Battles) -> BattleCells:
    """The battles' sufficient statistics: each unordered pair (i < j) and outcome for i (0, ½, 1) with its
    count, sorted by pair.  Resampling battles is a multinomial draw over these cells."""
    swap = battles.a > battles.b
    i = np.where(swap, battles.b, battles.a)
    j = np.where(swap, battles.a, battles.b)
    s = np.where(swap, 1.0 - battles.score, battles.score)
    p = battles.players
    code = (i * p + j) * 3 + (2 * s).astype(np.int64)  # outcome 0, 1 (tie) or 2
    cells, counts = np.unique(code, return_counts=True)
    pair_code = cells // 3
    pairs, pair_start = np.unique(pair_code, return_index=True)
    return BattleCells(players=p, pair_i=pairs // p, pair_j=pairs % p, cell_pair=np.searchsorted(pairs, pair_code),
                  cell_score=(cells % 3) / 2.0, cell_count=counts, pair_start=pair_start)


# --- Bradley–Terry ----------------------------------------------------------------------------------


def _strongly_connected(players: int, i, j, n_row, w_row) -> bool:
    """Ford's condition: the graph with an edge i→j whenever i scored against j is strongly connected."""
    if players <= 1:
        return True
    forward, backward = w_row > 0, (n_row - w_row) > 0
    src = np.concatenate([i[forward], j[backward]])
    dst = np.concatenate([j[forward], i[backward]])
    graph = sparse.csr_matrix((np.ones(len(src)), (src, dst)), shape=(players, players))
    return connected_components(graph, directed=True, connection="strong")[0] == 1


def _loglik(theta, i, j, n, w, prior):
    d = theta[:, i] - theta[:, j]
    value = (w * log_expit(d) + (n - w) * log_expit(-d)).sum(axis=1)
    return value + 0.5 * prior * (log_expit(theta) + log_expit(-theta)).sum(axis=1)


class _Model:
    """ℓ_τ's gradient and negated Hessian A = −∇²ℓ_τ for R rows at once (θ: (R, P); n, w: (R, K))."""

    def __init__(self, cells: BattleCells):
        p, k = cells.players, cells.pair_i.size
        self.p, self.i, self.j = p, cells.pair_i, cells.pair_j
        self.incidence = sparse.csr_matrix(
            (np.concatenate([np.ones(k), -np.ones(k)]),
             (np.concatenate([np.arange(k)] * 2), np.concatenate([self.i, self.j]))), shape=(k, p))
        self.touches = abs(self.incidence)
        self.off_ij, self.off_ji, self.diag = self.i * p + self.j, self.j * p + self.i, np.arange(p) * (p + 1)

    def gradient(self, theta, n, w, prior, s=None):
        """∂ℓ_τ/∂θᵢ = Σ_{pairs of i} ±(w − n·σ(θᵢ − θⱼ)) + (τ/2)(1 − 2σ(θᵢ))."""
        s = expit(theta[:, self.i] - theta[:, self.j]) if s is None else s
        scatter = np.asarray((self.incidence.T @ (w - n * s).T).T)
        return scatter + 0.5 * prior[:, None] * (1.0 - 2.0 * expit(theta))

    def hessian(self, theta, n, prior, s=None):
        """A = −∇²ℓ_τ: Aᵢⱼ = −nᵢⱼσ(1−σ), Aᵢᵢ = Σⱼ nᵢⱼσ(1−σ) + τσ(θᵢ)σ(−θᵢ); rows with τ = 0 get
        c·11ᵀ added (c = mean diagonal / P), which pins the free shift and leaves the step unchanged."""
        rows, p = theta.shape[0], self.p
        s = expit(theta[:, self.i] - theta[:, self.j]) if s is None else s
        v = n * s * (1.0 - s)
        hess = np.zeros((rows, p * p))
        hess[:, self.off_ij] = -v
        hess[:, self.off_ji] = -v
        hess[:, self.diag] = np.asarray((self.touches.T @ v.T).T) + prior[:, None] * expit(theta) * expit(-theta)
        hess = hess.reshape(rows, p, p)
        flat = prior == 0
        if flat.any():
            hess[flat] += (np.trace(hess[flat], axis1=1, axis2=2) / (p * p) + 1e-12)[:, None, None]
        return hess


def _solve(hess, grad):
    """Batched A⁻¹g.  By Cholesky and two batched triangular solves: OpenBLAS's threaded LU on many small
    matrices can be 100× slower on a busy machine; a failed factorisation falls back to least squares."""
    try:
        lower = np.linalg.cholesky(hess)
    except np.linalg.LinAlgError:
        return np.stack([np.linalg.lstsq(h, g, rcond=None)[0] for h, g in zip(hess, grad)])
    p = hess.shape[-1]
    y = np.empty_like(grad)
    for k in range(p):  # L y = g
        y[:, k] = (grad[:, k] - np.einsum("rj,rj->r", lower[:, k, :k], y[:, :k])) / lower[:, k, k]
    x = np.empty_like(grad)
    for k in range(p - 1, -1, -1):  # Lᵀ x = y
        x[:, k] = (y[:, k] - np.einsum("rj,rj->r", lower[:, k + 1:, k], x[:, k + 1:])) / lower[:, k, k]
    return x


def _newton(cells: BattleCells, n: np.ndarray, w: np.ndarray, prior: np.ndarray, theta0: np.ndarray | None = None,
            *, tol: float = 1e-10, max_iter: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Maximise ℓ_τ for R rows at once.  n, w: (R, K) games and pair_i's score; prior: (R,) τ per row.
    Returns (θ (R, P), converged (R,)).  Rows with τ = 0 are kept centred (Σθ = 0, the free shift);
    damped: a step that lowers ℓ_τ is halved until it does not."""
    model = _Model(cells)
    i, j = model.i, model.j
    rows = n.shape[0]
    theta = np.zeros((rows, cells.players)) if theta0 is None else np.array(theta0, dtype=np.float64, copy=True)
    flat = prior == 0
    converged = np.zeros(rows, dtype=bool)
    active = np.arange(rows)
    for _ in range(max_iter):
        if active.size == 0:
            break
        t, na, wa, pa = theta[active], n[active], w[active], prior[active]
        s = expit(t[:, i] - t[:, j])
        step = _solve(model.hessian(t, na, pa, s), model.gradient(t, na, wa, pa, s))
        before = _loglik(t, i, j, na, wa, pa)
        scale = np.ones(len(active))
        for _ in range(40):
            trial = t + scale[:, None] * step
            worse = _loglik(trial, i, j, na, wa, pa) < before - 1e-12 * (1.0 + np.abs(before))
            if not worse.any():
                break
            scale[worse] *= 0.5
        fa = flat[active]
        trial[fa] -= trial[fa].mean(axis=1, keepdims=True)
        theta[active] = trial
        done = np.max(np.abs(scale[:, None] * step), axis=1) < tol
        converged[active[done]] = True
        active = active[~done]
    return theta, converged


def _chord(cells: BattleCells, n: np.ndarray, w: np.ndarray, prior: np.ndarray, theta0: np.ndarray,
           inverse: np.ndarray, *, tol: float = 1e-10, max_iter: int = 60) -> np.ndarray:
    """Bootstrap replicates near the point fit θ̂: Newton's iteration with the point fit's Hessian for
    every row (the chord method), θ ← θ + A(θ̂)⁻¹∇ℓ_τ(θ): one matrix product per iteration instead of R
    factorisations, converging linearly at a rate set by how far a replicate's Hessian is from A(θ̂)
    (fast when every pair has many battles).  A row whose step stops shrinking, or that has not
    converged after max_iter, is finished by the damped Newton method."""
    model = _Model(cells)
    theta = np.array(theta0, dtype=np.float64, copy=True)
    rows = theta.shape[0]
    flat = prior == 0
    last = np.full(rows, np.inf)
    active = np.arange(rows)
    hard = np.zeros(rows, dtype=bool)
    for _ in range(max_iter):
        if active.size == 0:
            break
        t = theta[active]
        step = model.gradient(t, n[active], w[active], prior[active]) @ inverse
        size = np.max(np.abs(step), axis=1)
        bad = ~np.isfinite(size) | (size >= last[active])
        hard[active[bad]] = True
        keep = ~bad
        t = t[keep] + step[keep]
        fa = flat[active[keep]]
        t[fa] -= t[fa].mean(axis=1, keepdims=True)
        theta[active[keep]] = t
        last[active[keep]] = size[keep]
        active = active[keep][size[keep] >= tol]
    hard[active] = True
    if hard.any():
        theta[hard], _ = _newton(cells, n[hard], w[hard], prior[hard], theta0[hard])
    return theta


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
        notes.append("the battles split the players into groups never compared both ways, so maximum "
                     "likelihood cannot place the groups against each other")
    return notes


def _row_priors(cells: BattleCells, n: np.ndarray, w: np.ndarray, prior: float | None, base_pattern=None) -> np.ndarray:
    """τ per row: `prior` when given, else 0 where Ford's condition holds and DEFAULT_PRIOR where not.
    Rows whose pattern of zero cells equals `base_pattern` (known to hold) are not re-checked."""
    rows = n.shape[0]
    if prior is not None:
        return np.full(rows, float(prior))
    taus = np.zeros(rows)
    check = np.arange(rows)
    if base_pattern is not None:
        same = np.all((w > 0) == base_pattern[0], axis=1) & np.all((n - w > 0) == base_pattern[1], axis=1)
        check = check[~same]
    for r in check:
        if not _strongly_connected(cells.players, cells.pair_i, cells.pair_j, n[r], w[r]):
            taus[r] = DEFAULT_PRIOR
    return taus


def bradley_terry_fit(battles: Battles, *, prior: float | None = None) -> Fit:
    """Maximise ℓ_τ(θ) (module docstring) by damped Newton to |Δθ| < 1e-10; θ centred on mean 0.
    prior None: τ = 0 (plain maximum likelihood) when it exists, else DEFAULT_PRIOR, and `notes` says why.
    prior 0 on data whose maximum likelihood does not exist raises BattleError naming the players."""
    games, points = battles.games(), battles.points()
    if len(battles) == 0:
        return Fit(names=list(battles.names), theta=np.zeros(battles.players), prior=0.0, games=games,
                   points=points, notes=["no battles: nothing to rate"])
    if prior is not None and prior < 0:
        raise ValueError("prior must be >= 0")
    cells = battle_cells(battles)
    n, w = cells.totals(cells.cell_count[None, :])
    tau = _row_priors(cells, n, w, prior)
    notes = []
    if tau[0] > 0 and prior is None:
        notes = _degeneracy_notes(battles) + [
            f"regularised: every player was given a prior of {DEFAULT_PRIOR:g} virtual battle(s), a tie, "
            "against a reference player at the mean"]
    elif tau[0] == 0 and not _strongly_connected(cells.players, cells.pair_i, cells.pair_j, n[0], w[0]):
        raise BattleError("maximum likelihood does not exist: " + "; ".join(_degeneracy_notes(battles))
                          + " (give a prior > 0)")
    theta, _ = _newton(cells, n, w, tau)
    theta = theta[0] - theta[0].mean()
    return Fit(names=list(battles.names), theta=theta, prior=float(tau[0]), games=games, points=points, notes=notes)


def bradley_terry_bootstrap(battles: Battles, *, replicates: int = 1000, seed=None, prior: float | None = None,
                            fit: Fit | None = None, chunk: int | None = None,
                            progress: Callable[[int], None] | None = None) -> np.ndarray:
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
        tau = _row_priors(cells, n, w, prior, base) if prior is None and fit.prior == 0 else (
            np.full(rows, fit.prior) if prior is None else np.full(rows, float(prior)))
        theta = _chord(cells, n, w, tau, np.broadcast_to(fit.theta, (rows, p)), inverse)
        out[start:start + rows] = theta - theta.mean(axis=1, keepdims=True)
        if progress is not None:
            progress(rows)
    return out


def theta_to_rating(theta: np.ndarray, *, names: Sequence[str] | None = None,
                    anchor: tuple[str, float] | None = None) -> np.ndarray:
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
    return float(value) + rating - rating[..., k:k + 1]


@dataclass
class Rating:
    name: str
    rating: float
    ci_low: float | None
    ci_high: float | None
    battles: int
    points: float

    def as_dict(self) -> dict:
        return {"name": self.name, "rating": self.rating, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "battles": self.battles}


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


def ratings_compute(battles: Battles, *, replicates: int = 1000, seed=None, anchor: tuple[str, float] | None = None,
                    level: float = 0.95, prior: float | None = None,
                    progress: Callable[[int], None] | None = None) -> RatingTable:
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
        boot = theta_to_rating(bradley_terry_bootstrap(battles, replicates=replicates, seed=seed, prior=prior,
                                                       fit=fit, progress=progress), names=names, anchor=anchor)
        low, high = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2], axis=0)
    p = battles.players
    count = np.zeros((p, p))
    won = np.zeros((p, p))
    np.add.at(count, (battles.a, battles.b), 1)
    np.add.at(won, (battles.a, battles.b), battles.score)
    count, won = count + count.T, won + (count.T - won.T)
    with np.errstate(invalid="ignore", divide="ignore"):
        fraction = np.where(count > 0, won / np.where(count > 0, count, 1), np.nan)
    rows = [Rating(name=name, rating=float(rating[k]),
                   ci_low=None if low is None else float(low[k]), ci_high=None if high is None else float(high[k]),
                   battles=int(fit.games[k]), points=float(fit.points[k])) for k, name in enumerate(names)]
    rows.sort(key=lambda r: (-r.rating, r.name))
    return RatingTable(ratings=rows, prior=fit.prior, replicates=max(int(replicates), 0) if len(battles) else 0,
                       level=level, notes=fit.notes, win_fraction=fraction, battle_count=count, names=list(names))


# --- outlier judges ---------------------------------------------------------------------------------


@dataclass
class JudgeTest:
    judge: object
    votes: int
    agreement: float | None  # share of decisive votes that went the consensus's way (q > ½)
    e_value: float  # sup over t of the test martingale Mₜ
    flagged: bool
    flagged_at: int | None  # the vote (1-based) at which Mₜ first reached 1/α


def judge_outliers(battles: Battles, judges: Sequence, *, alpha: float = 0.05, weight: float = 0.5,
                   min_votes: int = 1) -> list[JudgeTest]:
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
        results.append(JudgeTest(
            judge=judge, votes=int(mine.size),
            agreement=float(np.mean(q[decisive] > 0.5)) if decisive.any() else None,
            e_value=float(martingale.max()), flagged=bool(hit.size), flagged_at=int(hit[0]) + 1 if hit.size else None))
    return results
