"""Which program answers as an LPP entry: engines of :mod:`bots.registry` when
that package can be imported, plus a built-in ``echo`` engine (replies with
the judge's own words) so that the LPP tools work and are tested on their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from lpp.model import JUDGE, Utterance


class EngineNotFound(LookupError):
    pass


@dataclass(frozen=True)
class _Turn:
    role: str
    text: str


@dataclass(frozen=True)
class _Context:
    """Stand-in with the fields of ``bots.base.ReplyContext`` when bots is absent."""

    conversation_key: str
    history: tuple = ()
    message: str = ""
    persona: Mapping[str, str] = field(default_factory=dict)


class EchoEngine:
    name = "echo"

    def __init__(self, settings: Mapping | None = None) -> None:
        self.settings = dict(settings or {})

    def reply(self, context) -> str:
        return context.message


LOCAL_ENGINES = {"echo": EchoEngine}


def get_engine(name: str, settings: Mapping | None = None):
    """An object with ``.reply(context) -> str``; :class:`EngineNotFound` if no
    engine has that name. Bad settings raise the registry's own error."""
    try:
        from bots import registry
    except ImportError:
        registry = None
    if registry is not None and name in registry.engine_names():
        return registry.get_engine(name, dict(settings or {}))
    if name in LOCAL_ENGINES:
        return LOCAL_ENGINES[name](settings)
    known = sorted(set(LOCAL_ENGINES) | set(registry.engine_names() if registry else ()))
    raise EngineNotFound(f"unknown engine {name!r} (known: {', '.join(known)})")


def make_context(conversation_key: str, history: Sequence[Utterance], message: str):
    """The reply context for ``message`` after ``history`` (the judge is the
    interrogator, this entry the witness)."""
    try:
        from bots.base import INTERROGATOR, WITNESS, ReplyContext, Turn
    except ImportError:
        INTERROGATOR, WITNESS, ReplyContext, Turn = "interrogator", "witness", _Context, _Turn
    turns = tuple(Turn(role=INTERROGATOR if u.sender == JUDGE else WITNESS, text=u.text) for u in history)
    return ReplyContext(conversation_key=conversation_key, history=turns, message=message)
