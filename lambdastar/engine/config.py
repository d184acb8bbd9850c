"""Engine configuration shared by both rule sets (``reference-2016`` and ``paper``).

``EngineConfig`` is a frozen dataclass; call :meth:`EngineConfig.validate` (or build it with
:meth:`EngineConfig.create`) before running.  Every problem raises
:class:`~lambdastar.engine.errors.ConfigError` naming the option.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .errors import ConfigError, ConfigErrors

RULES = ("reference-2016", "paper")
RNGS = ("glibc", "pcg64")
#: The 13 agent types, in the reference program's per-agent action order.
AGENT_TYPES = (
    "random",
    "ls",
    "fr",
    "woc",
    "bid",
    "dict",
    "bt",
    "oracle",
    "imit",
    "ql",
    "coopql",
    "sarsa",
    "coopsarsa",
)
LEARNING_TYPES = ("ql", "coopql", "sarsa", "coopsarsa")
#: Good/Evil collision rules (paper rule set): "random" = one of them, chosen at random,
#: stays put when both target the same cell; "none" = no collision handling.
COLLISION_RULES = ("random", "none")
GLIBC_SEED_MAX = 2**32 - 1


def parse_types(value: str | Iterable[str]) -> tuple[str, ...]:
    """``"all"`` or a comma list (or an iterable) -> tuple of known types, order kept, no duplicates."""
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",") if v.strip()]
    else:
        items = [str(v).strip() for v in value]
    if "all" in items:
        return AGENT_TYPES
    out: list[str] = []
    for item in items:
        if item not in AGENT_TYPES:
            raise ConfigError("types", f"unknown agent type {item!r} (known: all, {', '.join(AGENT_TYPES)})")
        if item not in out:
            out.append(item)
    if not out:
        raise ConfigError("types", "at least one agent type is needed")
    return tuple(out)


@dataclass(frozen=True)
class EngineConfig:
    rules: str = "reference-2016"
    rng: str = "pcg64"
    seed: int = 0
    width: int = 10
    height: int = 10
    iterations: int = 50  # T (ϑ in the paper)
    agents: int = 5  # N agents per type
    episodes: int = 1000  # W (ω in the paper)
    types: tuple[str, ...] = AGENT_TYPES
    # --- paper rule set only -------------------------------------------------------------
    observation_range: int = 1  # k: Moore neighbourhood range
    complexity_min: float | None = None
    complexity_max: float | None = None
    coordination: bool = False
    collision: str = "random"

    # ------------------------------------------------------------------------------------
    @classmethod
    def create(cls, **kwargs: Any) -> EngineConfig:
        """Build, normalise ``types`` (``"all"``/comma list/iterable) and validate."""
        errors = []
        if "types" in kwargs:
            try:
                kwargs["types"] = parse_types(kwargs["types"])
            except ConfigError as exc:  # reported with every other bad option
                errors.append(exc)
                del kwargs["types"]
        config = cls(**kwargs)
        ConfigErrors.raise_any(errors + config.problems())
        return config

    @property
    def cells(self) -> int:
        return self.width * self.height

    def replace(self, **changes: Any) -> EngineConfig:
        return dataclasses.replace(self, **changes)

    def type_index(self, agent_type: str) -> int:
        """Stable index of an agent type (position in :data:`AGENT_TYPES`)."""
        return AGENT_TYPES.index(agent_type)

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["types"] = list(self.types)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EngineConfig:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ConfigError(sorted(unknown)[0], "unknown configuration option")
        return cls.create(**data)

    # ------------------------------------------------------------------------------------
    def validate(self) -> EngineConfig:
        """Raise :class:`ConfigError` naming the bad option (:class:`ConfigErrors` listing every
        one when there are several); return ``self`` if fine."""
        ConfigErrors.raise_any(self.problems())
        return self

    def problems(self) -> list[ConfigError]:
        """Every bad option (a check that needs a valid option is skipped while that option is bad)."""
        out: list[ConfigError] = []

        def check(option: str, value: Any, minimum: int, message: str | None = None) -> bool:
            try:
                _int(option, value, minimum, message)
            except ConfigError as exc:
                out.append(exc)
                return False
            return True

        if self.rules not in RULES:
            out.append(ConfigError("rules", f"unknown rule set {self.rules!r} (known: {', '.join(RULES)})"))
        if self.rng not in RNGS:
            out.append(ConfigError("rng", f"unknown generator {self.rng!r} (known: {', '.join(RNGS)})"))
        if check("seed", self.seed, 0) and self.rng == "glibc" and self.seed > GLIBC_SEED_MAX:
            out.append(ConfigError("seed", f"glibc srand() takes an unsigned 32-bit seed (≤ {GLIBC_SEED_MAX})"))
        grid = all(
            [
                check("width", self.width, 3, "grid too small: width and height must be ≥ 3"),
                check("height", self.height, 3, "grid too small: width and height must be ≥ 3"),
            ]
        )
        check("iterations", self.iterations, 1)
        agents = check("agents", self.agents, 1)
        check("episodes", self.episodes, 1)
        k = check("observation_range", self.observation_range, 1)
        out += self._types_problems()
        if not isinstance(self.coordination, bool):
            out.append(ConfigError("coordination", "must be true or false"))
        if self.collision not in COLLISION_RULES:
            out.append(
                ConfigError(
                    "collision", f"unknown collision rule {self.collision!r} (known: {', '.join(COLLISION_RULES)})"
                )
            )
        out += self._band_problems()
        if self.rules == "reference-2016":
            out += self._reference_problems(grid, agents, k)
        elif self.rules == "paper" and grid:
            if agents and self.agents > self.cells:
                out.append(
                    ConfigError(
                        "agents",
                        f"more agents than cells: at most {self.cells} agents "
                        f"per type on a {self.width}x{self.height} grid",
                    )
                )
            if k and 2 * self.observation_range + 1 > min(self.width, self.height):
                out.append(ConfigError("observation_range", "the observation window (2k+1) must fit in the grid"))
        return out

    def _types_problems(self) -> list[ConfigError]:
        if not isinstance(self.types, tuple) or not self.types:
            return [ConfigError("types", "must be a non-empty tuple of agent types")]
        out = [
            ConfigError("types", f"unknown agent type {t!r} (known: {', '.join(AGENT_TYPES)})")
            for t in self.types
            if t not in AGENT_TYPES
        ]
        if len(set(self.types)) != len(self.types):
            out.append(ConfigError("types", "duplicate agent type"))
        return out

    def _band_problems(self) -> list[ConfigError]:
        """The complexity band: each bound a number ≥ 0 or None, and (both valid) the minimum not above the maximum."""
        out = []
        for name in ("complexity_min", "complexity_max"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0):
                out.append(ConfigError("complexity", f"{name} must be a number ≥ 0"))
        if (
            not out
            and self.complexity_min is not None
            and self.complexity_max is not None
            and self.complexity_min > self.complexity_max
        ):
            out.append(ConfigError("complexity", "minimum is larger than maximum"))
        return out

    def _reference_problems(self, grid: bool, agents: bool, k: bool) -> list[ConfigError]:
        out = []
        if grid and self.width != self.height:
            out.append(ConfigError("grid", "reference-2016 only builds square grids (width == height)"))
        if grid and agents and self.agents > self.cells - 1:
            # The original indexes the first start permutation from 1 (N ≤ S − 1).
            out.append(
                ConfigError(
                    "agents",
                    f"more agents than cells: at most {self.cells - 1} "
                    f"agents per type on a {self.width}x{self.height} grid",
                )
            )
        if k and self.observation_range != 1:
            out.append(ConfigError("observation_range", "reference-2016 has a fixed observation range of 1"))
        if self.complexity_min is not None or self.complexity_max is not None:
            out.append(ConfigError("complexity", "the complexity band is a paper rule-set option"))
        if self.coordination:
            out.append(ConfigError("coordination", "coordination is a paper rule-set option"))
        return out


def _int(option: str, value: Any, minimum: int, message: str | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(option, f"must be an integer, got {value!r}")
    if value < minimum:
        raise ConfigError(option, message or f"must be ≥ {minimum}, got {value}")
