"""Options of the ``paper`` rule set and the checks done before any work starts.

:class:`~lambdastar.engine.config.EngineConfig` carries the options shared with the CLI (grid,
iterations, agents, observation range, complexity band, coordination, collision rule).  The
learning and stigmergy constants it does not carry live in :class:`PaperOptions`; the defaults
are the reference code's constants where the paper gives none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..complexity import complexity_band
from ..config import AGENT_TYPES, LEARNING_TYPES, EngineConfig
from ..errors import ConfigError

#: Numeric codes of the agent types inside the kernels (= position in AGENT_TYPES).
TYPE_CODE = {name: i for i, name in enumerate(AGENT_TYPES)}


@dataclass(frozen=True)
class PaperOptions:
    alpha: float = 0.3  # Q-learning / SARSA learning rate (reference constant)
    gamma: float = 0.3  # discount factor (reference constant)
    epsilon: float = 0.1  # exploration probability while training; the test is greedy
    q_init: float = 0.0  # initial Q-values (the reference's 2.0 with unscaled rewards never exploits)
    training_episodes: int = 100  # training sessions on each test episode (reference constant)
    stigmergy_gamma: float = 0.3  # γ in r̂ = γ·rmax + (1−γ)·rmin (paper Algorithm 2)
    block_size: int = 2048  # episodes per kernel call (memory stays flat)

    def validate(self) -> PaperOptions:
        for name in ("alpha", "gamma", "epsilon"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and 0.0 <= v <= 1.0):
                raise ConfigError(name, f"must be in [0, 1], got {v!r}")
        if not (isinstance(self.stigmergy_gamma, (int, float)) and 0.0 < self.stigmergy_gamma < 1.0):
            raise ConfigError("stigmergy_gamma", "must be in (0, 1) (paper Algorithm 2)")
        if not (isinstance(self.q_init, (int, float)) and math.isfinite(self.q_init)):
            raise ConfigError("q_init", "must be a finite number")
        for name in ("training_episodes", "block_size"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < (0 if name == "training_episodes" else 1):
                raise ConfigError(name, f"must be a non-negative integer, got {v!r}")
        return self


@dataclass(frozen=True)
class Resolved:
    """Everything a kernel needs, checked."""

    config: EngineConfig
    options: PaperOptions
    type_code: int
    k_min: int
    k_max: int
    _geometry: tuple | None = None

    @property
    def geometry(self):
        from .world import geometry

        if self._geometry is None:
            object.__setattr__(
                self, "_geometry", geometry(self.config.width, self.config.height, self.config.observation_range)
            )
        return self._geometry

    @property
    def learning(self) -> bool:
        return AGENT_TYPES[self.type_code] in LEARNING_TYPES


def resolve_band(config: EngineConfig) -> tuple[int, int]:
    """Integer complexity band [K_min, K_max] of the config, or ConfigError('complexity')."""
    lo, hi = complexity_band(config.iterations, config.cells)
    want_lo = lo if config.complexity_min is None else math.ceil(config.complexity_min)
    want_hi = hi if config.complexity_max is None else math.floor(config.complexity_max)
    if want_lo < lo or want_hi > hi or want_lo > want_hi:
        asked = (
            config.complexity_min if config.complexity_min is not None else "·",
            config.complexity_max if config.complexity_max is not None else "·",
        )
        raise ConfigError(
            "complexity",
            f"impossible complexity band [{asked[0]}, {asked[1]}]: with {config.iterations} "
            f"iterations on {config.width}x{config.height} a cyclic pattern's Lempel-Ziv complexity "
            f"is an integer in [{lo}, {hi}]",
        )
    return want_lo, want_hi


def resolve(config: EngineConfig, agent_type: str, options: PaperOptions | None = None) -> Resolved:
    """Validate ``config`` for the paper rule set and one agent type (before any work)."""
    if not isinstance(config, EngineConfig):
        raise ConfigError("config", "expected an EngineConfig")
    config.validate()
    if config.rules != "paper":
        raise ConfigError("rules", f"the paper engine runs rules='paper', got {config.rules!r}")
    if config.rng != "pcg64":
        raise ConfigError(
            "rng", "the paper rule set uses its own per-episode streams; 'glibc' replication is a reference-2016 option"
        )
    if agent_type not in TYPE_CODE:
        raise ConfigError("types", f"unknown agent type {agent_type!r} (known: {', '.join(AGENT_TYPES)})")
    if config.coordination and config.agents < 2:
        raise ConfigError("coordination", "Good only pays two or more agents: needs agents ≥ 2")
    options = (options or PaperOptions()).validate()
    k_min, k_max = resolve_band(config)
    return Resolved(config, options, TYPE_CODE[agent_type], k_min, k_max)


def check_config(config: EngineConfig, options: PaperOptions | None = None) -> None:
    """Validate ``config`` and every type in ``config.types`` for the paper rule set (for callers,
    e.g. the CLI, that want the error before starting any work)."""
    for agent_type in config.types:
        resolve(config, agent_type, options)
