"""RL training phase of the reference program (ql, coopql, sarsa, coopsarsa).

100 training episodes on the very test episode (same Good/Evil path and start cells); greedy
choices with random tie-breaks over Q-tables initialised to 2.0, virtual reward 10 × cell value,
Q-learning bootstrapping on the state of the new cell at *iteration 1* (reference bug), and the
exact interleaving of §7.12 of the spec.
"""

from __future__ import annotations

from numba import njit

from ..grid import move_field
from .choices import q_choice
from .types import ALPHA, COOPQL, COOPSARSA, GAMMA, QL, SARSA


@njit(cache=True)
def _row_max(Q, s):
    m = Q[s, 0]
    for a in range(1, 9):
        if Q[s, a] > m:
            m = Q[s, a]
    return m


@njit(cache=True)
def train(st, exact, enabled, n, T, N, nb, P, E, starts, Qq, Qs, Qcq, Qcs, field, ge, n_train,
          pos, sa, aa):
    """Run the training episodes; ``pos``/``sa``/``aa`` are (13, N) scratch arrays.

    ``ge`` holds Good/Evil's current cells (the field's state) and is updated.
    """
    S = n * n
    do_ql = enabled[QL]
    do_cql = enabled[COOPQL]
    do_sa = enabled[SARSA]
    do_csa = enabled[COOPSARSA]
    if not (do_ql or do_cql or do_sa or do_csa):
        return
    for _ in range(n_train):
        for i in range(N):
            pos[QL, i] = starts[i]
            pos[COOPQL, i] = starts[i]
            pos[SARSA, i] = starts[i]
            pos[COOPSARSA, i] = starts[i]
        for t in range(1, T + 1):
            off = S * (t - 1)
            for i in range(N):
                if do_sa:
                    s = pos[SARSA, i] + off
                    a = q_choice(st, exact, Qs[i], s)
                    sa[SARSA, i] = s
                    aa[SARSA, i] = a
                    pos[SARSA, i] = nb[pos[SARSA, i], a]
                if do_csa:
                    s = pos[COOPSARSA, i] + off
                    a = q_choice(st, exact, Qcs, s)
                    sa[COOPSARSA, i] = s
                    aa[COOPSARSA, i] = a
                    pos[COOPSARSA, i] = nb[pos[COOPSARSA, i], a]
            for i in range(N):
                if do_ql:
                    s = pos[QL, i] + off
                    a = q_choice(st, exact, Qq[i], s)
                    sa[QL, i] = s
                    aa[QL, i] = a
                    pos[QL, i] = nb[pos[QL, i], a]
                if do_cql:
                    s = pos[COOPQL, i] + off
                    a = q_choice(st, exact, Qcq, s)
                    sa[COOPQL, i] = s
                    aa[COOPQL, i] = a
                    pos[COOPQL, i] = nb[pos[COOPQL, i], a]
            move_field(field, nb, ge[0], ge[1], P[t], E[t])
            ge[0] = P[t]
            ge[1] = E[t]
            for i in range(N):
                if do_sa:
                    Q = Qs[i]
                    p2 = pos[SARSA, i]
                    r = 10.0 * field[p2]
                    s2 = p2 + off
                    a2 = q_choice(st, exact, Q, s2)
                    s = sa[SARSA, i]
                    a = aa[SARSA, i]
                    Q[s, a] = Q[s, a] + ALPHA * ((r + GAMMA * Q[s2, a2]) - Q[s, a])
                if do_csa:
                    p2 = pos[COOPSARSA, i]
                    r = 10.0 * field[p2]
                    s2 = p2 + off
                    a2 = q_choice(st, exact, Qcs, s2)
                    s = sa[COOPSARSA, i]
                    a = aa[COOPSARSA, i]
                    Qcs[s, a] = Qcs[s, a] + ALPHA * ((r + GAMMA * Qcs[s2, a2]) - Qcs[s, a])
            for i in range(N):
                if do_ql:
                    Q = Qq[i]
                    p2 = pos[QL, i]
                    r = 10.0 * field[p2]
                    s = sa[QL, i]
                    a = aa[QL, i]
                    Q[s, a] = Q[s, a] + ALPHA * ((r + GAMMA * _row_max(Q, p2)) - Q[s, a])
                if do_cql:
                    p2 = pos[COOPQL, i]
                    r = 10.0 * field[p2]
                    s = sa[COOPQL, i]
                    a = aa[COOPQL, i]
                    Qcq[s, a] = Qcq[s, a] + ALPHA * ((r + GAMMA * _row_max(Qcq, p2)) - Qcq[s, a])
        # After every training episode Good and Evil are reset to their "startup" cell 1.
        move_field(field, nb, ge[0], ge[1], 1, 1)
        ge[0] = 1
        ge[1] = 1
