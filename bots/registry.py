"""Engines by name.

Built-in engines are listed here as import paths and imported on first use, so an engine with heavy
dependencies costs nothing until an entry uses it. Add one by writing ``bots/engines/<name>.py`` (an
:class:`~bots.base.Engine` subclass with ``name`` and ``label``) and adding a line to ``BUILTIN``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from .base import Engine

BUILTIN: dict[str, str] = {
    "simple": "bots.engines.simple:SimpleEngine",
    "eliza": "bots.engines.eliza:ElizaEngine",
    "aiml": "bots.engines.aiml:AIMLEngine",
    "llm": "bots.engines.llm:LLMEngine",
    "webhook": "bots.engines.webhook:WebhookEngine",
    "learner": "bots.engines.learner:LearnerEngine",
    "echo": "bots.engines.echo:EchoEngine",
    "tables_stub": "bots.engines.tables_stub:TablesStubEngine",
    # pull mode and lpp are answered from outside the registry (arena.models.EXTERNAL_ENGINES)
}

_loaded: dict[str, type[Engine]] = {}


class UnknownEngine(KeyError):
    """No engine is registered under this name."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        return f"unknown bot engine {self.name!r} (known: {', '.join(engine_names())})"


def engine_names() -> list[str]:
    return list(BUILTIN)


def engine_class(name: str) -> type[Engine]:
    """The engine class registered under ``name``; raises :class:`UnknownEngine`."""
    cls = _loaded.get(name)
    if cls is not None:
        return cls
    try:
        target = BUILTIN[name]
    except (KeyError, TypeError):
        raise UnknownEngine(name) from None
    module_name, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    if not (isinstance(cls, type) and issubclass(cls, Engine)) or cls.name != name:
        raise TypeError(f"{target} is not an Engine named {name!r}")
    _loaded[name] = cls
    return cls


def get_engine(name: str, settings: Mapping | None = None) -> Engine:
    """A new engine instance; raises :class:`UnknownEngine` or :class:`~bots.base.EngineSettingsError`."""
    return engine_class(name)(settings)


def engine_choices() -> list[tuple[str, str]]:
    """``(name, label)`` pairs for a choice field, in registration order."""
    return [(name, engine_class(name).label) for name in BUILTIN]


def validate_engine_settings(name: str, settings: Mapping) -> dict:
    """Cleaned settings (defaults filled in) for engine ``name``; raises like :func:`get_engine`."""
    return engine_class(name).validate_settings(settings)
