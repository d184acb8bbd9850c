"""The non-learning agent types of the ``paper`` rule set, one episode at a time (Numba).

Every agent observes, at iteration t, the rewards of the (2k+1)² cells of its range-k Moore
neighbourhood with Good and Evil where they stand (correct from the first iteration), the group
communicates, every agent moves one king step, Good and Evil take their next pattern step, and
each agent is paid the reward of its cell (paper §4.1.1 steps 2–4).

Type codes are positions in ``AGENT_TYPES``: random 0, ls 1, fr 2, woc 3, bid 4, dict 5, bt 6,
oracle 7, imit 8.  "Local search" (ls) picks, among the observed cells of highest reward, one at
random and steps towards it (onto it when k = 1); when all observed rewards are equal it takes a
random action (paper §5.2.1).

Speed: the reward of every cell is kept in a ``field`` array updated incrementally when Good and
Evil move (:func:`~.world.shift_field`), so an observation is a gather through the window table;
a step towards an observed cell is ``moves[cell, wact[i]]`` (window entry i); the kernels take
plain arrays, not the geometry tuple.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from .streams import randint
from .world import _toward, set_field, shift_field, shift_object

RANDOM, LS, FR, WOC, BID, DICT, BT, ORACLE, IMIT = range(9)


@njit(cache=True, inline="always")
def step_to(moves, row, col, width, height, src, dst):
    """Cell after one king step from ``src`` along a shortest toroidal path to ``dst``
    (:func:`~.world.step` with plain arrays)."""
    vr = _toward(row[src], row[dst], height)
    vc = _toward(col[src], col[dst], width)
    return moves[src, (vr + 1) * 3 + (vc + 1)]


@njit(cache=True, inline="always")
def within(row, col, ring_rows, ring_cols, c1, c2, k):
    """Toroidal Chebyshev distance between c1 and c2 is ≤ k."""
    return (ring_rows[abs(row[c1] - row[c2])] <= k) and (ring_cols[abs(col[c1] - col[c2])] <= k)


def _selection_tables():
    """``POP[m]``: number of set bits of the 9-bit mask m; ``SELECT[m, r]``: position of its
    r-th set bit (``SELECT[511, r] = r``: a flat window picks action r)."""
    pop = np.zeros(512, dtype=np.int8)
    select = np.zeros((512, 9), dtype=np.int8)
    for m in range(512):
        bits = [i for i in range(9) if m >> i & 1]
        pop[m] = len(bits)
        select[m, : len(bits)] = bits
    return pop, select


POP, SELECT = _selection_tables()


@njit(cache=True, inline="always")
def mask9(v0, v1, v2, v3, v4, v5, v6, v7, v8):
    """(maximum, 9-bit mask of the values equal to it) of nine values.
    Branch-free: a max tree (short dependency chains) and compares."""
    best = max(max(max(v0, v1), max(v2, v3)), max(max(v4, v5), max(max(v6, v7), v8)))
    mask = (
        ((1 if v0 == best else 0) | (2 if v1 == best else 0)) | ((4 if v2 == best else 0) | (8 if v3 == best else 0))
    ) | (
        ((16 if v4 == best else 0) | (32 if v5 == best else 0))
        | ((64 if v6 == best else 0) | ((128 if v7 == best else 0) | (256 if v8 == best else 0)))
    )
    return best, mask


@njit(cache=True, inline="always")
def max_mask9(values, table, cell):
    """(maximum, mask of the maxima) of ``values[table[cell, 0..8]]`` (nine independent loads)."""
    return mask9(
        values[table[cell, 0]],
        values[table[cell, 1]],
        values[table[cell, 2]],
        values[table[cell, 3]],
        values[table[cell, 4]],
        values[table[cell, 5]],
        values[table[cell, 6]],
        values[table[cell, 7]],
        values[table[cell, 8]],
    )


@njit(cache=True, inline="always")
def row_mask9(q, i, s):
    """Mask of the maxima of the row ``q[i, s, 0..8]`` (a Q-table row)."""
    return mask9(
        q[i, s, 0], q[i, s, 1], q[i, s, 2], q[i, s, 3], q[i, s, 4], q[i, s, 5], q[i, s, 6], q[i, s, 7], q[i, s, 8]
    )[1]


@njit(cache=True, inline="always")
def max_of(values, lo, hi):
    """max(values[lo:hi]) (hi > lo), exact: four independent running maxima (short chains)."""
    b0 = values[lo]
    b1 = b0
    b2 = b0
    b3 = b0
    c = lo + 1
    while c + 4 <= hi:
        b0 = max(b0, values[c])
        b1 = max(b1, values[c + 1])
        b2 = max(b2, values[c + 2])
        b3 = max(b3, values[c + 3])
        c += 4
    while c < hi:
        b0 = max(b0, values[c])
        c += 1
    return max(max(b0, b1), max(b2, b3))


@njit(cache=True, inline="always")
def pick9(state, values, win, cell):
    """Range 1: (window index, maximum) of a uniformly chosen maximum of ``values`` over
    ``cell``'s 3×3 window, with exactly one draw ``randint(ties)``; a flat window (nine ties)
    thus picks a uniformly random action, as local search does (the window is in action order)."""
    best, mask = max_mask9(values, win, cell)
    return SELECT[mask, randint(state, POP[mask])], best


@njit(cache=True)
def pick_in_window(state, values, win, cell, n):
    """Window index of a uniformly chosen maximum of ``values`` over ``cell``'s window (n > 9:
    range ≥ 2), one draw; −1, without a draw, when all n values are equal."""
    best = values[win[cell, 0]]
    for i in range(1, n):
        best = max(best, values[win[cell, i]])
    ties = 0
    for i in range(n):
        ties += values[win[cell, i]] == best
    out = -1
    if ties < n:
        r = randint(state, ties)
        i = 0
        while True:
            if values[win[cell, i]] == best:
                if r == 0:
                    out = i
                    break
                r -= 1
            i += 1
    return out


def ls_move(state, values, moves, win, wact, cell):
    """Local search on ``values`` from ``cell``: the cell after one step (a random step if the
    window is flat).  ``wact`` is None for range 1 (compiled to the branch-free :func:`pick9`),
    else the window's step actions (:func:`~.world.window_actions`).  Numba only."""
    raise NotImplementedError("numba-compiled code only")


def ls_target(state, values, moves, win, wact, cell):
    """(target cell, best observed reward) of local search from ``cell`` (see :func:`ls_move`)."""
    raise NotImplementedError("numba-compiled code only")


# The range-1 and range-k code paths are separate compilations (chosen by the type of ``wact``):
# a rarely taken branch in a hot loop slows the loop down several times.
@overload(ls_move, inline="always")
def _ls_move(state, values, moves, win, wact, cell):
    if isinstance(wact, types.NoneType):

        def impl(state, values, moves, win, wact, cell):
            return moves[cell, pick9(state, values, win, cell)[0]]
    else:

        def impl(state, values, moves, win, wact, cell):
            idx = pick_in_window(state, values, win, cell, win.shape[1])
            if idx < 0:
                return moves[cell, randint(state, 9)]
            return moves[cell, wact[idx]]

    return impl


@overload(ls_target, inline="always")
def _ls_target(state, values, moves, win, wact, cell):
    if isinstance(wact, types.NoneType):

        def impl(state, values, moves, win, wact, cell):
            idx, best = pick9(state, values, win, cell)
            return win[cell, idx], best
    else:

        def impl(state, values, moves, win, wact, cell):
            n = win.shape[1]
            idx = pick_in_window(state, values, win, cell, n)
            if idx < 0:
                target = moves[cell, randint(state, 9)]
            else:
                target = win[cell, idx]
            best = values[win[cell, 0]]
            for i in range(1, n):
                best = max(best, values[win[cell, i]])
            return target, best

    return impl


# --------------------------------------------------------------------------------------------
# One function per type: a small loop body compiles to much faster code than one function with
# every type's branch in it (measured 3-4x on local search).  ``tabs`` is the tuple
# (moves, win, wact, row, col, ring_rows, ring_cols, width, height); every function has the
# same signature and returns the episode's score.


@njit(cache=True, inline="always")
def _begin(pos, starts, agents, field, moves, good, evil):
    for j in range(agents):
        pos[j] = starts[j]
    set_field(field, moves, good[0], evil[0])


@njit(cache=True)
def pay_episode(hist, moves, field, gfield, agents, good, evil, iterations, coordination):
    """Score of an episode from the agents' cells ``hist[t − 1, j]`` after iteration t: the mean
    reward per agent per iteration.

    Rewards are paid out of the hot loops (code for rare cases slows them down a lot).  With
    ``coordination`` (paper §6.1) Good pays only when two or more agents are in its neighbourhood:
    ``gfield`` holds Good's part of the rewards (> 0 exactly there), taken back otherwise.  All
    values are multiples of 0.5, so the sums are exact."""
    set_field(field, moves, good[0], evil[0])
    if coordination:
        gfield[:] = 0.0
        shift_object(gfield, moves, good[0], good[0], 0.5)
    total = 0.0
    for t in range(1, iterations + 1):
        shift_field(field, moves, good[t - 1], evil[t - 1], good[t], evil[t])
        for j in range(agents):
            total += field[hist[t - 1, j]]
        if coordination:
            shift_object(gfield, moves, good[t - 1], good[t], 0.5)
            near = 0
            part = 0.0
            for j in range(agents):
                v = gfield[hist[t - 1, j]]
                near += v > 0.0
                part += v
            if near < 2:
                total -= part
    return total / (agents * iterations)


@njit(cache=True, inline="always")
def _record(hist, pos, agents, t, field, moves, good, evil):
    """End of iteration t: remember the agents' cells; Good and Evil step (the field follows)."""
    for j in range(agents):
        hist[t - 1, j] = pos[j]
    shift_field(field, moves, good[t - 1], evil[t - 1], good[t], evil[t])


@njit(cache=True)
def random_episode(
    state,
    tabs,
    good,
    evil,
    starts,
    iterations,
    agents,
    k,
    coordination,
    sgamma,
    pos,
    best_val,
    cells_tmp,
    fmap,
    field,
    gfield,
    hist,
):
    moves = tabs[0]
    for j in range(agents):  # a loop: a slice copy compiles numba's shape-error text
        pos[j] = starts[j]
    for t in range(1, iterations + 1):
        for j in range(agents):
            pos[j] = moves[pos[j], randint(state, 9)]
        for j in range(agents):
            hist[t - 1, j] = pos[j]
    return pay_episode(hist, moves, field, gfield, agents, good, evil, iterations, coordination)


@njit(cache=True)
def ls_episode(
    state,
    tabs,
    good,
    evil,
    starts,
    iterations,
    agents,
    k,
    coordination,
    sgamma,
    pos,
    best_val,
    cells_tmp,
    fmap,
    field,
    gfield,
    hist,
):
    moves, win, wact = tabs[0], tabs[1], tabs[2]
    _begin(pos, starts, agents, field, moves, good, evil)
    for t in range(1, iterations + 1):
        for j in range(agents):
            pos[j] = ls_move(state, field, moves, win, wact, pos[j])
        _record(hist, pos, agents, t, field, moves, good, evil)
    return pay_episode(hist, moves, field, gfield, agents, good, evil, iterations, coordination)


@njit(cache=True)
def fr_episode(
    state,
    tabs,
    good,
    evil,
    starts,
    iterations,
    agents,
    k,
    coordination,
    sgamma,
    pos,
    best_val,
    cells_tmp,
    fmap,
    field,
    gfield,
    hist,
):
    """Paper Algorithm 2: every agent, in order, sets the fake rewards of its window to R + r̂
    with r̂ = γ·rmax + (1−γ)·rmin (later agents overwrite shared cells); then each agent does
    local search on the fake rewards of its own window.  The fake map persists in the episode."""
    moves, win, wact = tabs[0], tabs[1], tabs[2]
    n = win.shape[1]
    _begin(pos, starts, agents, field, moves, good, evil)
    fmap[:] = 0.0
    for t in range(1, iterations + 1):
        for j in range(agents):
            p = pos[j]
            rmax = field[win[p, 0]]
            rmin = rmax
            for i in range(1, n):
                v = field[win[p, i]]
                rmax = max(rmax, v)
                rmin = min(rmin, v)
            rhat = sgamma * rmax + (1.0 - sgamma) * rmin
            for i in range(n):
                c = win[p, i]
                fmap[c] = field[c] + rhat
        for j in range(agents):
            pos[j] = ls_move(state, fmap, moves, win, wact, pos[j])
        _record(hist, pos, agents, t, field, moves, good, evil)
    return pay_episode(hist, moves, field, gfield, agents, good, evil, iterations, coordination)


@njit(cache=True)
def woc_episode(
    state,
    tabs,
    good,
    evil,
    starts,
    iterations,
    agents,
    k,
    coordination,
    sgamma,
    pos,
    best_val,
    cells_tmp,
    fmap,
    field,
    gfield,
    hist,
):
    """Wisdom of the crowd: every agent averages the non-zero rewards it sees into a shared map,
    A[c] ← (A[c] + r)/2; every agent steps towards a best cell of the map (chosen at random)."""
    moves, win, _, row, col, _, _, width, height = tabs
    n = win.shape[1]
    cells = fmap.shape[0]
    _begin(pos, starts, agents, field, moves, good, evil)
    fmap[:] = 0.0
    for t in range(1, iterations + 1):
        for j in range(agents):
            p = pos[j]
            for i in range(n):
                c = win[p, i]
                v = field[c]
                fmap[c] = (fmap[c] + v) * 0.5 if v != 0.0 else fmap[c]
        best = max_of(fmap, 0, cells)  # branch-free: the maximum, then its cells in order
        count = 0
        for c in range(cells):
            cells_tmp[count] = c
            count += fmap[c] == best
        for j in range(agents):
            pos[j] = step_to(moves, row, col, width, height, pos[j], cells_tmp[randint(state, count)])
        _record(hist, pos, agents, t, field, moves, good, evil)
    return pay_episode(hist, moves, field, gfield, agents, good, evil, iterations, coordination)


@njit(cache=True)
def bid_episode(
    state,
    tabs,
    good,
    evil,
    starts,
    iterations,
    agents,
    k,
    coordination,
    sgamma,
    pos,
    best_val,
    cells_tmp,
    fmap,
    field,
    gfield,
    hist,
):
    """Bidding: every agent bids its best observed reward; all step towards the target of the
    last highest bidder."""
    moves, win, wact, row, col, _, _, width, height = tabs
    _begin(pos, starts, agents, field, moves, good, evil)
    for t in range(1, iterations + 1):
        high = -np.inf
        goal = pos[0]
        for j in range(agents):
            target, bid = ls_target(state, field, moves, win, wact, pos[j])
            if bid >= high:
                high = bid
                goal = target
        for j in range(agents):
            pos[j] = step_to(moves, row, col, width, height, pos[j], goal)
        _record(hist, pos, agents, t, field, moves, good, evil)
    return pay_episode(hist, moves, field, gfield, agents, good, evil, iterations, coordination)


@njit(cache=True)
def dict_episode(
    state,
    tabs,
    good,
    evil,
    starts,
    iterations,
    agents,
    k,
    coordination,
    sgamma,
    pos,
    best_val,
    cells_tmp,
    fmap,
    field,
    gfield,
    hist,
):
    """Dictator: agent 0 does local search; everybody steps towards its target."""
    moves, win, wact, row, col, _, _, width, height = tabs
    _begin(pos, starts, agents, field, moves, good, evil)
    for t in range(1, iterations + 1):
        goal, _ = ls_target(state, field, moves, win, wact, pos[0])
        for j in range(agents):
            pos[j] = step_to(moves, row, col, width, height, pos[j], goal)
        _record(hist, pos, agents, t, field, moves, good, evil)
    return pay_episode(hist, moves, field, gfield, agents, good, evil, iterations, coordination)


@njit(cache=True)
def bt_episode(
    state,
    tabs,
    good,
    evil,
    starts,
    iterations,
    agents,
    k,
    coordination,
    sgamma,
    pos,
    best_val,
    cells_tmp,
    fmap,
    field,
    gfield,
    hist,
):
    """Binary-tree collective (the tree the reference code meant to build): agent j's children
    are 2j+1 and 2j+2; bottom-up, every node adopts the best target among itself and its
    subtrees; each agent steps towards its adopted target (leaves do plain local search)."""
    moves, win, wact, row, col, _, _, width, height = tabs
    _begin(pos, starts, agents, field, moves, good, evil)
    for t in range(1, iterations + 1):
        for j in range(agents):
            cells_tmp[j], best_val[j] = ls_target(state, field, moves, win, wact, pos[j])
        for j in range(agents - 1, -1, -1):
            for c in (2 * j + 1, 2 * j + 2):
                if c < agents and best_val[c] > best_val[j]:
                    best_val[j] = best_val[c]
                    cells_tmp[j] = cells_tmp[c]
        for j in range(agents):
            pos[j] = step_to(moves, row, col, width, height, pos[j], cells_tmp[j])
        _record(hist, pos, agents, t, field, moves, good, evil)
    return pay_episode(hist, moves, field, gfield, agents, good, evil, iterations, coordination)


@njit(cache=True)
def oracle_episode(
    state,
    tabs,
    good,
    evil,
    starts,
    iterations,
    agents,
    k,
    coordination,
    sgamma,
    pos,
    best_val,
    cells_tmp,
    fmap,
    field,
    gfield,
    hist,
):
    """Oracle: every agent steps towards Good's next cell."""
    moves, _, _, row, col, _, _, width, height = tabs
    for j in range(agents):  # a loop: a slice copy compiles numba's shape-error text
        pos[j] = starts[j]
    for t in range(1, iterations + 1):
        for j in range(agents):
            pos[j] = step_to(moves, row, col, width, height, pos[j], good[t])
        for j in range(agents):
            hist[t - 1, j] = pos[j]
    return pay_episode(hist, moves, field, gfield, agents, good, evil, iterations, coordination)


@njit(cache=True)
def imit_episode(
    state,
    tabs,
    good,
    evil,
    starts,
    iterations,
    agents,
    k,
    coordination,
    sgamma,
    pos,
    best_val,
    cells_tmp,
    fmap,
    field,
    gfield,
    hist,
):
    """Imitation: a hidden oracle (random start) chases Good; an agent that sees it (distance ≤ k)
    steps towards it, otherwise does local search."""
    moves, win, wact, row, col, ring_rows, ring_cols, width, height = tabs
    _begin(pos, starts, agents, field, moves, good, evil)
    hidden = randint(state, moves.shape[0])
    for t in range(1, iterations + 1):
        hidden = step_to(moves, row, col, width, height, hidden, good[t])
        for j in range(agents):
            p = pos[j]
            if within(row, col, ring_rows, ring_cols, p, hidden, k):
                pos[j] = step_to(moves, row, col, width, height, p, hidden)
            else:
                pos[j] = ls_move(state, field, moves, win, wact, p)
        _record(hist, pos, agents, t, field, moves, good, evil)
    return pay_episode(hist, moves, field, gfield, agents, good, evil, iterations, coordination)


@njit(cache=True)
def plain_episode(
    state,
    kind,
    tabs,
    good,
    evil,
    starts,
    iterations,
    agents,
    k,
    coordination,
    sgamma,
    pos,
    best_val,
    cells_tmp,
    fmap,
    field,
    gfield,
    hist,
):
    """Score (mean reward per agent per iteration) of one episode of a non-learning type."""
    args = (
        good,
        evil,
        starts,
        iterations,
        agents,
        k,
        coordination,
        sgamma,
        pos,
        best_val,
        cells_tmp,
        fmap,
        field,
        gfield,
        hist,
    )
    if kind == RANDOM:
        return random_episode(state, tabs, *args)
    if kind == LS:
        return ls_episode(state, tabs, *args)
    if kind == FR:
        return fr_episode(state, tabs, *args)
    if kind == WOC:
        return woc_episode(state, tabs, *args)
    if kind == BID:
        return bid_episode(state, tabs, *args)
    if kind == DICT:
        return dict_episode(state, tabs, *args)
    if kind == BT:
        return bt_episode(state, tabs, *args)
    if kind == ORACLE:
        return oracle_episode(state, tabs, *args)
    return imit_episode(state, tabs, *args)
