"""Per-episode random streams for the ``paper`` rule set (Numba-compiled).

Every episode draws from streams keyed only by ``(seed, stream, episode)``: stream 0 is the
environment (Good/Evil patterns, collisions, agents' start cells; shared by all agent types so that
types are compared on the same environments), stream ``1 + type_index`` is the agents' own
randomness.  A stream is a SplitMix64 sequence whose start state is a hash of the key, so any
episode can be produced alone and chunking a run never changes a number.

A stream's state is a one-element ``uint64`` array, mutated in place.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_K_STREAM = np.uint64(0xD1B54A32D192ED03)
_K_EPISODE = np.uint64(0x8CB92BA72F3D8DD7)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53

ENVIRONMENT_STREAM = 0


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64 finaliser (a bijection of uint64)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def new_stream(seed, stream, episode):
    """State array of the stream keyed by (seed, stream, episode); all three ≥ 0."""
    h = mix64(np.uint64(seed) + _GOLDEN)
    h = mix64(h ^ (np.uint64(stream) * _K_STREAM))
    h = mix64(h ^ (np.uint64(episode) * _K_EPISODE))
    state = np.empty(1, dtype=np.uint64)
    state[0] = h
    return state


@njit(cache=True, inline="always")
def next_u64(state):
    state[0] = state[0] + _GOLDEN
    return mix64(state[0])


@njit(cache=True, inline="always")
def uniform(state):
    """Float in [0, 1) with 53 random bits."""
    return float(next_u64(state) >> _S11) * _INV53


@njit(cache=True, inline="always")
def randint(state, k):
    """Integer in [0, k) (k ≥ 1); bias below 2**-40 for any k used here."""
    return int(uniform(state) * k)
