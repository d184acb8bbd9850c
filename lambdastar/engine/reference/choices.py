"""Tie-breaking choices of the reference agents ("pick among maxima")."""

from __future__ import annotations

from numba import njit

from ..rng import rand31
from ..paper.agents import POP, SELECT, max_mask9


@njit(cache=True)
def pick_among_max(st, exact, values, nb, p):
    """Index ``k`` (0..8) among ``values[nb[p, k]]`` equal to the maximum.

    Candidates are taken in neighbourhood order and number ``rand() mod count`` is chosen; the
    original draws even when there is one candidate (``exact``), the statistical mode does not.
    Branch-free scan: a bit mask of the maxima and the ``POP``/``SELECT`` tables of
    :mod:`lambdastar.engine.paper.agents`.
    """
    _, mask = max_mask9(values, nb, p)
    count = POP[mask]
    if count == 1 and not exact:
        return SELECT[mask, 0]
    return SELECT[mask, rand31(st) % count]


@njit(cache=True)
def ls_choice(st, exact, field, nb, p):
    """Local search: the neighbourhood cell of ``p`` with the best observed reward."""
    return nb[p, pick_among_max(st, exact, field, nb, p)]


@njit(cache=True)
def q_choice(st, exact, Q, i, s):
    """Greedy action (0..8) in row ``s`` of table ``i``; the original also burns one ε draw."""
    if exact:
        rand31(st)       # (rand() % 1) + 1 > ε is never true: the draw has no effect
    m = Q[i, s, 0]
    count = 1
    best = 0
    for a in range(1, 9):
        v = Q[i, s, a]
        if v > m:
            m = v
            count = 1
            best = a
        elif v == m:
            count += 1
    if count == 1:
        if exact:
            rand31(st)
        return best
    pick = rand31(st) % count
    for a in range(best, 9):
        if Q[i, s, a] == m:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit(cache=True)
def q_move(st, exact, Q, i, nb, p, off):
    """Test-phase RL move from cell ``p`` (state row ``p + off``): greedy, no learning."""
    return nb[p, q_choice(st, exact, Q, i, p + off)]


@njit(cache=True)
def woc_candidates(A, S, cand):
    """Cells with the maximal WOC map value (start value −1), in cell order; returns the count.

    The map only changes in the communication step, so this is computed once per iteration.
    """
    m = -1.0
    for c in range(1, S + 1):
        if A[c] > m:
            m = A[c]
    count = 0
    for c in range(1, S + 1):
        if A[c] == m:
            cand[count] = c
            count += 1
    return count


@njit(cache=True)
def woc_target(st, exact, cand, count):
    """The WOC target: candidate number ``rand() mod count``."""
    if count == 1 and not exact:
        return cand[0]
    return cand[rand31(st) % count]
