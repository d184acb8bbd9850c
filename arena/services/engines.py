"""The one engine gateway: every reply of every machine, for every app, is asked for here.

This is the only module that imports :mod:`bots.registry`.
"""
from collections.abc import Mapping

from bots.base import Engine
from bots.registry import get_engine


def engine_standalone(name: str, settings: Mapping | None = None) -> Engine:
    """An engine outside any entry (the ``python -m lpp.entry`` tool runs one as an LPP program): no
    breaker or call log, since there is no entry to keep them for. Raises
    :class:`bots.registry.UnknownEngine` (a KeyError) or :class:`bots.base.EngineSettingsError` (a
    ValueError)."""
    return get_engine(name, dict(settings or {}))
