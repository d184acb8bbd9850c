"""Toroidal square grid of the reference program: cells 1..S in row-major order.

Neighbourhood order (range 1, Moore, centre included): up-left, up, up-right, left, centre,
right, down-left, down, down-right; action a (1..9) moves to neighbourhood entry a.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .jit import helper_jit


def neighbourhood_table(n: int) -> np.ndarray:
    """``nb[c, k]`` = k-th neighbourhood cell of cell ``c`` (row 0 unused)."""
    S = n * n
    nb = np.zeros((S + 1, 9), dtype=np.int64)
    for c in range(1, S + 1):
        r, col = divmod(c - 1, n)
        k = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                nb[c, k] = ((r + dr) % n) * n + (col + dc) % n + 1
                k += 1
    return nb


def coordinates(n: int) -> tuple[np.ndarray, np.ndarray]:
    """1-based row and column of every cell (index 0 unused)."""
    c = np.arange(n * n + 1) - 1
    row = c // n + 1
    col = c % n + 1
    row[0] = col[0] = 0
    return row.astype(np.int64), col.astype(np.int64)


@helper_jit
def approach(nb, row, col, half, src, tgt):
    """One king step from ``src`` along a shortest toroidal path to ``tgt`` (reference rule)."""
    sr = row[src]
    tr = row[tgt]
    v = 0
    if tr > sr:
        v = 1 if tr - sr <= half else -1
    elif tr < sr:
        v = -1 if sr - tr <= half else 1
    sc = col[src]
    tc = col[tgt]
    h = 0
    if tc > sc:
        h = 1 if tc - sc <= half else -1
    elif tc < sc:
        h = -1 if sc - tc <= half else 1
    return nb[src, (v + 1) * 3 + h + 1]


@njit(cache=True)
def set_field(field, nb, good, evil):
    """Recompute the reward field from scratch for Good at ``good`` and Evil at ``evil``."""
    field[:] = 0.0
    field[good] = 0.5
    field[evil] = -0.5
    for k in range(9):
        field[nb[good, k]] += 0.5
    for k in range(9):
        field[nb[evil, k]] -= 0.5


@helper_jit
def move_field(field, nb, old_good, old_evil, good, evil):
    """Same result as :func:`set_field`, touching only the cells that can be non-zero."""
    for k in range(9):
        field[nb[old_good, k]] = 0.0
        field[nb[old_evil, k]] = 0.0
    field[good] = 0.5
    field[evil] = -0.5
    for k in range(9):
        field[nb[good, k]] += 0.5
    for k in range(9):
        field[nb[evil, k]] -= 0.5


def reward_field(n: int, good: int, evil: int) -> np.ndarray:
    """The reward value of every cell (index 0 unused) — convenience for tests and tools."""
    field = np.zeros(n * n + 1)
    set_field(field, neighbourhood_table(n), good, evil)
    return field
