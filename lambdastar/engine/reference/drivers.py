"""Episode loops of the reference rule set, for both random streams.

* ``glibc``: one global stream as in the original — all pattern draws first (W + 10 patterns),
  the hidden oracle's start, the first start permutation, then episodes strictly in order.  The
  pattern draws are replayed from a copy of the seeded state, so memory does not grow with W.
* ``pcg64``: each episode is independent — its environment (pattern, start cells, hidden oracle)
  comes from the environment stream and its agents' decisions from the type's stream, both
  advanced to the episode (see :mod:`lambdastar.engine.rng`), so results never depend on chunking.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grid import coordinates, neighbourhood_table
from ..jit import helper_jit
from ..patterns import generate_pattern, shuffle_cells, skip_pattern
from ..rng import MODE, glibc_state, pcg_stream_for, rand31
from .episode import run_episode
from .types import COOPQL, COOPSARSA, N_TYPES, QL, SARSA


class Workspace:
    """Arrays an episode needs, allocated once per run."""

    def __init__(self, n: int, T: int, N: int, enabled: np.ndarray, trace: bool = False):
        S = n * n
        rows = S * T + 1
        self.n, self.T, self.N = n, T, N
        self.enabled = enabled
        self.nb = neighbourhood_table(n)
        self.row, self.col = coordinates(n)
        self.Qq = np.empty((N, rows, 9) if enabled[QL] else (1, 1, 9))
        self.Qs = np.empty((N, rows, 9) if enabled[SARSA] else (1, 1, 9))
        self.Qcq = np.empty((1, rows, 9) if enabled[COOPQL] else (1, 1, 9))  # shared table
        self.Qcs = np.empty((1, rows, 9) if enabled[COOPSARSA] else (1, 1, 9))
        self.field = np.zeros(S + 1)
        self.F = np.zeros(S + 1)
        self.A = np.zeros(S + 1)
        self.pos = np.zeros((N_TYPES, N), dtype=np.int64)
        self.sa = np.zeros((N_TYPES, N), dtype=np.int64)
        self.aa = np.zeros((N_TYPES, N), dtype=np.int64)
        self.P = np.zeros(T + 10, dtype=np.int64)
        self.E = np.zeros(T + 10, dtype=np.int64)
        self.base = np.zeros(2 * n, dtype=np.int64)
        self.perm = np.zeros(S, dtype=np.int64)
        self.starts = np.zeros(N, dtype=np.int64)
        self.trace = np.zeros((T, N_TYPES + 2, N) if trace else (0, 0, 0), dtype=np.int64)

    def arrays(self):
        return (
            self.nb,
            self.row,
            self.col,
            self.Qq,
            self.Qs,
            self.Qcq,
            self.Qcs,
            self.field,
            self.F,
            self.A,
            self.pos,
            self.sa,
            self.aa,
            self.P,
            self.E,
            self.base,
            self.perm,
            self.starts,
            self.trace,
        )


# --------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)  # the caller's other threads (a server's event loop) run meanwhile
def glibc_prologue(st, n, N, W, perm, starts, carry):
    """Draws before episode 1: skip W+10 patterns, hidden-oracle start, first permutation."""
    S = n * n
    for _ in range(W + 10):
        skip_pattern(st, n)
    carry[0] = rand31(st) % S + 1
    shuffle_cells(st, perm)
    for i in range(N):
        starts[i] = perm[i + 1]  # the first permutation is read from index 1


@helper_jit
def _copy_row(row, out, j):
    """``out[j, :] = row`` as a loop (a slice copy compiles numba's shape-error formatting)."""
    for k in range(row.shape[0]):
        out[j, k] = row[k]


@njit(cache=True, nogil=True)  # the caller's other threads (a server's event loop) run meanwhile
def glibc_block(
    st,
    st_pat,
    enabled,
    n,
    T,
    N,
    count,
    carry,
    nb,
    row,
    col,
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
    P,
    E,
    base,
    perm,
    starts,
    trace,
    out,
    traces,
):
    """Run the next ``count`` episodes of the global stream; ``out[j, k]`` ← scores."""
    row_out = np.zeros(N_TYPES)
    exact = st[MODE] == 0  # True; a run-time value, so that both drivers share one compiled
    for j in range(count):  # run_episode (a constant would be typed as a literal)
        generate_pattern(st_pat, nb, n, base, P, E)
        run_episode(
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
            carry[0],
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
            row_out,
            trace,
        )
        _copy_row(row_out, out, j)
        if traces.shape[0] > 0:
            for t in range(trace.shape[0]):
                for k in range(trace.shape[1]):
                    for i in range(trace.shape[2]):
                        traces[j, t, k, i] = trace[t, k, i]
        shuffle_cells(st, perm)
        for i in range(N):
            starts[i] = perm[i]
        carry[0] = perm[N - 1]


def glibc_run(n: int, T: int, N: int, W: int, seed: int, enabled: np.ndarray, block: int = 256, trace: bool = False):
    """Yield ``(first_episode, scores[count, 13], traces or None)`` blocks for episodes 0..W-1."""
    ws = Workspace(n, T, N, enabled, trace)
    st = glibc_state(seed)
    st_pat = st.copy()
    carry = np.zeros(1, dtype=np.int64)
    glibc_prologue(st, n, N, W, ws.perm, ws.starts, carry)
    first = 0
    while first < W:
        count = min(block, W - first)
        out = np.zeros((count, N_TYPES))
        traces = np.zeros((count,) + ws.trace.shape if trace else (0, 0, 0, 0), dtype=np.int64)
        glibc_block(st, st_pat, enabled, n, T, N, count, carry, *ws.arrays(), out, traces)
        yield first, out, (traces if trace else None)
        first += count


# --------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)  # the caller's other threads (a server's event loop) run meanwhile
def pcg_block(
    env_base,
    agent_base,
    episodes,
    enabled,
    n,
    T,
    N,
    nb,
    row,
    col,
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
    P,
    E,
    base,
    perm,
    starts,
    trace,
    out,
):
    """Independent episodes ``episodes``; ``out[j, k]`` ← scores of episode ``episodes[j]``."""
    row_out = np.zeros(N_TYPES)
    for j in range(episodes.shape[0]):
        e = episodes[j]
        st_env = pcg_stream_for(env_base, e)
        generate_pattern(st_env, nb, n, base, P, E)
        shuffle_cells(st_env, perm)
        for i in range(N):
            starts[i] = perm[i]
        hid = perm[N - 1]
        st = pcg_stream_for(agent_base, e)
        run_episode(
            st,
            st[MODE] == 0,
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
            hid,
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
            row_out,
            trace,
        )
        _copy_row(row_out, out, j)
