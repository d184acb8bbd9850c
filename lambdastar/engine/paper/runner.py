"""Running episodes of the ``paper`` rule set: validation first, then blocks of episodes through
one Numba kernel (memory is flat in the number of episodes; results can be streamed).

Each episode's numbers depend only on (seed, agent type, episode index): the environment from
stream (seed, 0, episode), the agents' choices from stream (seed, 1 + type index, episode).  Any
split of the episodes into calls or blocks gives identical scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
from numba import njit

from ..config import EngineConfig
from ..errors import ConfigError
from .agents import plain_episode
from .learning import QL, learning_episode
from .options import PaperOptions, Resolved, resolve
from .patterns import build_world, target_complexity
from .streams import new_stream
from .world import window_actions


@njit(cache=True, nogil=True)  # the caller's other threads (a server's event loop) run meanwhile
def run_block(
    seed,
    episodes,
    kind,
    geo,
    wact,
    iterations,
    agents,
    k,
    k_min,
    k_max,
    collide,
    coordination,
    alpha,
    gamma,
    epsilon,
    q_init,
    sessions,
    sgamma,
    scores,
):
    moves, win, row, col, ring_rows, ring_cols, width, height = geo
    cells = moves.shape[0]
    tabs = (moves, win, wact, row, col, ring_rows, ring_cols, width, height)
    good = np.empty(iterations + 1, dtype=np.int64)
    evil = np.empty(iterations + 1, dtype=np.int64)
    starts = np.empty(agents, dtype=np.int64)
    work = np.zeros((5, max(iterations, 9)), dtype=np.int64)
    pos = np.empty(agents, dtype=np.int64)
    prev = np.empty(agents, dtype=np.int64)
    act = np.empty(agents, dtype=np.int64)
    rew = np.empty(agents, dtype=np.float64)
    best_val = np.empty(agents, dtype=np.float64)
    cells_tmp = np.empty(max(agents, cells), dtype=np.int64)
    fmap = np.zeros(cells, dtype=np.float64)
    field = np.zeros(cells, dtype=np.float64)
    gfield = np.zeros(cells, dtype=np.float64)
    hist = np.empty((iterations, agents), dtype=np.int64)
    used = np.zeros(cells, dtype=np.bool_)
    learning = kind >= QL
    shared = kind == QL + 1 or kind == QL + 3
    tables = np.empty((0, 0, 0, 9))
    if learning:
        tables = np.empty((1 if shared else agents, iterations, cells, 9))
    for b in range(episodes.shape[0]):
        episode = episodes[b]
        build_world(seed, episode, geo, iterations, agents, k_min, k_max, collide, good, evil, starts, work, used)
        state = new_stream(seed, 1 + kind, episode)
        if learning:
            scores[b] = learning_episode(
                state,
                kind,
                geo,
                good,
                evil,
                starts,
                iterations,
                agents,
                coordination,
                alpha,
                gamma,
                epsilon,
                q_init,
                sessions,
                tables,
                pos,
                prev,
                act,
                rew,
            )
        else:
            scores[b] = plain_episode(
                state,
                kind,
                tabs,
                good,
                evil,
                starts,
                iterations,
                agents,
                k,
                coordination,
                sgamma,
                pos,
                best_val,
                cells_tmp,
                fmap,
                field,
                gfield,
                hist,
            )


def _episode_array(config: EngineConfig, episode_indices: Iterable[int] | None) -> np.ndarray:
    if episode_indices is None:
        return np.arange(config.episodes, dtype=np.int64)
    arr = np.asarray(list(episode_indices) if not isinstance(episode_indices, (range, np.ndarray)) else episode_indices)
    if arr.size == 0:
        return np.empty(0, dtype=np.int64)
    if arr.ndim != 1 or arr.dtype.kind not in "iu" or arr.min() < 0:
        raise ConfigError("episodes", "episode indices must be a flat sequence of integers ≥ 0")
    return arr.astype(np.int64)


def _run(r: Resolved, episodes: np.ndarray, out: np.ndarray) -> None:
    c, o = r.config, r.options
    wact = None if c.observation_range == 1 else window_actions(c.observation_range)  # see agents.ls_move
    run_block(
        c.seed,
        episodes,
        r.type_code,
        r.geometry,
        wact,
        c.iterations,
        c.agents,
        c.observation_range,
        r.k_min,
        r.k_max,
        c.collision == "random",
        c.coordination,
        o.alpha,
        o.gamma,
        o.epsilon,
        o.q_init,
        o.training_episodes,
        o.stigmergy_gamma,
        out,
    )


def iter_episode_blocks(
    config: EngineConfig,
    agent_type: str,
    episode_indices: Iterable[int] | None = None,
    options: PaperOptions | None = None,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield ``(episode_indices, scores)`` block by block (``options.block_size`` episodes)."""
    r = resolve(config, agent_type, options)
    episodes = _episode_array(config, episode_indices)
    size = r.options.block_size
    for start in range(0, len(episodes), size):
        block = np.ascontiguousarray(episodes[start : start + size])
        scores = np.empty(len(block), dtype=np.float64)
        _run(r, block, scores)
        yield block, scores


def run_episodes(
    config: EngineConfig,
    agent_type: str,
    episode_indices: Iterable[int] | None = None,
    options: PaperOptions | None = None,
) -> np.ndarray:
    """Per-episode group scores (mean reward per agent per iteration, in [−1, 1]) of one agent
    type, in the order of ``episode_indices`` (default: 0 … config.episodes−1)."""
    r = resolve(config, agent_type, options)
    episodes = _episode_array(config, episode_indices)
    out = np.empty(len(episodes), dtype=np.float64)
    size = r.options.block_size
    for start in range(0, len(episodes), size):
        block = np.ascontiguousarray(episodes[start : start + size])
        _run(r, block, out[start : start + size])
    return out


def episode_complexities(config: EngineConfig, episode_indices: Iterable[int] | None = None) -> np.ndarray:
    """K(μ) of each episode's Good and Evil patterns (the band is swept by episode index)."""
    r = resolve(config, "random")
    episodes = _episode_array(config, episode_indices)
    return np.array([target_complexity(int(e), r.k_min, r.k_max) for e in episodes], dtype=np.int64)
