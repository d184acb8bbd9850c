"""Λ* (Lambda Star) engine. Pure Python/NumPy/Numba: imports no Django.

Public API::

    from lambdastar.engine import EngineConfig, ConfigError, run
    cfg = EngineConfig.create(rules="reference-2016", rng="pcg64", seed=1, types="all")
    scores = run(cfg, "ls", episodes=range(0, 100))   # numpy array of per-episode scores
"""

from .config import AGENT_TYPES, EngineConfig
from .errors import ConfigError

__all__ = ["AGENT_TYPES", "ConfigError", "EngineConfig", "run", "run_all"]


def run(config, agent_type, episodes=None):
    """Per-episode group scores of one agent type (see :func:`lambdastar.engine.runner.run`)."""
    from .runner import run as _run

    return _run(config, agent_type, episodes)


def run_all(config, episodes=None):
    """Per-episode scores of every type in ``config.types``: ``{type: array}``."""
    from .runner import run_all as _run_all

    return _run_all(config, episodes)
