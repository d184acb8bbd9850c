"""Toroidal m×n grid geometry and the reward rule of the ``paper`` rule set (Numba-compiled).

Cells are numbered 0 … m·n−1 in row-major order (the paper numbers them from 1): cell ``c`` is in
row ``c // width`` and column ``c % width``; rows and columns wrap.  Distance is the toroidal
Chebyshev (king-move) distance, so "d < 2" is the 3×3 Moore neighbourhood.

Actions 0…8 are the paper's actions 1…9: up-left, up, up-right, left, stay, right, down-left,
down, down-right ("up" is row − 1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

STAY = 4


@njit(cache=True, inline="always")
def torus_delta(a, b, size):
    """Smallest |a − b| around a ring of ``size``."""
    d = abs(a - b) % size
    return min(d, size - d)


@njit(cache=True, inline="always")
def distance(c1, c2, width, height):
    """Toroidal Chebyshev distance between two cells."""
    dr = torus_delta(c1 // width, c2 // width, height)
    dc = torus_delta(c1 % width, c2 % width, width)
    return max(dr, dc)


@njit(cache=True, inline="always")
def offset(cell, dr, dc, width, height):
    """The cell ``dr`` rows and ``dc`` columns away (wrapping)."""
    r = (cell // width + dr) % height
    c = (cell % width + dc) % width
    return r * width + c


@njit(cache=True, inline="always")
def move(cell, action, width, height):
    """Cell reached by ``action`` (0…8) from ``cell``."""
    return offset(cell, action // 3 - 1, action % 3 - 1, width, height)


@njit(cache=True, inline="always")
def _toward(src, dst, size):
    d = (dst - src) % size
    if d == 0:
        return 0
    return 1 if d <= size // 2 else -1


@njit(cache=True, inline="always")
def approach(src, dst, width, height):
    """Action of one king step along a shortest toroidal path from ``src`` to ``dst``
    (ties at exactly half the ring go down/right)."""
    vr = _toward(src // width, dst // width, height)
    vc = _toward(src % width, dst % width, width)
    return (vr + 1) * 3 + (vc + 1)


@njit(cache=True, inline="always")
def cell_reward(cell, good, evil, width, height):
    """Paper §4.1.2: 1/(d⊕+1)·[d⊕<2] − 1/(d⊖+1)·[d⊖<2]."""
    return good_part(cell, good, width, height) - good_part(cell, evil, width, height)


@njit(cache=True, inline="always")
def good_part(cell, obj, width, height):
    """1/(d+1) if the toroidal distance d to ``obj`` is below 2, else 0."""
    d = distance(cell, obj, width, height)
    if d == 0:
        return 1.0
    if d == 1:
        return 0.5
    return 0.0


@njit(cache=True)
def window(cell, k, width, height, out):
    """Write the (2k+1)² cells of ``cell``'s range-k Moore neighbourhood into ``out`` (row-major,
    centre included); return their count."""
    i = 0
    for dr in range(-k, k + 1):
        for dc in range(-k, k + 1):
            out[i] = offset(cell, dr, dc, width, height)
            i += 1
    return i


def observation(cell: int, good: int, evil: int, k: int, width: int, height: int):
    """(cells, rewards) an agent on ``cell`` observes with range ``k`` (Python helper for tests/tools)."""
    cells = np.empty((2 * k + 1) ** 2, dtype=np.int64)
    window(cell, k, width, height, cells)
    rewards = np.array([cell_reward(c, good, evil, width, height) for c in cells])
    return cells, rewards


@njit(cache=True)
def group_rewards(pos, count, good, evil, width, height, coordination, out):
    """Each agent's reward on its cell ``pos[j]``; with ``coordination`` (paper §6.1) Good pays
    only when two or more agents of the group are in its neighbourhood (d⊕ < 2).  Returns the sum."""
    near = 0
    if coordination:
        for j in range(count):
            if distance(pos[j], good, width, height) < 2:
                near += 1
    pays = (not coordination) or near >= 2
    total = 0.0
    for j in range(count):
        r = -good_part(pos[j], evil, width, height)
        if pays:
            r += good_part(pos[j], good, width, height)
        out[j] = r
        total += r
    return total
