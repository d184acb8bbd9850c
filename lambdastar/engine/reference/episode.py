"""One episode of the reference program: training phase, then the T test iterations."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grid import approach, move_field, set_field
from ..rng import rand31
from .choices import ls_choice, pick_among_max, q_move, woc_candidates, woc_target
from .learning import train
from .types import BID, BT, COOPQL, COOPSARSA, DICT, FR, IMIT, LS, ORACLE, QL, RANDOM, SARSA, TRAINING_EPISODES, WOC


@njit(cache=True)
def run_episode(  # noqa: C901  bit-exact kernel: one body in the reference program's order, which fixes the random draws
    st,
    exact,
    enabled,
    n,
    T,
    N,
    nb,
    row,
    col,
    P,
    E,
    starts,
    hid_start,
    Qq,
    Qs,
    Qcq,
    Qcs,
    field,
    F,
    A,
    pos,
    sa,
    aa,
    out,
    trace,
):
    """Simulate one episode for every enabled type; ``out[k]`` ← group score of type k.

    ``trace`` is a (T, 15, N) array (index 13 = Good, 14 = Evil) or an empty array.
    Returns nothing; all per-episode state is reset here.
    """
    S = n * n
    half = n // 2
    ntypes = 13
    do_trace = trace.shape[0] > 0
    # ---- reset per-episode state
    F[:] = 0.0
    A[:] = 0.0
    if enabled[QL]:
        Qq[:] = 2.0
    if enabled[SARSA]:
        Qs[:] = 2.0
    if enabled[COOPQL]:
        Qcq[:] = 2.0
    if enabled[COOPSARSA]:
        Qcs[:] = 2.0
    ge = np.zeros(2, dtype=np.int64)
    ge[0] = P[0]
    ge[1] = E[0]
    set_field(field, nb, P[0], E[0])
    # ---- RL training on this very episode, then Good/Evil sit on cell 1 (iteration-1 quirk)
    train(st, exact, enabled, n, T, N, nb, P, E, starts, Qq, Qs, Qcq, Qcs, field, ge, TRAINING_EPISODES, pos, sa, aa)
    move_field(field, nb, ge[0], ge[1], 1, 1)
    ge[0] = 1
    ge[1] = 1
    for k in range(ntypes):
        for i in range(N):
            pos[k, i] = starts[i]
    cand = np.zeros(S, dtype=np.int64)
    n_cand = 0
    sums = np.zeros(ntypes * N)  # reward sums: multiples of 0.5, exact
    highest_bid = -1.0
    bid_target = 1
    dict_target = 1
    hid = hid_start
    for t in range(1, T + 1):
        # ---- communication step (observations reflect the field before anyone moves)
        for i in range(N):
            if enabled[BID]:
                p = pos[BID, i]
                bid = field[nb[p, 0]]
                for k in range(1, 9):
                    v = field[nb[p, k]]
                    if v > bid:
                        bid = v
                if bid >= highest_bid:
                    highest_bid = bid
                    bid_target = ls_choice(st, exact, field, nb, p)
            if enabled[FR]:
                p = pos[FR, i]
                rmax = field[nb[p, 0]]
                rmin = rmax
                for k in range(1, 9):
                    v = field[nb[p, k]]
                    if v > rmax:
                        rmax = v
                    if v < rmin:
                        rmin = v
                f = 0.4 * (rmax + rmin)
                if f != 0.0:
                    for k in range(9):
                        c = nb[p, k]
                        F[c] = ((F[c] + field[c]) + f) / 3.0
            if enabled[WOC]:
                p = pos[WOC, i]
                for k in range(9):
                    c = nb[p, k]
                    r = field[c]
                    if r != 0.0:
                        A[c] = (A[c] + r) / 2.0
        if enabled[DICT]:
            dict_target = ls_choice(st, exact, field, nb, pos[DICT, 0])
        # ---- action step
        if enabled[WOC]:
            n_cand = woc_candidates(A, S, cand)
        pt = P[t]
        for i in range(N):
            if enabled[RANDOM]:
                pos[RANDOM, i] = nb[pos[RANDOM, i], rand31(st) % 9]
            if enabled[LS]:
                pos[LS, i] = ls_choice(st, exact, field, nb, pos[LS, i])
            if enabled[FR]:
                p = pos[FR, i]
                pos[FR, i] = nb[p, pick_among_max(st, exact, F, nb, p)]
            if enabled[WOC]:
                tgt = woc_target(st, exact, cand, n_cand)
                pos[WOC, i] = approach(nb, row, col, half, pos[WOC, i], tgt)
            if enabled[BID]:
                pos[BID, i] = approach(nb, row, col, half, pos[BID, i], bid_target)
            if enabled[DICT]:
                pos[DICT, i] = approach(nb, row, col, half, pos[DICT, i], dict_target)
            if enabled[BT]:
                pos[BT, i] = ls_choice(st, exact, field, nb, pos[BT, i])
            if enabled[ORACLE]:
                pos[ORACLE, i] = approach(nb, row, col, half, pos[ORACLE, i], pt)
            if enabled[IMIT]:
                hid = approach(nb, row, col, half, hid, pt)
                p = pos[IMIT, i]
                adjacent = False
                for k in range(9):
                    if nb[p, k] == hid:
                        adjacent = True
                if adjacent:
                    pos[IMIT, i] = hid
                else:
                    pos[IMIT, i] = ls_choice(st, exact, field, nb, p)
            off = S * (t - 1)
            if enabled[QL]:
                pos[QL, i] = q_move(st, exact, Qq, i, nb, pos[QL, i], off)
            if enabled[COOPQL]:
                pos[COOPQL, i] = q_move(st, exact, Qcq, 0, nb, pos[COOPQL, i], off)
            if enabled[SARSA]:
                pos[SARSA, i] = q_move(st, exact, Qs, i, nb, pos[SARSA, i], off)
            if enabled[COOPSARSA]:
                pos[COOPSARSA, i] = q_move(st, exact, Qcs, 0, nb, pos[COOPSARSA, i], off)
        # ---- Good and Evil move; rewards
        move_field(field, nb, ge[0], ge[1], pt, E[t])
        ge[0] = pt
        ge[1] = E[t]
        for k in range(ntypes):
            if enabled[k]:
                for i in range(N):
                    sums[k * N + i] += field[pos[k, i]]
        if do_trace:
            for k in range(ntypes):
                for i in range(N):
                    trace[t - 1, k, i] = pos[k, i]
            trace[t - 1, 13, 0] = pt
            trace[t - 1, 14, 0] = E[t]
    # ---- scores: per agent mean over T, then group mean over N (in this order)
    for k in range(ntypes):
        if enabled[k]:
            g = 0.0
            for i in range(N):
                g += sums[k * N + i] / T
            out[k] = g / N
        else:
            out[k] = 0.0
