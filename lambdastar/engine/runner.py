"""Python API of the engine: per-episode scores for a configuration.

``run(config, agent_type, episodes=range(a, b))`` returns a NumPy array of per-episode group
scores.  Determinism:

* ``pcg64``: every episode draws from its own streams, derived from ``(seed, episode)`` only
  (environment: ``SeedSequence([seed, 0])``, agents of a type: ``SeedSequence([seed, 1 + k])``
  with k the type's index, ``bt`` sharing ``ls``'s, each advanced by ``episode * 2**64`` draws),
  so any chunking of the episodes gives the same scores.  All types see the same Good/Evil
  paths and start cells in a given episode.
* ``glibc`` (reference-2016 only): the original's single global ``rand()`` stream.  Episodes are
  sequential and the stream depends on ``config.episodes`` (W + 10 patterns are drawn first) and
  on the set ``config.types`` (absent types draw nothing).  A range starting after 0 is produced
  by replaying episodes 0..a-1 first, so a worker chunk costs as much as the prefix.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from .config import AGENT_TYPES, EngineConfig
from .errors import ConfigError

DEFAULT_BLOCK = 256


def _episode_indices(config: EngineConfig, episodes: Iterable[int] | None) -> np.ndarray:
    if episodes is None:
        return np.arange(config.episodes, dtype=np.int64)
    idx = np.asarray(
        list(episodes) if not isinstance(episodes, (range, np.ndarray)) else episodes, dtype=np.int64
    ).reshape(-1)
    if idx.size and (idx.min() < 0 or idx.max() >= config.episodes):
        raise ConfigError("episodes", f"episode indices must lie in 0..{config.episodes - 1}")
    return idx


def _check_type(config: EngineConfig, agent_type: str) -> None:
    if agent_type not in AGENT_TYPES:
        raise ConfigError("types", f"unknown agent type {agent_type!r}")
    if config.rng == "glibc" and config.rules == "reference-2016" and agent_type not in config.types:
        raise ConfigError(
            "types",
            f"{agent_type!r} is not among config.types (the glibc stream depends on the set of types run together)",
        )


def _enabled(types: Sequence[str]) -> np.ndarray:
    en = np.zeros(len(AGENT_TYPES), dtype=np.bool_)
    for t in types:
        en[AGENT_TYPES.index(t)] = True
    return en


def paper_module():
    """The paper rule set's module, imported lazily; a ConfigError if it is not there yet."""
    try:
        return importlib.import_module("lambdastar.engine.paper")
    except ModuleNotFoundError as exc:
        if exc.name in ("lambdastar.engine.paper",):
            raise ConfigError(
                "rules",
                "the 'paper' rule set is not available in this installation (lambdastar.engine.paper is missing)",
            ) from exc
        raise


def rng_type_index(agent_type: str) -> int:
    """Index of the type's agent stream (``bt`` is local search in reference-2016)."""
    return AGENT_TYPES.index("ls" if agent_type == "bt" else agent_type)


# --------------------------------------------------------------------------------------------
def _reference_pcg(config: EngineConfig, agent_type: str, idx: np.ndarray) -> np.ndarray:
    from .reference.drivers import Workspace, pcg_block
    from .rng import pcg64_state

    en = _enabled([agent_type])
    ws = Workspace(config.width, config.iterations, config.agents, en)
    out = np.zeros((idx.size, len(AGENT_TYPES)))
    env = pcg64_state([config.seed, 0])
    agent = pcg64_state([config.seed, 1 + rng_type_index(agent_type)])
    pcg_block(env, agent, idx, en, ws.n, ws.T, ws.N, *ws.arrays(), out)
    return out[:, AGENT_TYPES.index(agent_type)]


def glibc_blocks(
    config: EngineConfig, stop: int | None = None, block: int = DEFAULT_BLOCK, trace: bool = False
) -> Iterator[tuple[int, dict[str, np.ndarray], object]]:
    """Reference/glibc: ``(first_episode, {type: scores}, traces)`` blocks from episode 0."""
    from .reference.drivers import glibc_run

    stop = config.episodes if stop is None else stop
    cols = [AGENT_TYPES.index(t) for t in config.types]
    gen = glibc_run(
        config.width,
        config.iterations,
        config.agents,
        config.episodes,
        config.seed,
        _enabled(config.types),
        block=block,
        trace=trace,
    )
    for first, out, traces in gen:
        if first >= stop:
            break
        n = min(out.shape[0], stop - first)
        yield first, {t: out[:n, c] for t, c in zip(config.types, cols)}, (traces[:n] if traces is not None else None)


def _reference_glibc(config: EngineConfig, types: Sequence[str], idx: np.ndarray):
    if idx.size == 0:
        return {t: np.zeros(0) for t in types}
    stop = int(idx.max()) + 1
    full = {t: np.empty(stop) for t in types}
    for first, scores, _ in glibc_blocks(config, stop):
        for t in types:
            full[t][first : first + scores[t].size] = scores[t]
    return {t: full[t][idx] for t in types}


# --------------------------------------------------------------------------------------------
def run(config: EngineConfig, agent_type: str, episodes: Iterable[int] | None = None) -> np.ndarray:
    """Per-episode group scores of ``agent_type`` for the given episode indices (default all)."""
    config.validate()
    _check_type(config, agent_type)
    idx = _episode_indices(config, episodes)
    if config.rules == "paper":
        return np.asarray(paper_module().run_episodes(config, agent_type, idx), dtype=float)
    if config.rng == "glibc":
        return _reference_glibc(config, [agent_type], idx)[agent_type]
    return _reference_pcg(config, agent_type, idx)


def run_all(config: EngineConfig, episodes: Iterable[int] | None = None) -> dict[str, np.ndarray]:
    """``{type: per-episode scores}`` for every type in ``config.types``."""
    config.validate()
    idx = _episode_indices(config, episodes)
    if config.rules == "reference-2016" and config.rng == "glibc":
        return _reference_glibc(config, config.types, idx)
    return {t: run(config, t, idx) for t in config.types}


def trace(config: EngineConfig, episodes: int | None = None) -> np.ndarray:
    """Reference/glibc positions: array (episodes, T, 15, N) of cells after each iteration.

    Index 0..12 along axis 2 are the agent types (``AGENT_TYPES`` order), 13 Good, 14 Evil.
    """
    config.validate()
    if config.rules != "reference-2016" or config.rng != "glibc":
        raise ConfigError("rng", "traces are available for reference-2016 with the glibc stream")
    stop = config.episodes if episodes is None else episodes
    return np.concatenate([tr for _, _, tr in glibc_blocks(config, stop, trace=True)])
