"""The non-learning agent types of the ``paper`` rule set, one episode at a time (Numba).

Every agent observes, at iteration t, the rewards of the (2k+1)² cells of its range-k Moore
neighbourhood with Good and Evil where they stand (correct from the first iteration), the group
communicates, every agent moves one king step, Good and Evil take their next pattern step, and
each agent is paid the reward of its cell (paper §4.1.1 steps 2–4).

Type codes are positions in ``AGENT_TYPES``: random 0, ls 1, fr 2, woc 3, bid 4, dict 5, bt 6,
oracle 7, imit 8.  "Local search" (ls) picks, among the observed cells of highest reward, one at
random and steps towards it (onto it when k = 1); when all observed rewards are equal it takes a
random action (paper §5.2.1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .streams import randint
from .world import cell_reward, distance, group_rewards, move, step

RANDOM, LS, FR, WOC, BID, DICT, BT, ORACLE, IMIT = range(9)


@njit(cache=True, inline="always")
def pick_max(state, vals, n):
    """Index of a uniformly chosen maximum of ``vals[:n]``; −1 when all n values are equal."""
    best = vals[0]
    for i in range(1, n):
        if vals[i] > best:
            best = vals[i]
    ties = 0
    for i in range(n):
        if vals[i] == best:
            ties += 1
    if ties == n:
        return -1
    r = randint(state, ties)
    for i in range(n):
        if vals[i] == best:
            if r == 0:
                return i
            r -= 1
    return -1  # unreachable


@njit(cache=True, inline="always")
def choose_cell(state, geo, cell, vals, n):
    """Local-search target from observed ``vals`` over ``cell``'s window (random step if flat)."""
    idx = pick_max(state, vals, n)
    if idx < 0:
        return move(geo, cell, randint(state, 9))
    return geo[1][cell, idx]


@njit(cache=True, inline="always")
def observe(geo, cell, good, evil, vals):
    """Observed rewards of ``cell``'s window into ``vals``; returns the window's size."""
    win = geo[1]
    n = win.shape[1]
    for i in range(n):
        vals[i] = cell_reward(geo, win[cell, i], good, evil)
    return n


@njit(cache=True, inline="always")
def ls_target(state, geo, cell, good, evil, vals):
    n = observe(geo, cell, good, evil, vals)
    target = choose_cell(state, geo, cell, vals, n)
    best = vals[0]
    for i in range(1, n):
        best = max(best, vals[i])
    return target, best


@njit(cache=True)
def stigmergy(state, geo, pos, agents, g0, e0, sgamma, fake, vals, ties):
    """Paper Algorithm 2: every agent, in order, sets the fake rewards of its neighbourhood to
    R + r̂ with r̂ = γ·rmax + (1−γ)·rmin (later agents overwrite shared cells); then each agent
    does local search on the fake rewards of its own neighbourhood."""
    for j in range(agents):
        n = observe(geo, pos[j], g0, e0, vals)
        rmax = vals[0]
        rmin = vals[0]
        for i in range(1, n):
            rmax = max(rmax, vals[i])
            rmin = min(rmin, vals[i])
        rhat = sgamma * rmax + (1.0 - sgamma) * rmin
        for i in range(n):
            fake[geo[1][pos[j], i]] = vals[i] + rhat
    for j in range(agents):
        n = geo[1].shape[1]
        for i in range(n):
            vals[i] = fake[geo[1][pos[j], i]]
        ties[j] = choose_cell(state, geo, pos[j], vals, n)
    for j in range(agents):
        pos[j] = step(geo, pos[j], ties[j])


@njit(cache=True)
def crowd(state, geo, pos, agents, g0, e0, avg, vals, ties):
    """Wisdom of the crowd (reference type): every agent averages the non-zero rewards it sees
    into a shared map, A[c] ← (A[c] + r)/2; every agent steps towards a best cell of the map."""
    for j in range(agents):
        n = observe(geo, pos[j], g0, e0, vals)
        for i in range(n):
            if vals[i] != 0.0:
                c = geo[1][pos[j], i]
                avg[c] = (avg[c] + vals[i]) * 0.5
    best = avg[0]
    for c in range(1, avg.shape[0]):
        best = max(best, avg[c])
    count = 0
    for c in range(avg.shape[0]):
        if avg[c] == best:
            ties[count] = c
            count += 1
    for j in range(agents):
        pos[j] = step(geo, pos[j], ties[randint(state, count)])


@njit(cache=True)
def tree(state, geo, pos, agents, g0, e0, vals, best_val, best_cell):
    """Binary-tree collective (the tree the reference code meant to build): agent j's children are
    2j+1 and 2j+2; bottom-up, every node adopts the best target among itself and its subtrees;
    each agent steps towards its adopted target (leaves do plain local search)."""
    for j in range(agents):
        best_cell[j], best_val[j] = ls_target(state, geo, pos[j], g0, e0, vals)
    for j in range(agents - 1, -1, -1):
        for c in (2 * j + 1, 2 * j + 2):
            if c < agents and best_val[c] > best_val[j]:
                best_val[j] = best_val[c]
                best_cell[j] = best_cell[c]
    for j in range(agents):
        pos[j] = step(geo, pos[j], best_cell[j])


@njit(cache=True)
def plain_episode(state, kind, geo, good, evil, starts, iterations, agents, k,
                  coordination, sgamma, pos, rew, vals, fvals, icells, fmap):
    """Score (mean reward per agent per iteration) of one episode of a non-learning type."""
    cells = fmap.shape[0]
    pos[:agents] = starts[:agents]
    fmap[:] = 0.0
    hidden = randint(state, cells) if kind == IMIT else 0
    total = 0.0
    for t in range(1, iterations + 1):
        g0, e0, g1 = good[t - 1], evil[t - 1], good[t]
        if kind == RANDOM:
            for j in range(agents):
                pos[j] = move(geo, pos[j], randint(state, 9))
        elif kind == LS:
            for j in range(agents):
                target, _ = ls_target(state, geo, pos[j], g0, e0, vals)
                pos[j] = step(geo, pos[j], target)
        elif kind == FR:
            stigmergy(state, geo, pos, agents, g0, e0, sgamma, fmap, vals, icells)
        elif kind == WOC:
            crowd(state, geo, pos, agents, g0, e0, fmap, vals, icells)
        elif kind == BID:
            high = -np.inf
            goal = pos[0]
            for j in range(agents):
                target, bid = ls_target(state, geo, pos[j], g0, e0, vals)
                if bid >= high:
                    high = bid
                    goal = target
            for j in range(agents):
                pos[j] = step(geo, pos[j], goal)
        elif kind == DICT:
            goal, _ = ls_target(state, geo, pos[0], g0, e0, vals)
            for j in range(agents):
                pos[j] = step(geo, pos[j], goal)
        elif kind == BT:
            tree(state, geo, pos, agents, g0, e0, vals, fvals, icells)
        elif kind == ORACLE:
            for j in range(agents):
                pos[j] = step(geo, pos[j], g1)
        else:  # IMIT
            hidden = step(geo, hidden, g1)
            for j in range(agents):
                if distance(geo, pos[j], hidden) <= k:
                    pos[j] = step(geo, pos[j], hidden)
                else:
                    target, _ = ls_target(state, geo, pos[j], g0, e0, vals)
                    pos[j] = step(geo, pos[j], target)
        total += group_rewards(geo, pos, agents, g1, evil[t], coordination, rew)
    return total / (agents * iterations)
