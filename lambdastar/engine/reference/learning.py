"""RL training phase of the reference program (ql, coopql, sarsa, coopsarsa).

100 training episodes on the very test episode (same Good/Evil path and start cells); greedy
choices with random tie-breaks over Q-tables initialised to 2.0, virtual reward 10 × cell value,
Q-learning bootstrapping on the state of the new cell at *iteration 1* (reference bug), and the
exact order of the training steps, which fixes the random draws (needed for bit-exact replication).
"""

from __future__ import annotations

from numba import njit

from ..grid import move_field
from ..jit import helper_jit
from .choices import q_choice
from .types import ALPHA, COOPQL, COOPSARSA, GAMMA, QL, SARSA


@helper_jit
def _row_max(Q, i, s):
    m = Q[i, s, 0]
    for a in range(1, 9):
        if Q[i, s, a] > m:
            m = Q[i, s, a]
    return m


@helper_jit
def _ql_update(Q, i, field, p2, s, a):
    """Q-learning update; bootstraps on the new cell's state at iteration 1 (reference bug)."""
    r = 10.0 * field[p2]
    Q[i, s, a] = Q[i, s, a] + ALPHA * ((r + GAMMA * _row_max(Q, i, p2)) - Q[i, s, a])


@helper_jit
def _sarsa_update(st, exact, Q, i, field, off, p2, s, a):
    """SARSA update with a' chosen greedily in (p', same iteration); a' is not executed."""
    r = 10.0 * field[p2]
    s2 = p2 + off
    a2 = q_choice(st, exact, Q, i, s2)
    Q[i, s, a] = Q[i, s, a] + ALPHA * ((r + GAMMA * Q[i, s2, a2]) - Q[i, s, a])


@helper_jit
def _choose_move(st, exact, Q, qi, nb, off, pos, sa, aa, k, i):
    """Agent i of type k picks a greedily in (p, t), remembers (s, a) and moves."""
    s = pos[k, i] + off
    a = q_choice(st, exact, Q, qi, s)
    sa[k, i] = s
    aa[k, i] = a
    pos[k, i] = nb[pos[k, i], a]


@njit(cache=True)
def train(st, exact, enabled, n, T, N, nb, P, E, starts, Qq, Qs, Qcq, Qcs, field, ge, n_train, pos, sa, aa):  # noqa: C901  bit-exact: the steps in the reference program's order, which fixes the random draws
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
                    _choose_move(st, exact, Qs, i, nb, off, pos, sa, aa, SARSA, i)
                if do_csa:
                    _choose_move(st, exact, Qcs, 0, nb, off, pos, sa, aa, COOPSARSA, i)
            for i in range(N):
                if do_ql:
                    _choose_move(st, exact, Qq, i, nb, off, pos, sa, aa, QL, i)
                if do_cql:
                    _choose_move(st, exact, Qcq, 0, nb, off, pos, sa, aa, COOPQL, i)
            move_field(field, nb, ge[0], ge[1], P[t], E[t])
            ge[0] = P[t]
            ge[1] = E[t]
            for i in range(N):
                if do_sa:
                    _sarsa_update(st, exact, Qs, i, field, off, pos[SARSA, i], sa[SARSA, i], aa[SARSA, i])
                if do_csa:
                    _sarsa_update(st, exact, Qcs, 0, field, off, pos[COOPSARSA, i], sa[COOPSARSA, i], aa[COOPSARSA, i])
            for i in range(N):
                if do_ql:
                    _ql_update(Qq, i, field, pos[QL, i], sa[QL, i], aa[QL, i])
                if do_cql:
                    _ql_update(Qcq, 0, field, pos[COOPQL, i], sa[COOPQL, i], aa[COOPQL, i])
        # After every training episode Good and Evil are reset to their "startup" cell 1.
        move_field(field, nb, ge[0], ge[1], 1, 1)
        ge[0] = 1
        ge[1] = 1
