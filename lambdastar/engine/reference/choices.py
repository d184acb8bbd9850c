"""Tie-breaking choices of the reference agents ("pick among maxima")."""

from __future__ import annotations

import numpy as np

from ..jit import helper_jit
from ..paper.agents import POP, SELECT, max_mask9, max_of, row_mask9
from ..rng import rand31


@helper_jit
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


@helper_jit
def ls_choice(st, exact, field, nb, p):
    """Local search: the neighbourhood cell of ``p`` with the best observed reward."""
    return nb[p, pick_among_max(st, exact, field, nb, p)]


@helper_jit
def q_choice(st, exact, Q, i, s):
    """Greedy action (0..8) in row ``s`` of table ``i``; the original also burns one ε draw.

    Among the maxima (in action order) number ``rand() mod count`` is chosen; the original draws
    even when there is one (``exact``).  Branch-free scan: :func:`row_mask9` and the mask tables.
    """
    if exact:
        rand31(st)  # (rand() % 1) + 1 > ε is never true: the draw has no effect
    mask = row_mask9(Q, i, s)
    count = POP[mask]
    if count == 1:
        if exact:
            rand31(st)
        return np.int64(SELECT[mask, 0])
    return np.int64(SELECT[mask, rand31(st) % count])


@helper_jit
def q_move(st, exact, Q, i, nb, p, off):
    """Test-phase RL move from cell ``p`` (state row ``p + off``): greedy, no learning."""
    return nb[p, q_choice(st, exact, Q, i, p + off)]


@helper_jit
def woc_candidates(A, S, cand):
    """Cells with the maximal WOC map value (start value −1), in cell order; returns the count.

    The map only changes in the communication step, so this is computed once per iteration.
    """
    m = max(-1.0, max_of(A, 1, S + 1))
    count = 0
    for c in range(1, S + 1):  # branch-free append, cell order kept
        cand[count] = c
        count += A[c] == m
    return count


@helper_jit
def woc_target(st, exact, cand, count):
    """The WOC target: candidate number ``rand() mod count``."""
    if count == 1 and not exact:
        return cand[0]
    return cand[rand31(st) % count]
