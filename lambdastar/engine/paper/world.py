"""Toroidal m×n grid geometry and the reward rule of the ``paper`` rule set (Numba-compiled).

Cells are numbered 0 … m·n−1 in row-major order (the paper numbers them from 1): cell ``c`` is in
row ``c // width`` and column ``c % width``; rows and columns wrap.  Distance is the toroidal
Chebyshev (king-move) distance, so "d < 2" is the 3×3 Moore neighbourhood.

Actions 0…8 are the paper's actions 1…9: up-left, up, up-right, left, stay, right, down-left,
down, down-right ("up" is row − 1).

The kernels take a *geometry* tuple of lookup tables built once per run by :func:`geometry`
(no integer division in the inner loops):
``(moves[S, 9], window[S, (2k+1)²], row[S], col[S], ring_rows[m], ring_cols[n], width, height)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

STAY = 4


def geometry(width: int, height: int, k: int = 1):
    """Lookup tables of an m×n torus (height m, width n) with observation range ``k``."""
    cells = np.arange(width * height)
    row, col = cells // width, cells % width

    def shifted(dr, dc):
        return ((row + dr) % height) * width + (col + dc) % width

    moves = np.stack([shifted(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)], axis=1)
    win = np.stack([shifted(dr, dc) for dr in range(-k, k + 1) for dc in range(-k, k + 1)], axis=1)
    ring_rows = np.array([min(d, height - d) for d in range(height)])
    ring_cols = np.array([min(d, width - d) for d in range(width)])
    i32 = np.int32
    return (
        moves.astype(i32),
        win.astype(i32),
        row.astype(i32),
        col.astype(i32),
        ring_rows.astype(i32),
        ring_cols.astype(i32),
        width,
        height,
    )


@njit(cache=True, inline="always")
def distance(geo, c1, c2):
    """Toroidal Chebyshev distance between two cells."""
    row, col, ring_rows, ring_cols = geo[2], geo[3], geo[4], geo[5]
    return max(ring_rows[abs(row[c1] - row[c2])], ring_cols[abs(col[c1] - col[c2])])


@njit(cache=True, inline="always")
def move(geo, cell, action):
    """Cell reached by ``action`` (0…8) from ``cell``."""
    return geo[0][cell, action]


@njit(cache=True, inline="always")
def _toward(src, dst, size):
    d = dst - src
    if d < 0:
        d += size
    if d == 0:
        return 0
    return 1 if d <= size // 2 else -1


@njit(cache=True, inline="always")
def approach(geo, src, dst):
    """Action of one king step along a shortest toroidal path from ``src`` to ``dst``
    (ties at exactly half the ring go down/right)."""
    row, col = geo[2], geo[3]
    vr = _toward(row[src], row[dst], geo[7])
    vc = _toward(col[src], col[dst], geo[6])
    return (vr + 1) * 3 + (vc + 1)


@njit(cache=True, inline="always")
def step(geo, src, dst):
    """Cell after one approach step from ``src`` towards ``dst``."""
    return geo[0][src, approach(geo, src, dst)]


@njit(cache=True, inline="always")
def good_part(geo, cell, obj):
    """1/(d+1) if the toroidal distance d to ``obj`` is below 2, else 0."""
    d = distance(geo, cell, obj)
    if d == 0:
        return 1.0
    if d == 1:
        return 0.5
    return 0.0


@njit(cache=True, inline="always")
def cell_reward(geo, cell, good, evil):
    """Paper §4.1.2: 1/(d⊕+1)·[d⊕<2] − 1/(d⊖+1)·[d⊖<2]."""
    return good_part(geo, cell, good) - good_part(geo, cell, evil)


@njit(cache=True, inline="always")
def group_rewards(geo, pos, count, good, evil, coordination, out):
    """Each agent's reward on its cell ``pos[j]``; with ``coordination`` (paper §6.1) Good pays
    only when two or more agents of the group are in its neighbourhood (d⊕ < 2).  Returns the sum."""
    near = 0
    if coordination:
        for j in range(count):
            if distance(geo, pos[j], good) < 2:
                near += 1
    pays = (not coordination) or near >= 2
    total = 0.0
    for j in range(count):
        r = -good_part(geo, pos[j], evil)
        if pays:
            r += good_part(geo, pos[j], good)
        out[j] = r
        total += r
    return total


@njit(cache=True, inline="always")
def _add_object(field, moves, obj, value):
    field[obj] += value
    for a in range(9):
        field[moves[obj, a]] += value


@njit(cache=True)
def set_field(field, moves, good, evil):
    """``field[c]`` ← :func:`cell_reward` of every cell c for Good on ``good``, Evil on ``evil``
    (all values are multiples of 0.5, so the sums are exact)."""
    field[:] = 0.0
    _add_object(field, moves, good, 0.5)
    _add_object(field, moves, evil, -0.5)


@njit(cache=True, inline="always")
def shift_field(field, moves, old_good, old_evil, good, evil):
    """Same as :func:`set_field` after Good/Evil moved, touching only the cells that can change."""
    for a in range(9):
        field[moves[old_good, a]] = 0.0
        field[moves[old_evil, a]] = 0.0
    _add_object(field, moves, good, 0.5)
    _add_object(field, moves, evil, -0.5)


@njit(cache=True, inline="always")
def shift_object(field, moves, old, new, value):
    """One object's part of the rewards (``value`` on its cell and its 8 neighbours, twice on its
    cell) moved from ``old`` to ``new``."""
    for a in range(9):
        field[moves[old, a]] = 0.0
    _add_object(field, moves, new, value)


def window_actions(k: int) -> np.ndarray:
    """``wact[i]``: the action of one king step from a cell towards entry i of its range-k window
    (the window fits in the grid, so no wrap-around ties are possible)."""
    return np.array(
        [(int(np.sign(dr)) + 1) * 3 + int(np.sign(dc)) + 1 for dr in range(-k, k + 1) for dc in range(-k, k + 1)],
        dtype=np.int32,
    )


def observation(cell: int, good: int, evil: int, k: int, width: int, height: int):
    """(cells, rewards) an agent on ``cell`` observes with range ``k``: the (2k+1)² cells of its
    Moore neighbourhood in row-major order, centre included (Python helper for tests/tools)."""
    geo = geometry(width, height, k)
    cells = geo[1][cell].astype(np.int64)
    rewards = np.array([cell_reward(geo, int(c), good, evil) for c in cells])
    return cells, rewards
