"""An experiment's configuration: base engine options, the factors swept, and the chunk plan.

No Django here (like the engine), so the file format can be checked and tested on its own.
A configuration is a JSON object::

    {"rules": "paper", "rng": "pcg64", "episodes": 20, "types": ["ls", "random"],
     "iterations": 10,
     "sweep": {"grid": [5, 7], "agents": [1, 2], "complexity": [null, [0, 8]],
               "observation_range": [1], "coordination": [false, true]},
     "chunk_episodes": 100}

Every engine option except ``seed`` (the experiment's own field) may be given once at the top; the
factors in ``sweep`` are lists and the runs are their Cartesian product, in a fixed order. ``grid``
sets width and height; a complexity band is ``[min, max]`` (either may be null) or null.
Every problem raises :class:`ConfigError` naming the option.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, fields
from typing import Any

from lambdastar.engine import ConfigError, EngineConfig

FACTORS = ("grid", "iterations", "agents", "observation_range", "complexity", "coordination", "collision")
ENGINE_OPTIONS = tuple(f.name for f in fields(EngineConfig) if f.name != "seed")
PLATFORM_OPTIONS = ("sweep", "chunk_episodes", "grid", "complexity")
DEFAULT_CHUNK_EPISODES = 100
#: Types that act as a collective (shared knowledge or coordinated choices) rather than alone.
COLLECTIVE_TYPES = ("woc", "coopql", "coopsarsa")


@dataclass(frozen=True)
class Chunk:
    run_index: int
    agent_type: str
    index: int
    first: int
    stop: int

    @property
    def episodes(self) -> int:
        return self.stop - self.first


def parse(configuration: Any) -> tuple[dict, list[dict]]:
    """Check a configuration; return (base engine options, one dict of factor values per run)."""
    if not isinstance(configuration, dict):
        raise ConfigError("configuration", "must be a JSON object")
    for key in configuration:
        if key == "seed":
            raise ConfigError("seed", "set the experiment's seed field, not a key of the configuration")
        if key not in ENGINE_OPTIONS and key not in PLATFORM_OPTIONS:
            raise ConfigError(str(key), "unknown configuration option")
    chunk_episodes(configuration)
    base = {k: v for k, v in configuration.items() if k in ENGINE_OPTIONS}
    fixed = {k: configuration[k] for k in ("grid", "complexity") if k in configuration}
    sweep = configuration.get("sweep", {})
    if not isinstance(sweep, dict):
        raise ConfigError("sweep", "must be an object of factor lists")
    for name, values in sweep.items():
        if name not in FACTORS:
            raise ConfigError(str(name), f"not a factor that can be swept (known: {', '.join(FACTORS)})")
        if not isinstance(values, list) or not values:
            raise ConfigError(name, "a swept factor is a non-empty list of values")
        if name in configuration:
            raise ConfigError(name, "given both at the top and in sweep")
        if len(set(map(repr, values))) != len(values):
            raise ConfigError(name, "the same value is listed twice")
    names = list(sweep)
    points = [{**fixed, **dict(zip(names, combo))} for combo in itertools.product(*(sweep[n] for n in names))]
    return base, points


def engine_options(base: dict, point: dict, seed: int) -> dict:
    """The EngineConfig keyword arguments of one run."""
    options = {**base, "seed": seed}
    for name, value in point.items():
        if name == "grid":
            options["width"] = options["height"] = value
        elif name == "complexity":
            band = [None, None] if value is None else value
            if not isinstance(band, list) or len(band) != 2:
                raise ConfigError("complexity", "a complexity band is [min, max] (either may be null) or null")
            options["complexity_min"], options["complexity_max"] = band
        else:
            options[name] = value
    return options


def run_configs(configuration: Any, seed: int) -> list[tuple[dict, EngineConfig]]:
    """(factor values, validated EngineConfig) per run; a ConfigError names the option and the run."""
    base, points = parse(configuration)
    out = []
    for i, point in enumerate(points):
        try:
            out.append((point, EngineConfig.create(**engine_options(base, point, seed))))
        except ConfigError as exc:
            where = f" (run {i + 1}: {describe(point)})" if point else ""
            raise ConfigError(exc.option, exc.message + where) from None
        except TypeError as exc:  # a value of the wrong kind deep inside the dataclass
            raise ConfigError("configuration", str(exc)) from None
    return out


def describe(point: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items()) or "base"


def chunk_episodes(configuration: dict) -> int:
    value = configuration.get("chunk_episodes", DEFAULT_CHUNK_EPISODES)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError("chunk_episodes", f"must be an integer ≥ 1, got {value!r}")
    return value


def sequential(config: EngineConfig) -> bool:
    """reference-2016 with glibc: one stream from episode 0, so a type runs as one chunk."""
    return config.rules == "reference-2016" and config.rng == "glibc"


def chunk_plan(configs: list[EngineConfig], size: int) -> list[Chunk]:
    """Every chunk of the experiment, in a fixed order; episodes never depend on the chunking."""
    plan = []
    for run_index, config in enumerate(configs):
        step = config.episodes if sequential(config) else size
        for agent_type in config.types:
            for index, first in enumerate(range(0, config.episodes, step)):
                plan.append(Chunk(run_index, agent_type, index, first, min(first + step, config.episodes)))
    return plan


def workload(configs: list[EngineConfig]) -> int:
    """Episodes × types summed over the runs (what the quota counts)."""
    return sum(c.episodes * len(c.types) for c in configs)
