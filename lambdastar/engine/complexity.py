"""Lempel-Ziv complexity (Kaspar–Schuster) and cyclic movement patterns of a requested complexity.

The paper approximates the algorithmic complexity K(μ) of a Λ* environment by the Lempel-Ziv
(1976) complexity of the special objects' position sequence over one episode, e.g. the 5×5 pattern
``7 3 4 9 8`` repeated for ϑ = 20 iterations gives ``73498734987349873498`` with complexity 6.

* :func:`lz_complexity` — number of components in the LZ76 exhaustive history (Kaspar & Schuster
  1987), for any sequence of hashable tokens (a string is a sequence of characters).
* :func:`normalised_lz_complexity` — ``c · log_b(n) / n`` (b = alphabet size, 2 by default as in
  the reference code).
* :func:`complexity_band` — the complexities a cyclic pattern can have for ϑ iterations.
* :func:`cyclic_pattern` — a closed king walk on an m×n torus whose repetition over ϑ iterations
  has exactly the requested complexity.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from .paper.streams import new_stream, randint
from .paper.world import distance, geometry, move

__all__ = [
    "CyclicPattern",
    "complexity_band",
    "cyclic_pattern",
    "lz_complexity",
    "normalised_lz_complexity",
]


@njit(cache=True)
def lz76(seq, n):
    """Kaspar–Schuster LZ76 complexity of ``seq[:n]`` (integer tokens); ``ell`` is their ``l``."""
    if n <= 1:
        return n
    i, k, ell = 0, 1, 1
    c, k_max = 1, 1
    while True:
        if seq[i + k - 1] == seq[ell + k - 1]:
            k += 1
            if ell + k > n:
                c += 1
                break
        else:
            if k > k_max:
                k_max = k
            i += 1
            if i == ell:
                c += 1
                ell += k_max
                if ell + 1 > n:
                    break
                i, k, k_max = 0, 1, 1
            else:
                k = 1
    return c


def _tokens(seq: Sequence[Hashable] | str | np.ndarray) -> np.ndarray:
    if isinstance(seq, np.ndarray) and seq.dtype.kind in "iu":
        return seq.astype(np.int64, copy=False).ravel()
    codes: dict[Hashable, int] = {}
    return np.array([codes.setdefault(tok, len(codes)) for tok in seq], dtype=np.int64)


def lz_complexity(seq: Sequence[Hashable] | str | np.ndarray) -> int:
    """Lempel-Ziv (Kaspar–Schuster) complexity of a sequence: ``"0001101001000101"`` → 6."""
    tokens = _tokens(seq)
    return int(lz76(tokens, len(tokens)))


def normalised_lz_complexity(seq: Sequence[Hashable] | str | np.ndarray, alphabet_size: int = 2) -> float:
    """``c · log_b(n) / n``; 0 for an empty sequence (b = ``alphabet_size`` ≥ 2)."""
    if alphabet_size < 2:
        raise ValueError("alphabet_size must be ≥ 2")
    tokens = _tokens(seq)
    n = len(tokens)
    if n == 0:
        return 0.0
    if n == 1:
        return 1.0
    return lz_complexity(tokens) * math.log(n, alphabet_size) / n


def complexity_band(iterations: int, cells: int) -> tuple[int, int]:
    """(lowest, highest) complexity of a cyclic pattern repeated over ``iterations`` steps on a grid
    of ``cells`` cells, with a recurrent segment of 1 … ⌊ϑ/2⌋ cells (paper §4.2).

    A constant pattern gives 2 (1 when ϑ = 1); a segment of L distinct cells gives L + 1."""
    if iterations < 1 or cells < 1:
        raise ValueError("iterations and cells must be ≥ 1")
    if iterations == 1:
        return 1, 1
    return 2, min(iterations // 2, cells) + 1


# ---------------------------------------------------------------------------------------------
# Closed king walks ("bridges") of distinct cells on the torus, with pauses.


@njit(cache=True)
def _bridge(state, geo, length, cycle, used, cand):
    """Random closed king walk of ``length`` distinct cells into ``cycle``; False on a dead end."""
    start = randint(state, used.shape[0])
    cycle[0] = start
    used[:] = False
    used[start] = True
    cur = start
    for j in range(1, length):
        remaining = length - j
        count = 0
        for a in range(9):
            c = move(geo, cur, a)
            if not used[c] and distance(geo, c, start) <= remaining:
                cand[count] = c
                count += 1
        if count == 0:
            return False
        cur = cand[randint(state, count)]
        cycle[j] = cur
        used[cur] = True
    return True


@njit(cache=True)
def repeat_cycle(cycle, length, iterations, seq):
    for t in range(iterations):
        seq[t] = cycle[t % length]


@njit(cache=True)
def periodic_lz(cycle, length, iterations, seq):
    """LZ complexity of ``cycle`` repeated over ``iterations`` steps.  Only the first 2L+1 symbols
    are parsed: a component starting after the first period copies to the end of the sequence."""
    n = min(iterations, 2 * length + 1)
    repeat_cycle(cycle, length, n, seq)
    return lz76(seq, n)


@njit(cache=True)
def make_cycle(state, geo, iterations, target, cycle, seq, used, cand):
    """Draw a cycle whose repetition over ``iterations`` steps has LZ complexity ``target``.

    A closed walk of K−1 distinct cells repeats into a sequence of complexity exactly K.  Up to
    min(K−1, ⌊ϑ/2⌋−K+1) pauses (a cell held for one more step) are inserted at random places to
    vary the pattern's length and rhythm; they are kept only if the complexity is still K.
    Returns the cycle length, or −1 if no cycle was found (cannot happen inside
    :func:`complexity_band`).  ``seq`` needs ϑ cells of room, ``used`` one flag per grid cell."""
    if target <= 1:
        cycle[0] = randint(state, used.shape[0])
        return 1
    base = target - 1
    found = False
    for _ in range(200000):
        if _bridge(state, geo, base, cycle, used, cand):
            found = True
            break
    if not found:
        return -1
    pauses = randint(state, min(base, max(iterations // 2, 1) - base) + 1) if base > 1 else 0
    if pauses == 0:
        return base
    # Expand in place from the end: cell j is held 1 + extra[j] steps (extra counted in seq[:base]).
    seq[:base] = 0
    for _ in range(pauses):
        seq[randint(state, base)] += 1
    length = base + pauses
    w = length
    for j in range(base - 1, -1, -1):
        for _ in range(1 + seq[j]):
            w -= 1
            cycle[w] = cycle[j]
    if periodic_lz(cycle, length, iterations, seq) == target:
        return length
    # Undo: keep the first copy of each run.
    w = 0
    for j in range(length):
        if j == 0 or cycle[j] != cycle[j - 1]:
            cycle[w] = cycle[j]
            w += 1
    return base


@dataclass(frozen=True)
class CyclicPattern:
    cycle: np.ndarray  # the recurrent segment: 0-based cells, consecutive ones (and last→first) king-adjacent
    sequence: np.ndarray  # positions over the ϑ iterations (the cycle repeated)
    complexity: int  # LZ complexity of ``sequence``


def cyclic_pattern(
    complexity: int, iterations: int, width: int, height: int, seed: int = 0, index: int = 0
) -> CyclicPattern:
    """A movement pattern on a ``height``×``width`` torus whose position sequence over
    ``iterations`` steps has exactly the requested LZ ``complexity``; reproducible from
    (``seed``, ``index``)."""
    lo, hi = complexity_band(iterations, width * height)
    if width < 3 or height < 3:
        raise ValueError("the grid must be at least 3×3")
    if not lo <= complexity <= hi:
        raise ValueError(
            f"complexity {complexity} is outside the achievable band [{lo}, {hi}] "
            f"for {iterations} iterations on {width}×{height}"
        )
    cells = width * height
    cycle = np.empty(max(iterations, 1), dtype=np.int64)
    seq = np.empty(iterations, dtype=np.int64)
    state = new_stream(seed, 0, index)
    length = make_cycle(
        state,
        geometry(width, height),
        iterations,
        complexity,
        cycle,
        seq,
        np.zeros(cells, dtype=np.bool_),
        np.empty(9, dtype=np.int64),
    )
    if length < 1:
        raise RuntimeError("no cycle found")  # pragma: no cover - guarded by complexity_band
    repeat_cycle(cycle, length, iterations, seq)
    return CyclicPattern(cycle[:length].copy(), seq, int(lz76(seq, iterations)))
