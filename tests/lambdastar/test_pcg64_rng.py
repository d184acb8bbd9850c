"""The PCG64 streams of ``--rng pcg64`` (reference-2016) are NumPy's generator."""

import numpy as np
import pytest
from numba import njit

from lambdastar.engine.rng import pcg64_state, pcg_stream_for, rand31


@njit
def _draws(state, count):
    out = np.empty(count, dtype=np.int64)
    for i in range(count):
        out[i] = rand31(state)
    return out


@pytest.mark.parametrize("key, episode", [([5, 0], 0), ([5, 3], 1), ([2**40 + 7, 12], 123_456)])
def test_an_episode_stream_is_numpys_pcg64_advanced_to_the_episode(key, episode):
    generator = np.random.PCG64(np.random.SeedSequence(key)).advance(episode * 2**64)
    expected = [generator.random_raw() >> 33 for _ in range(2000)]
    assert _draws(pcg_stream_for(pcg64_state(key), episode), 2000).tolist() == expected
