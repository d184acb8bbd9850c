"""Search-space entropy H(μ) (paper §4.3) and the collective intelligence score Υ(Π)
(Definition 3) of the ``paper`` rule set."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..config import EngineConfig
from .options import PaperOptions, resolve
from .runner import episode_complexities, iter_episode_blocks


def search_space_entropy(m: int, n: int) -> float:
    """H(μ) = log2((mn)! / (mn − 2)!) = log2(mn·(mn − 1)) bits: Good and Evil on two different
    cells of an m×n grid, all states equally likely."""
    cells = int(m) * int(n)
    if cells < 2:
        raise ValueError("the grid needs at least two cells")
    return math.log2(cells) + math.log2(cells - 1)


@dataclass(frozen=True)
class UpsilonResult:
    value: float  # Υ(Π): mean of R̄ over the ω environments
    std_error: float  # standard error of that mean
    environments: int  # ω
    entropy_bits: float  # H(μ), the same for every environment of the set
    complexity_band: tuple[int, int]  # [K_min, K_max] swept evenly by the environments
    by_complexity: dict[int, float] = field(default_factory=dict)  # mean R̄ per K(μ)


def upsilon(
    config: EngineConfig,
    agent_type: str,
    episode_indices: Iterable[int] | None = None,
    options: PaperOptions | None = None,
) -> UpsilonResult:
    """Υ(Π) of one agent type (a group of ``config.agents`` agents) over the environments
    ``episode_indices`` (default 0 … ω−1, ω = ``config.episodes``): all on the same grid (equal
    H(μ)), with K(μ) spread evenly over the configured band (default [2, K_max])."""
    r = resolve(config, agent_type, options)
    total = 0.0
    total_sq = 0.0
    count = 0
    per_k_sum: dict[int, float] = {}
    per_k_n: dict[int, int] = {}
    for episodes, scores in iter_episode_blocks(config, agent_type, episode_indices, options):
        total += float(scores.sum())
        total_sq += float((scores**2).sum())
        count += len(scores)
        ks = episode_complexities(config, episodes)
        for k in np.unique(ks):
            sel = scores[ks == k]
            per_k_sum[int(k)] = per_k_sum.get(int(k), 0.0) + float(sel.sum())
            per_k_n[int(k)] = per_k_n.get(int(k), 0) + len(sel)
    if count == 0:
        raise ValueError("no environments to score")
    mean = total / count
    var = max(total_sq / count - mean * mean, 0.0) * count / max(count - 1, 1)
    return UpsilonResult(
        value=mean,
        std_error=math.sqrt(var / count),
        environments=count,
        entropy_bits=search_space_entropy(config.height, config.width),
        complexity_band=(r.k_min, r.k_max),
        by_complexity={k: per_k_sum[k] / per_k_n[k] for k in sorted(per_k_sum)},
    )
