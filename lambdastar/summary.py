"""Mean, sample standard deviation, SEM and Student-t 95 % interval; pooling of such summaries."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

# Two-sided 95 % Student-t quantiles for 1..30 degrees of freedom; beyond that, the table's
# tail (40, 60, 120) and the normal 1.96.
_T95 = [
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
]


def t95(df: int) -> float:
    if df < 1:
        return math.nan
    if df <= 30:
        return _T95[df - 1]
    return 2.021 if df <= 40 else 2.000 if df <= 60 else 1.980 if df <= 120 else 1.960


@dataclass(frozen=True)
class Summary:
    n: int
    mean: float
    std: float

    @property
    def sem(self) -> float:
        return self.std / math.sqrt(self.n) if self.n else math.nan

    @property
    def half_width(self) -> float:
        return t95(self.n - 1) * self.sem if self.n > 1 else 0.0

    @property
    def ci_low(self) -> float:
        return self.mean - self.half_width

    @property
    def ci_high(self) -> float:
        return self.mean + self.half_width

    def as_dict(self) -> dict:
        return {
            "n": self.n,
            "mean": self.mean,
            "std": self.std,
            "sem": self.sem,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
        }


def summarise(scores: Iterable[float]) -> Summary:
    """Mean as the engine sums it (in episode order / n), ddof = 1 deviation (0 for one score)."""
    values = [float(x) for x in scores]
    n = len(values)
    if n == 0:
        return Summary(0, math.nan, math.nan)
    mean = sum(values) / n
    var = sum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
    return Summary(n, mean, math.sqrt(var))


def pool(parts: Iterable[Summary]) -> Summary:
    """The summary of the union of several samples, from their (n, mean, std) alone."""
    parts = [p for p in parts if p.n]
    n = sum(p.n for p in parts)
    if n == 0:
        return Summary(0, math.nan, math.nan)
    mean = sum(p.n * p.mean for p in parts) / n
    ss = sum((p.n - 1) * p.std**2 + p.n * (p.mean - mean) ** 2 for p in parts)
    return Summary(n, mean, math.sqrt(ss / (n - 1)) if n > 1 else 0.0)
