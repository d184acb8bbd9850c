"""Tie-breaking choices of the reference agents ("pick among maxima")."""

from __future__ import annotations

from numba import njit

from ..rng import rand31


@njit(cache=True)
def pick_among_max(st, exact, values, idx, offset, count_items):
    """Index ``k`` (0-based) among ``values[idx[offset + k]]`` equal to the maximum.

    Candidates are taken in order and number ``rand() mod count`` is chosen; the original
    draws even when there is one candidate (``exact``), the statistical mode does not.
    """
    m = values[idx[offset]]
    for k in range(1, count_items):
        v = values[idx[offset + k]]
        if v > m:
            m = v
    count = 0
    for k in range(count_items):
        if values[idx[offset + k]] == m:
            count += 1
    if count == 1 and not exact:
        pick = 0
    else:
        pick = rand31(st) % count
    for k in range(count_items):
        if values[idx[offset + k]] == m:
            if pick == 0:
                return k
            pick -= 1
    return -1


@njit(cache=True)
def ls_choice(st, exact, field, nb, p):
    """Local search: the neighbourhood cell of ``p`` with the best observed reward."""
    return nb[p, pick_among_max(st, exact, field, nb[p], 0, 9)]


@njit(cache=True)
def q_choice(st, exact, Q, s):
    """Greedy action (0..8) in state row ``s``; the original also burns one ε draw."""
    if exact:
        rand31(st)       # (rand() % 1) + 1 > ε is never true: the draw has no effect
    m = Q[s, 0]
    for a in range(1, 9):
        if Q[s, a] > m:
            m = Q[s, a]
    count = 0
    for a in range(9):
        if Q[s, a] == m:
            count += 1
    if count == 1 and not exact:
        pick = 0
    else:
        pick = rand31(st) % count
    for a in range(9):
        if Q[s, a] == m:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit(cache=True)
def q_move(st, exact, Q, nb, p, off):
    """Test-phase RL move from cell ``p`` (state row ``p + off``): greedy, no learning."""
    return nb[p, q_choice(st, exact, Q, p + off)]


@njit(cache=True)
def woc_target(st, exact, A, S):
    """Argmax of the shared WOC map over all cells (start value −1), ties at random."""
    m = -1.0
    for c in range(1, S + 1):
        if A[c] > m:
            m = A[c]
    count = 0
    for c in range(1, S + 1):
        if A[c] == m:
            count += 1
    if count == 1 and not exact:
        pick = 0
    else:
        pick = rand31(st) % count
    for c in range(1, S + 1):
        if A[c] == m:
            if pick == 0:
                return c
            pick -= 1
    return 1
