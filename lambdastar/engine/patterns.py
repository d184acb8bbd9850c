"""Good (⊕) / Evil (⊖) movement patterns of the reference program.

Per episode: start cell uniform, base length L = n + rand() mod n, a random walk of L king
steps (the visited cells form the base path B; the start is not part of it), extended to
T + 10 positions by ping-pong (B, reversed B, B, …).  Evil is Good's row-major offset
``E = ((P + S // 3) mod S) + 1``.  The walk's Lempel-Ziv complexity is only logged by the
original, so it is not computed here.
"""

from __future__ import annotations

from numba import njit

from .rng import rand31


@njit(cache=True)
def generate_pattern(st, nb, n, base, P, E):
    """Draw one pattern from stream ``st``; fill ``P`` and ``E`` (length ≥ T + 1).

    ``base`` is scratch space of length ≥ 2n.  Returns the base length L.
    """
    S = n * n
    cur = rand31(st) % S + 1
    L = n + rand31(st) % n
    for j in range(L):
        cur = nb[cur, rand31(st) % 9]
        base[j] = cur
    j = 0
    forward = True
    k = 0
    while j < P.shape[0]:
        P[j] = base[k] if forward else base[L - 1 - k]
        j += 1
        k += 1
        if k == L:
            k = 0
            forward = not forward
    third = S // 3
    for j in range(P.shape[0]):
        E[j] = (P[j] + third) % S + 1
    return L


@njit(cache=True)
def skip_pattern(st, n):
    """Consume the draws of one pattern without building it."""
    S = n * n
    rand31(st)
    L = n + rand31(st) % n
    for _ in range(L):
        rand31(st)
    _ = S


@njit(cache=True)
def shuffle_cells(st, perm):
    """libstdc++ ``std::random_shuffle`` of ``perm`` (filled with 1..S): S − 1 draws."""
    S = perm.shape[0]
    for i in range(S):
        perm[i] = i + 1
    for i in range(1, S):
        j = rand31(st) % (i + 1)
        tmp = perm[i]
        perm[i] = perm[j]
        perm[j] = tmp
