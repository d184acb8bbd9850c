"""Human-like typing delay for a bot's reply.

delay = (think_s + per_char_s * len(text)) * (1 + U(-jitter, +jitter)), clipped to [0, max_s].
The keys are the same in every engine's settings (validated by :meth:`bots.base.Engine.validate_settings`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, fields

from .base import Setting, number_setting


@dataclass(frozen=True)
class TypingModel:
    think_s: float = 1.0  # thinking time before typing starts
    per_char_s: float = 0.06  # typing time per character (0.06 s = 200 characters a minute)
    jitter: float = 0.25  # multiplicative noise: factor drawn uniformly from [1 - jitter, 1 + jitter]
    max_s: float = 30.0  # cap on the whole delay

    def delay(self, text: str, rng: random.Random | None = None) -> float:
        """Seconds to wait before sending ``text``; grows with ``len(text)``, never above ``max_s``."""
        base = self.think_s + self.per_char_s * len(text)
        if self.jitter:
            base *= 1.0 + (rng or random).uniform(-self.jitter, self.jitter)
        return min(max(base, 0.0), self.max_s)

    @classmethod
    def from_settings(cls, settings: Mapping) -> TypingModel:
        """Read the optional typing keys of an entry's settings (other keys are ignored)."""
        return cls(**{key: s.clean(key, settings[key]) for key, s in TYPING_SETTINGS.items() if key in settings})


_HELP = {
    "think_s": "seconds of thinking before typing starts",
    "per_char_s": "seconds of typing per character of the reply",
    "jitter": "multiplicative noise on the delay, 0 (none) to 1",
    "max_s": "longest delay in seconds",
}

TYPING_SETTINGS: dict[str, Setting] = {
    f.name: number_setting(f.default, maximum=1.0 if f.name == "jitter" else None, help=_HELP[f.name])
    for f in fields(TypingModel)
}
