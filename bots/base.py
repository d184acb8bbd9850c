"""The one interface every bot engine implements (pure Python, no Django).

A caller (``arena``'s reply task) builds a :class:`ReplyContext` from the stored conversation, gets an
engine from :mod:`bots.registry` and calls :meth:`Engine.reply`. Engines keep no state between calls
that a restart could lose: whatever a conversation needs is derived from ``context`` (its key and
history).

Settings are a flat mapping (an entry's JSON settings). Each engine declares its own keys in
``settings_spec``; the common keys (``persona`` and the typing-delay keys of :mod:`bots.typing_delay`)
are accepted by every engine and are validated here, once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

# the settings primitives are part of the engine interface: engines import them from here
from .settings_spec import (  # noqa: F401  re-exported for the engines
    PERSONA_SETTINGS,
    EngineSettingsError,
    Setting,
    number_setting,
    persona_setting,
    text_setting,
)
from .typing_delay import TYPING_SETTINGS, TypingModel

INTERROGATOR = "interrogator"
WITNESS = "witness"
ROLES = (INTERROGATOR, WITNESS)


@dataclass(frozen=True)
class Turn:
    """One earlier message of the conversation."""

    role: str  # INTERROGATOR or WITNESS
    text: str

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"Turn.role must be one of {ROLES}, not {self.role!r}")


@dataclass(frozen=True)
class ReplyContext:
    """What an engine sees when asked for a reply."""

    conversation_key: str  # opaque, stable id of the conversation (per-conversation state, seeding)
    history: tuple[Turn, ...]  # earlier turns, oldest first, NOT including `message`
    message: str  # the interrogator's latest message
    persona: Mapping[str, str] = field(default_factory=dict)  # e.g. name, age, location

    def interrogator_turns(self) -> tuple[str, ...]:
        """Texts of the interrogator's earlier turns, oldest first (without ``message``)."""
        return tuple(turn.text for turn in self.history if turn.role == INTERROGATOR)


class EngineError(Exception):
    """An engine failed to produce a reply.

    ``transient`` is true when trying again later may succeed (a timeout, a remote 503), false when
    it will not (bad configuration, a reply that sanitises to nothing).

    ``str()`` is the detail, for the organiser's call log. ``public`` is what anyone else (the entrant,
    through the API) may be told: engines that call out set a neutral category there
    (:data:`bots.netpolicy.NO_VALID_REPLY`, :data:`bots.netpolicy.NOT_ALLOWED`), so that an error
    never says what answered at an address; None means the message itself may be shown.
    """

    def __init__(self, message: str, *, transient: bool = False, public: str | None = None) -> None:
        super().__init__(message)
        self.transient = transient
        self.public = public

    @property
    def public_text(self) -> str:
        """What may be shown to anyone: ``public``, or the message when the engine set none."""
        return self.public if self.public is not None else str(self)


# --- the engine ---------------------------------------------------------------------------------


class Engine(ABC):
    """Base class of bot engines. Subclasses set ``name``, ``label``, ``settings_spec``, ``reply``.

    Importing an engine's module must stay cheap (``engine_choices`` imports them all); load heavy
    data lazily, on first use.
    """

    name: ClassVar[str]  # registry key, e.g. "simple", "eliza"
    label: ClassVar[str]  # human label for admin choices
    version: ClassVar[str] = "1"  # bump when replies change for the same input (research logs)
    settings_spec: ClassVar[Mapping[str, Setting]] = {}  # engine-specific keys (persona, typing keys are common)

    @classmethod
    def all_settings(cls) -> dict[str, Setting]:
        """Every key this engine accepts: the common keys (persona, typing delay), then its own."""
        return {**PERSONA_SETTINGS, **TYPING_SETTINGS, **cls.settings_spec}

    @classmethod
    def validate_settings(cls, settings: Mapping | None) -> dict:
        """Return cleaned settings with every default filled in.

        Raises :class:`EngineSettingsError` naming the key on an unknown key or a bad value.
        """
        if settings is None:
            settings = {}
        if not isinstance(settings, Mapping):
            raise EngineSettingsError("settings", "must be a mapping of keys to values")
        spec = cls.all_settings()
        for key in settings:
            if key not in spec:
                known = ", ".join(sorted(spec))
                raise EngineSettingsError(str(key), f"unknown setting for engine {cls.name!r} (known: {known})")
        cleaned = {key: s.clean(key, settings[key]) if key in settings else s.default for key, s in spec.items()}
        cls.check_settings(cleaned)
        return cleaned

    @classmethod  # noqa: B027  an optional hook: only engines whose settings constrain each other override it
    def check_settings(cls, cleaned: dict) -> None:
        """Hook for checks across keys; raise :class:`EngineSettingsError` naming a key."""

    def __init__(self, settings: Mapping | None = None) -> None:
        self.settings: dict = self.validate_settings(settings)
        self.typing_model: TypingModel = TypingModel.from_settings(self.settings)

    @abstractmethod
    def reply(self, context: ReplyContext) -> str:
        """The witness's reply to ``context.message``. Raises :class:`EngineError` on failure."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
