"""Every compiled kernel, loaded (or compiled, where numba's on-disk cache has none) ahead of the work.

A fresh checkout compiles the kernels on first use: about a minute and a half of CPU for all of them,
seconds once cached. ``warm`` does it on purpose: a worker before its pool forks, a deployment's image
as it is built, a test run before its tests (``python -m lambdastar.engine warm``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from .config import AGENT_TYPES, RULES, EngineConfig


def configs(rules: Iterable[str] = RULES) -> Iterator[EngineConfig]:
    """Tiny configurations that between them call every kernel of the given rule sets: both streams,
    range-1 and range-k observation, coordination, every agent type."""
    rules = set(rules)
    small = {"episodes": 1, "iterations": 3, "agents": 2, "types": AGENT_TYPES}
    if "paper" in rules:
        grid = {"rules": "paper", "rng": "pcg64", "width": 5, "height": 5}
        yield EngineConfig.create(**grid, **small)
        yield EngineConfig.create(**grid, observation_range=2, coordination=True, collision="none", **small)
    if "reference-2016" in rules:
        yield EngineConfig.create(rules="reference-2016", rng="pcg64", width=5, height=5, **small)
        yield EngineConfig.create(rules="reference-2016", rng="glibc", width=5, height=5, **small)


def warm(rules: Iterable[str] = RULES) -> float:
    """Load every kernel of the given rule sets into this process; the seconds it took."""
    from . import paper, run_all

    started = time.perf_counter()
    for config in configs(rules):
        run_all(config)
        if config.rules == "paper":
            paper.episode_complexities(config, range(1))
    return time.perf_counter() - started
