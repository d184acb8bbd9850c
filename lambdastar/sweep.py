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
``chunk_episodes`` is optional: without it each run and agent type is chunked by estimated cost
(see :func:`chunk_sizes`); the sizes are stored with the runs at launch.
Every problem raises :class:`ConfigError` naming the option (:class:`ConfigErrors`, naming each, when
there are several).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, fields
from typing import Any

from lambdastar.engine import ConfigError, EngineConfig
from lambdastar.engine.config import LEARNING_TYPES
from lambdastar.engine.errors import ConfigErrors, config_errors

FACTORS = ("grid", "iterations", "agents", "observation_range", "complexity", "coordination", "collision")
ENGINE_OPTIONS = tuple(f.name for f in fields(EngineConfig) if f.name != "seed")
PLATFORM_OPTIONS = ("sweep", "chunk_episodes", "grid", "complexity")
#: Chunk size of runs launched before chunk sizes were chosen per agent type and stored per run.
UNSTORED_CHUNK_EPISODES = 100  # episodes per chunk of a run that has no sizes stored and none configured

# Chunk sizes when the configuration names no ``chunk_episodes``: each chunk should hold enough
# engine time that a chunk's fixed cost (a queue message, a read and a write, its result: ~10 ms
# on a Celery worker, 2 cores) is small beside it, yet the experiment should split into enough
# chunks to keep every worker busy to the end (8 chunks: 16 cost 2-3 % more on one worker and
# speed 2 workers up no further). A rough cost model (engine time per episode, measured on the paper rule set) sizes
# them (retune it when the engine gets faster; launched experiments keep their sizes); it decides
# only where chunks start, never a number of the results.
EPISODE_S = 5e-6  # building an episode's world
STEP_S = 0.08e-6  # one agent's step, non-learning types
LEARNING_STEP_S = 6e-6  # one agent's step, learning types (their training included)
CHUNK_MAX_S = 1.0  # the most estimated engine time in one chunk
CHUNK_MIN_S = 0.05  # the least, however small the experiment
CHUNKS_PER_EXPERIMENT = 8  # below CHUNK_MAX_S, aim for this many chunks in all
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
    """Check a configuration's shape; return (base engine options, one dict of factor values per run).
    Every bad option is reported at once (a :class:`ConfigErrors`)."""
    base, points, errors = _parse(configuration)
    ConfigErrors.raise_any(errors)
    return base, points


def _parse(configuration: Any) -> tuple[dict, list[dict], list[ConfigError]]:
    """(base engine options, factor values per run, the shape's errors): a bad key or factor is left
    out, so the runs can still be checked and every problem reported in one answer."""
    if not isinstance(configuration, dict):
        raise ConfigError("configuration", "must be a JSON object")
    errors: list[ConfigError] = []
    for key in configuration:
        if key == "seed":
            errors.append(ConfigError("seed", "set the experiment's seed field, not a key of the configuration"))
        elif key not in ENGINE_OPTIONS and key not in PLATFORM_OPTIONS:
            errors.append(ConfigError(str(key), "unknown configuration option"))
    try:
        chunk_episodes(configuration)
    except ConfigError as exc:
        errors.append(exc)
    base = {k: v for k, v in configuration.items() if k in ENGINE_OPTIONS}
    fixed = {k: configuration[k] for k in ("grid", "complexity") if k in configuration}
    sweep = configuration.get("sweep", {})
    if not isinstance(sweep, dict):
        errors.append(ConfigError("sweep", "must be an object of factor lists"))
        sweep = {}
    factors = {}
    for name, values in sweep.items():
        if name not in FACTORS:
            errors.append(ConfigError(str(name), f"not a factor that can be swept (known: {', '.join(FACTORS)})"))
        elif not isinstance(values, list) or not values:
            errors.append(ConfigError(name, "a swept factor is a non-empty list of values"))
        elif name in configuration:
            errors.append(ConfigError(name, "given both at the top and in sweep"))
        elif len(set(map(repr, values))) != len(values):
            errors.append(ConfigError(name, "the same value is listed twice"))
        else:
            factors[name] = values
    names = list(factors)
    points = [{**fixed, **dict(zip(names, combo))} for combo in itertools.product(*(factors[n] for n in names))]
    return base, points, errors


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


#: Runs named after an error that only some runs have, at most (then "and N more").
RUNS_NAMED = 3


def run_configs(configuration: Any, seed: int) -> list[tuple[dict, EngineConfig]]:
    """(factor values, validated EngineConfig) per run. Every bad option is reported at once (a
    :class:`ConfigErrors` when there are several), each once: an error of only some runs names them."""
    base, points, errors = _parse(configuration)
    out, where = [], {}  # where: (option, message) -> the runs that have it
    for i, point in enumerate(points):
        try:
            out.append((point, EngineConfig.create(**engine_options(base, point, seed))))
        except ConfigError as exc:
            for error in config_errors(exc):
                where.setdefault((error.option, error.message), []).append(i)
        except TypeError as exc:  # a value of the wrong kind deep inside the dataclass
            where.setdefault(("configuration", str(exc)), []).append(i)
    for (option, message), runs in where.items():
        if len(runs) < len(points) and points[runs[0]]:
            named = "; ".join(f"run {i + 1}: {describe(points[i])}" for i in runs[:RUNS_NAMED])
            more = f"; and {len(runs) - RUNS_NAMED} more" if len(runs) > RUNS_NAMED else ""
            message = f"{message} ({named}{more})"
        errors.append(ConfigError(option, message))
    ConfigErrors.raise_any(errors)
    return out


def describe(point: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items()) or "base"


def chunk_episodes(configuration: dict) -> int | None:
    """The configuration's ``chunk_episodes`` (checked), or None: chosen per run and type at launch."""
    value = configuration.get("chunk_episodes")
    if value is None and "chunk_episodes" not in configuration:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError("chunk_episodes", f"must be an integer ≥ 1, got {value!r}")
    return value


def sequential(config: EngineConfig) -> bool:
    """reference-2016 with glibc: one stream from episode 0, so a type runs as one chunk."""
    return config.rules == "reference-2016" and config.rng == "glibc"


def episode_seconds(config: EngineConfig, agent_type: str) -> float:
    """Estimated engine time of one episode of ``agent_type`` (the rough cost model above)."""
    step = LEARNING_STEP_S if agent_type in LEARNING_TYPES else STEP_S
    return EPISODE_S + config.iterations * config.agents * step


def chunk_sizes(configs: list[EngineConfig], requested: int | None = None) -> list[dict[str, int]]:
    """Episodes per chunk of each agent type of each run, fixed when the experiment is launched.

    ``requested`` (the configuration's ``chunk_episodes``) applies to every run and type; without
    it, each chunk gets about min(CHUNK_MAX_S, the experiment's estimated time / CHUNKS_PER_EXPERIMENT)
    of estimated engine time (at least CHUNK_MIN_S), so cheap types run in few chunks and costly
    ones in many. Sequential runs (glibc) are one chunk per type whatever is asked.
    """
    total = sum(episode_seconds(c, t) * c.episodes for c in configs for t in c.types)
    target = max(CHUNK_MIN_S, min(CHUNK_MAX_S, total / CHUNKS_PER_EXPERIMENT))
    sizes = []
    for config in configs:
        if sequential(config):
            sizes.append({t: config.episodes for t in config.types})
        elif requested is not None:
            sizes.append({t: requested for t in config.types})
        else:
            sizes.append(
                {t: max(1, min(config.episodes, int(target / episode_seconds(config, t)))) for t in config.types}
            )
    return sizes


def chunk_plan(configs: list[EngineConfig], sizes: list[dict[str, int]]) -> list[Chunk]:
    """Every chunk of the experiment, in a fixed order; episodes never depend on the chunking."""
    plan = []
    for run_index, (config, size) in enumerate(zip(configs, sizes)):
        for agent_type in config.types:
            step = config.episodes if sequential(config) else size[agent_type]
            for index, first in enumerate(range(0, config.episodes, step)):
                plan.append(Chunk(run_index, agent_type, index, first, min(first + step, config.episodes)))
    return plan


def chunk_at(config: EngineConfig, sizes: dict[str, int], run_index: int, agent_type: str, index: int) -> Chunk | None:
    """The chunk ``index`` of one type of one run, as :func:`chunk_plan` lists it (None if none)."""
    if agent_type not in config.types or index < 0:
        return None
    step = config.episodes if sequential(config) else sizes[agent_type]
    first = index * step
    if first >= config.episodes:
        return None
    return Chunk(run_index, agent_type, index, first, min(first + step, config.episodes))


def chunk_seconds(config: EngineConfig, chunk: Chunk) -> float:
    """Estimated engine time of a chunk: the costliest are queued first, so the last chunks to
    finish are short ones and no worker waits long for another at the end."""
    return episode_seconds(config, chunk.agent_type) * chunk.episodes


def workload(configs: list[EngineConfig]) -> int:
    """Episodes × types summed over the runs (what the quota counts)."""
    return sum(c.episodes * len(c.types) for c in configs)
