"""Streaming summary of per-episode scores (memory flat in the number of episodes)."""

from __future__ import annotations

import math

import numpy as np


class RunningStats:
    """Mean as the original computes it (sum in episode order / W) plus Welford's variance."""

    def __init__(self, keep: bool = False):
        self.count = 0
        self.total = 0.0
        self._mean = 0.0
        self._m2 = 0.0
        self.kept: list[float] | None = [] if keep else None

    def extend(self, scores: np.ndarray) -> None:
        for x in np.asarray(scores, dtype=float).tolist():
            self.count += 1
            self.total += x
            delta = x - self._mean
            self._mean += delta / self.count
            self._m2 += delta * (x - self._mean)
            if self.kept is not None:
                self.kept.append(x)

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else math.nan

    @property
    def std(self) -> float:
        """Sample standard deviation (ddof = 1; 0 for a single episode)."""
        return math.sqrt(self._m2 / (self.count - 1)) if self.count > 1 else 0.0

    @property
    def sem(self) -> float:
        return self.std / math.sqrt(self.count) if self.count else math.nan
