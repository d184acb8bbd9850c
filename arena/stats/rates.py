"""Proportions (pass rates, accuracies) and forecasts: intervals, the exact binomial test, Brier scores.
Formulas: the package docstring (arena/stats/__init__.py) and each function's."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np


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
        return {
            "successes": self.successes,
            "n": self.n,
            "rate": self.rate,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "p_value": self.p_value,
            "method": self.method,
            "level": self.level,
        }


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


def bootstrap_interval(
    successes: int, n: int, *, level: float = 0.95, replicates: int = 10_000, seed=None
) -> tuple[float, float]:
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
    from scipy.stats import binomtest  # here: scipy.stats takes most of a second to import, a server rarely needs it

    return float(binomtest(k, n, p0, alternative=alternative).pvalue)


def proportion_estimate(
    successes: int,
    n: int,
    *,
    level: float = 0.95,
    method: str = "wilson",
    p0: float = 0.5,
    replicates: int = 10_000,
    seed=None,
) -> Proportion:
    """k/n with its interval (method "wilson" or "bootstrap") and the exact binomial test against p0."""
    k, n = _check_counts(successes, n)
    if method == "wilson":
        low, high = wilson_interval(k, n, level=level)
    elif method == "bootstrap":
        low, high = bootstrap_interval(k, n, level=level, replicates=replicates, seed=seed)
    else:
        raise ValueError("method must be 'wilson' or 'bootstrap'")
    return Proportion(
        successes=k,
        n=n,
        rate=(k / n if n else None),
        ci_low=low,
        ci_high=high,
        p_value=binomial_test(k, n, p0=p0),
        method=method,
        level=level,
    )


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
        return {
            "n": self.n,
            "brier": self.score,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "reference_brier": self.reference,
            "skill": self.skill,
            "level": self.level,
        }


def forecast_arrays(forecasts, outcomes) -> tuple[np.ndarray, np.ndarray]:
    """Forecasts in [0, 1] and their 0/1 outcomes as two float arrays of one shape (ValueError if not)."""
    f = np.asarray(forecasts, dtype=np.float64).ravel()
    o = np.asarray(outcomes, dtype=np.float64).ravel()
    if f.shape != o.shape:
        raise ValueError("one outcome per forecast")
    if f.size and (np.any((f < 0) | (f > 1)) or not np.all(np.isin(o, (0.0, 1.0)))):
        raise ValueError("forecasts must lie in [0, 1] and outcomes be 0 or 1")
    return f, o


def brier_score(
    forecasts, outcomes, *, reference=None, level: float = 0.95, replicates: int = 2000, seed=None
) -> BrierScore:
    """B = (1/n) Σ (fₜ − oₜ)², fₜ ∈ [0, 1] the forecast probability of the event, oₜ ∈ {0, 1} what happened
    (0 is perfect, 0.25 is always saying ½).  Interval: percentile bootstrap over the n forecasts.
    reference: the forecast to beat, one number or one per item (default: the base rate ō, "climatology");
    B_ref = (1/n) Σ (rₜ − oₜ)², skill = 1 − B/B_ref (> 0: better than the reference; None when B_ref = 0).
    No forecasts: every figure None."""
    _z(level)
    f, o = forecast_arrays(forecasts, outcomes)
    if f.size == 0:
        return BrierScore(n=0, score=None, ci_low=None, ci_high=None, reference=None, skill=None, level=level)
    errors = (f - o) ** 2
    rng = np.random.default_rng(seed)
    boot = errors[rng.integers(0, f.size, size=(int(replicates), f.size))].mean(axis=1)
    low, high = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2])
    r = np.broadcast_to(np.asarray(o.mean() if reference is None else reference, dtype=np.float64), o.shape)
    ref = float(np.mean((r - o) ** 2))
    score = float(errors.mean())
    return BrierScore(
        n=int(f.size),
        score=score,
        ci_low=float(low),
        ci_high=float(high),
        reference=ref,
        skill=(1.0 - score / ref) if ref > 0 else None,
        level=level,
    )
