"""The ``paper`` rule set of the Λ* engine: the test as Chmait et al. describe it.

Public API (imported lazily so that :mod:`lambdastar.engine.complexity` can use the Numba
helpers of this package without an import cycle)::

    run_episodes(config, agent_type, episode_indices) -> np.ndarray   # per-episode scores
    upsilon(config, agent_type, ...)                                 # Υ(Π), Definition 3
    search_space_entropy(m, n)                                       # H(μ) in bits
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "run_episodes": "runner",
    "iter_episode_blocks": "runner",
    "episode_complexities": "runner",
    "PaperOptions": "options",
    "check_config": "options",
    "upsilon": "scoring",
    "UpsilonResult": "scoring",
    "search_space_entropy": "scoring",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(name)
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
