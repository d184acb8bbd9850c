"""Calibration of probability forecasts: how often the event happened among forecasts near p.

Forecasts fₜ ∈ [0, 1] are put in `bins` equal-width bins ([0, 1/k), ..., [(k−1)/k, 1]); for each bin:
n, the mean forecast, the observed frequency k/n of the event, and its Wilson interval. A calibrated
forecaster's observed frequencies lie near their mean forecasts (on the diagonal of a reliability
diagram). No Django (the import-linter contract on arena.stats).
"""

from dataclasses import dataclass

import numpy as np

from arena.stats.rates import forecast_arrays, wilson_interval


@dataclass(frozen=True)
class CalibrationBin:
    low: float
    high: float
    n: int
    mean_forecast: float | None
    observed: float | None
    ci_low: float
    ci_high: float

    def as_dict(self) -> dict:
        return {
            "low": self.low,
            "high": self.high,
            "n": self.n,
            "mean_forecast": self.mean_forecast,
            "observed": self.observed,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
        }


def calibration_bins(forecasts, outcomes, *, bins: int = 5, level: float = 0.95) -> list[CalibrationBin]:
    """One CalibrationBin per bin (empty bins included: n 0, interval [0, 1])."""
    if bins < 1:
        raise ValueError("bins must be at least 1")
    f, o = forecast_arrays(forecasts, outcomes)
    index = np.minimum((f * bins).astype(int), bins - 1)
    table = []
    for b in range(bins):
        mine = index == b
        n, k = int(mine.sum()), int(o[mine].sum())
        low, high = wilson_interval(k, n, level=level)
        table.append(
            CalibrationBin(
                low=b / bins,
                high=(b + 1) / bins,
                n=n,
                mean_forecast=float(f[mine].mean()) if n else None,
                observed=k / n if n else None,
                ci_low=low,
                ci_high=high,
            )
        )
    return table
