"""A human-like keystroke rhythm for the side that types (lpp.md §1.5: typing
speed is the entry's own business; community clients used 70–150 ms a key).

Before the first key the typist thinks ``think_s`` seconds; each key then
takes ``per_char_s``, a little longer after a space or punctuation
(``word_pause_s``); every delay is scaled by a factor drawn from
``[1 - jitter, 1 + jitter]``. Field names follow ``bots.typing_delay`` so an
engine's settings can be reused.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

_PAUSE_AFTER = frozenset(" .,;:!?")


@dataclass(frozen=True)
class TypingModel:
    think_s: float = 1.5
    per_char_s: float = 0.12
    word_pause_s: float = 0.08
    jitter: float = 0.35

    def __post_init__(self) -> None:
        for f in fields(self):
            if getattr(self, f.name) < 0:
                raise ValueError(f"{f.name} must be >= 0")
        if self.jitter > 1:
            raise ValueError("jitter must be between 0 and 1")

    @classmethod
    def fast(cls) -> TypingModel:
        """Next to no delay: for tests and for relaying text already typed."""
        return cls(think_s=0.0, per_char_s=0.002, word_pause_s=0.0, jitter=0.0)

    @classmethod
    def from_mapping(cls, settings: Mapping) -> TypingModel:
        """The model from an entry's settings; unknown keys are ignored."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: float(v) for k, v in settings.items() if k in names})

    def delays(self, chars: Sequence[str], rng: random.Random | None = None) -> list[float]:
        """Seconds to wait before each of ``chars`` (the first includes thinking)."""
        rng = rng or random.Random()
        result = []
        previous = ""
        for i, char in enumerate(chars):
            base = self.think_s if i == 0 else 0.0
            base += self.per_char_s + (self.word_pause_s if previous in _PAUSE_AFTER else 0.0)
            result.append(base * (1.0 + rng.uniform(-self.jitter, self.jitter)))
            previous = char
        return result
