"""One episode's environment in the ``paper`` rule set (Numba-compiled).

From the environment stream of (seed, episode) alone:

* the target complexity K(μ) = K_min + (episode mod (K_max − K_min + 1)) — consecutive episodes
  sweep the band evenly, as Definition 3 asks of an environment set;
* Good's and Evil's cyclic patterns: two *different* closed king walks whose repetition over ϑ
  iterations both have LZ complexity exactly K (paper §4.2), started on different cells;
* their realised paths under the collision rule (paper §4.1.1): when both head for the same cell,
  one of them, chosen at random, moves there and the other keeps its old cell.  If the contested
  cell is the one an object is already standing on (it pauses), the occupant keeps it.  A blocked
  object retries the same pattern step next iteration (its pattern is delayed by one step), so its
  moves stay king moves;
* the agents' N distinct start cells (shared by all agent types: paired comparisons).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..complexity import lz76, make_cycle, repeat_cycle
from .streams import ENVIRONMENT_STREAM, new_stream, randint
from .world import geometry


@njit(cache=True)
def target_complexity(episode, k_min, k_max):
    return k_min + episode % (k_max - k_min + 1)


@njit(cache=True)
def _sequences_equal(a, b, n):
    for i in range(n):
        if a[i] != b[i]:
            return False
    return True


@njit(cache=True)
def distinct_cells(state, cells, count, out):
    """``count`` distinct uniform cells in [0, cells) into ``out``."""
    if count * 4 <= cells:
        i = 0
        while i < count:
            c = randint(state, cells)
            fresh = True
            for j in range(i):
                if out[j] == c:
                    fresh = False
                    break
            if fresh:
                out[i] = c
                i += 1
    else:
        perm = np.arange(cells)
        for i in range(count):
            j = i + randint(state, cells - i)
            perm[i], perm[j] = perm[j], perm[i]
            out[i] = perm[i]


@njit(cache=True)
def realise_paths(state, cyc_g, len_g, cyc_e, len_e, iterations, collide, good, evil):
    """Good's and Evil's positions at iterations 0…ϑ under the collision rule; returns the number
    of collisions."""
    g = cyc_g[len_g - 1]
    e = cyc_e[len_e - 1]
    good[0] = g
    evil[0] = e
    pg = 0
    pe = 0
    collisions = 0
    for t in range(1, iterations + 1):
        tg = cyc_g[pg]
        te = cyc_e[pe]
        blocked_g = False
        blocked_e = False
        if collide and tg == te:
            collisions += 1
            if tg == g:
                blocked_e = True
            elif te == e:
                blocked_g = True
            elif randint(state, 2) == 0:
                blocked_e = True
            else:
                blocked_g = True
        if blocked_g:
            tg = g
        else:
            pg = (pg + 1) % len_g
        if blocked_e:
            te = e
        else:
            pe = (pe + 1) % len_e
        g = tg
        e = te
        good[t] = g
        evil[t] = e
    return collisions


@njit(cache=True)
def build_world(seed, episode, geo, iterations, agents, k_min, k_max, collide, good, evil, starts, work, used):
    """Fill ``good``/``evil`` (ϑ+1 positions) and ``starts`` (N cells); return K(μ).
    ``work`` is :func:`world_work`'s scratch, ``used`` one bool per cell."""
    cells = used.shape[0]
    state = new_stream(seed, ENVIRONMENT_STREAM, episode)
    target = target_complexity(episode, k_min, k_max)
    cyc_g, cyc_e, seq_g, seq_e, cand = work[0], work[1], work[2], work[3], work[4]
    len_g = make_cycle(state, geo, iterations, target, cyc_g, seq_g, used, cand)
    repeat_cycle(cyc_g, len_g, iterations, seq_g)
    len_e = 0
    for _ in range(10000):
        len_e = make_cycle(state, geo, iterations, target, cyc_e, seq_e, used, cand)
        repeat_cycle(cyc_e, len_e, iterations, seq_e)
        if cyc_e[len_e - 1] != cyc_g[len_g - 1] and not _sequences_equal(seq_g, seq_e, iterations):
            break
    realise_paths(state, cyc_g, len_g, cyc_e, len_e, iterations, collide, good, evil)
    distinct_cells(state, cells, agents, starts)
    return target


def world_work(iterations: int) -> np.ndarray:
    """Scratch rows for :func:`build_world`."""
    return np.zeros((5, max(iterations, 9)), dtype=np.int64)


def episode_world(
    seed: int,
    episode: int,
    width: int,
    height: int,
    iterations: int,
    agents: int,
    k_min: int,
    k_max: int,
    collide: bool = True,
):
    """Python view of one episode's environment: (K, good path, evil path, start cells)."""
    good = np.empty(iterations + 1, dtype=np.int64)
    evil = np.empty(iterations + 1, dtype=np.int64)
    starts = np.empty(agents, dtype=np.int64)
    k = build_world(
        seed,
        episode,
        geometry(width, height),
        iterations,
        agents,
        k_min,
        k_max,
        collide,
        good,
        evil,
        starts,
        world_work(iterations),
        np.zeros(width * height, dtype=np.bool_),
    )
    return int(k), good, evil, starts


def planned_complexity(path: np.ndarray) -> int:
    """LZ complexity of positions 1…ϑ of a path (the part the pattern generator targets)."""
    seq = np.ascontiguousarray(path[1:], dtype=np.int64)
    return int(lz76(seq, len(seq)))
