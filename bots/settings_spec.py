"""How an engine declares its settings: each key's default and cleaner, refusing bad values by name
(pure Python, no Django). Every number is finite and bounded; every text has a length limit."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class EngineSettingsError(ValueError):
    """Bad engine settings. ``key`` names the offending setting; ``str()`` starts with it."""

    def __init__(self, key: str, problem: str = "invalid value") -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem


# --- declaring settings -------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    """One optional settings key: its default and a cleaner ``clean(key, value) -> value``."""

    default: Any
    clean: Callable[[str, Any], Any]
    help: str = ""


def number_setting(default: float, *, minimum: float = 0.0, maximum: float, help: str = "") -> Setting:
    """A finite real number in ``[minimum, maximum]`` (bools are refused), cleaned to ``float``. Every
    number has an upper bound: an entrant's 1e308 must not become a judge's wait."""

    def clean(key: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise EngineSettingsError(key, f"must be a number, not {type(value).__name__}")
        number = float(value)
        if not math.isfinite(number):
            raise EngineSettingsError(key, "must be finite")
        if number < minimum:
            raise EngineSettingsError(key, f"must be >= {minimum:g}, not {number:g}")
        if number > maximum:
            raise EngineSettingsError(key, f"must be <= {maximum:g}, not {number:g}")
        return number

    return Setting(float(default), clean, help)


def text_setting(default: str = "", *, max_length: int = 200, help: str = "") -> Setting:
    """A string of at most ``max_length`` characters, stripped."""

    def clean(key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise EngineSettingsError(key, f"must be a string, not {type(value).__name__}")
        value = value.strip()
        if len(value) > max_length:
            raise EngineSettingsError(key, f"must be at most {max_length} characters")
        return value

    return Setting(default, clean, help)


def persona_setting(*, max_items: int = 50, max_length: int = 200, help: str = "") -> Setting:
    """A mapping of persona attributes (name, age, location, ...) to short texts; numbers become text."""

    def clean(key: str, value: Any) -> dict[str, str]:
        if not isinstance(value, Mapping):
            raise EngineSettingsError(key, "must be a mapping of attribute names to texts")
        if len(value) > max_items:
            raise EngineSettingsError(key, f"must have at most {max_items} attributes")
        persona: dict[str, str] = {}
        for attr, text in value.items():
            if not isinstance(attr, str) or not attr.strip():
                raise EngineSettingsError(key, f"attribute names must be non-empty strings, not {attr!r}")
            if isinstance(text, bool) or not isinstance(text, (str, int, float)):
                raise EngineSettingsError(f"{key}.{attr}", f"must be text, not {type(text).__name__}")
            persona[attr.strip()] = text_setting(max_length=max_length).clean(f"{key}.{attr}", str(text))
        return persona

    return Setting({}, clean, help)


PERSONA_SETTINGS: dict[str, Setting] = {
    "persona": persona_setting(help="who the bot pretends to be: name, age, location, ... (engines may ignore it)")
}
