"""The LPP2 target's bootstrap interval (bench.lpp_latency.target_ratio_ci): line p99 over 2 x bare p99 +
commit p99, with its samples resampled; no services needed."""

import random

import pytest

from bench.lpp_latency import target_ratio_ci


def sample(n: int, scale: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [scale * rng.lognormvariate(0, 0.5) for _ in range(n)]


@pytest.mark.slow
def test_the_interval_holds_the_ratio_and_narrows_with_more_lines():
    bare, commit = sample(800, 1.0, 1), sample(800, 1.0, 2)
    lines = sample(800, 3.0, 3)  # three times the bare's scale: about the target (2 x bare + commit)
    low, high = target_ratio_ci(lines, bare, commit)
    assert low < 1.0 < high
    wide = high - low
    low, high = target_ratio_ci(sample(8000, 3.0, 3), sample(8000, 1.0, 1), sample(8000, 1.0, 2))
    assert low < 1.0 < high and high - low < wide / 2


def test_lines_twice_as_slow_are_plainly_over_the_target():
    bare, commit = sample(800, 1.0, 1), sample(800, 1.0, 2)
    low, high = target_ratio_ci(sample(800, 6.0, 3), bare, commit)
    assert 1.5 < low <= high < 2.6


def test_constant_samples_give_an_exact_interval():
    assert target_ratio_ci([0.004] * 50, [0.001] * 50, [0.002] * 50) == pytest.approx((1.0, 1.0))
