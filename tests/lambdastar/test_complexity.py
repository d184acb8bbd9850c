"""Lempel-Ziv complexity and cyclic patterns of a requested complexity."""

import math

import numpy as np
import pytest

from lambdastar.engine.complexity import (
    complexity_band,
    cyclic_pattern,
    lz_complexity,
    normalised_lz_complexity,
)


@pytest.mark.parametrize(
    "seq, expected",
    [
        ("73498734987349873498", 6),  # the paper's 5×5 example (§4.2): 7|3|4|9|8|7349873498…
        ([7, 3, 4, 9, 8] * 4, 6),  # same as cell numbers
        ("0001101001000101", 6),  # Lempel & Ziv 1976: 0|001|10|100|1000|101
        ("aaaa", 2),  # a|aaa
        ("abab", 3),  # a|b|ab
        ("abcabcabc", 4),  # a|b|c|abcabc
        ("a", 1),
        ("", 0),
    ],
)
def test_lz_complexity_of_known_sequences(seq, expected):
    assert lz_complexity(seq) == expected


def test_normalised_complexity():
    assert normalised_lz_complexity("0001101001000101") == pytest.approx(6 * 4 / 16)
    assert normalised_lz_complexity("73498734987349873498", alphabet_size=5) == pytest.approx(6 * math.log(20, 5) / 20)
    assert normalised_lz_complexity("") == 0.0


def test_complexity_band():
    assert complexity_band(20, 25) == (2, 11)  # segments of 1 … 10 cells
    assert complexity_band(1, 9) == (1, 1)
    assert complexity_band(40, 9) == (2, 10)  # at most 9 distinct cells on 3×3


def _closed_king_walk(cycle, width, height):
    for a, b in zip(cycle, np.roll(cycle, -1)):
        dr = abs(a // width - b // width)
        dc = abs(a % width - b % width)
        if min(dr, height - dr) > 1 or min(dc, width - dc) > 1:
            return False
    return True


@pytest.mark.parametrize("width, height, iterations", [(10, 10, 50), (5, 5, 20), (3, 3, 40), (7, 4, 30)])
def test_patterns_hit_every_requested_complexity(width, height, iterations):
    lo, hi = complexity_band(iterations, width * height)
    lengths = set()
    for k in range(lo, hi + 1):
        for index in range(8):
            p = cyclic_pattern(k, iterations, width, height, seed=7, index=index)
            assert p.complexity == k == lz_complexity(p.sequence)
            assert 1 <= len(p.cycle) <= max(iterations // 2, 1)
            assert _closed_king_walk(p.cycle, width, height)
            assert np.array_equal(p.sequence, np.resize(p.cycle, iterations))
            lengths.add(len(p.cycle))
    assert len(lengths) > hi - lo  # the generator varies the segment length (pauses)


def test_pattern_outside_band_is_refused():
    with pytest.raises(ValueError, match="outside the achievable band"):
        cyclic_pattern(12, 20, 5, 5)
