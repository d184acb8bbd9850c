"""The one human-like typing model: the wait before a bot's whole reply, or the rhythm of its keys.

A whole reply (:meth:`TypingModel.delay`):
delay = (think_s + per_char_s * len(text) + word_pause_s * pauses) * (1 + U(-jitter, +jitter)), clipped to
[0, max_s], where ``pauses`` counts the characters typed after a space or punctuation.

A reply to a message (:meth:`TypingModel.schedule`, every machine witness's reply in the arena), counted
from the judge's message: first the witness reads it and thinks, ``read_per_char_s * len(message) +
think_s``, and only then starts typing (the typing indicator appears); the reply is shown when typed, as
above. One jitter factor scales both; both are capped at ``max_s``.

Key by key (:meth:`TypingModel.delays`, the LPP tools, which type into a communications directory): before
the first key the typist thinks ``think_s``; each key takes ``per_char_s``, plus ``word_pause_s`` after a
space or punctuation; each delay is scaled by its own factor from [1 - jitter, 1 + jitter]; ``max_s``
caps only the whole-reply delay.

The keys are the same in every engine's settings (validated by :meth:`bots.base.Engine.validate_settings`).

The "is typing" signals a judge sees follow one cadence, whoever types (:func:`typing_gap`,
:class:`TypingRelay`): a first signal when typing starts, then one every ``U(TYPING_GAP_S)`` seconds while it
goes on. A machine's typing goes on until its reply is shown; a person's while their console's last typing
frame is at most ``TYPING_FRESH_S`` old (the console sends one every 1.5 s or more while keys are pressed),
and ends when they send their message. The signals a person's console sends are never relayed as they come:
their rhythm is the console's throttle and the person's keys, which a machine's would not share.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, fields

from .settings_spec import Setting, number_setting

PAUSE_AFTER = frozenset(" .,;:!?")  # a word ends: the next key comes a little later


@dataclass(frozen=True)
class TypingModel:
    think_s: float = 1.0  # thinking time before typing starts
    per_char_s: float = 0.06  # typing time per character (0.06 s = 200 characters a minute)
    jitter: float = 0.25  # multiplicative noise: factor drawn uniformly from [1 - jitter, 1 + jitter]
    max_s: float = 30.0  # cap on the whole delay
    word_pause_s: float = 0.0  # extra time for a character typed after a space or punctuation
    read_per_char_s: float = 0.04  # reading the judge's message before typing (0.04 s: ~300 words a minute)

    def __post_init__(self) -> None:
        for f in fields(self):
            if getattr(self, f.name) < 0:
                raise ValueError(f"{f.name} must be >= 0")
        if self.jitter > 1:
            raise ValueError("jitter must be between 0 and 1")

    @classmethod
    def fast(cls) -> TypingModel:
        """Next to no delay: for tests and for relaying text already typed."""
        return cls(think_s=0.0, per_char_s=0.002, jitter=0.0, word_pause_s=0.0, read_per_char_s=0.0)

    def _pause(self, previous: str) -> float:
        return self.word_pause_s if previous in PAUSE_AFTER else 0.0

    def _typing_s(self, text: str) -> float:
        base = self.per_char_s * len(text)
        if self.word_pause_s:
            base += sum(self._pause(previous) for previous in text[:-1])
        return base

    def _factor(self, rng: random.Random | None) -> float:
        return 1.0 + (rng or random).uniform(-self.jitter, self.jitter) if self.jitter else 1.0

    def delay(self, text: str, rng: random.Random | None = None) -> float:
        """Seconds to wait before sending ``text``; grows with ``len(text)``, never above ``max_s``."""
        base = (self.think_s + self._typing_s(text)) * self._factor(rng)
        return min(max(base, 0.0), self.max_s)

    def reading_s(self, message: str) -> float:
        """Seconds to read ``message`` and think, before typing starts (no jitter, no cap)."""
        return self.think_s + self.read_per_char_s * len(message)

    def schedule(self, message: str, reply: str, rng: random.Random | None = None) -> tuple[float, float]:
        """(typing starts, reply shown): seconds after ``message`` arrived, for a witness that reads it,
        thinks, then types ``reply``. The first is never 0 unless the model has no reading or thinking
        time: nobody starts answering a message before reading it."""
        factor = self._factor(rng)
        shown = min((self.reading_s(message) + self._typing_s(reply)) * factor, self.max_s)
        return min(self.reading_s(message) * factor, shown), shown

    def delays(self, chars: Sequence[str], rng: random.Random | None = None) -> list[float]:
        """Seconds to wait before each of ``chars`` (the first includes thinking); not capped by ``max_s``."""
        rng = rng or random.Random()
        result = []
        previous = ""
        for i, char in enumerate(chars):
            base = (self.think_s if i == 0 else 0.0) + (self.per_char_s + self._pause(previous))
            result.append(base * (1.0 + rng.uniform(-self.jitter, self.jitter)))
            previous = char
        return result

    @classmethod
    def from_settings(cls, settings: Mapping) -> TypingModel:
        """Read the optional typing keys of an entry's settings (other keys are ignored)."""
        return cls(**{key: s.clean(key, settings[key]) for key, s in TYPING_SETTINGS.items() if key in settings})


# (largest value, help) of each key: a judge waits at most a few minutes for any reply
_BOUNDS = {
    "think_s": (120.0, "seconds of thinking before typing starts, up to 120"),
    "per_char_s": (2.0, "seconds of typing per character of the reply, up to 2"),
    "jitter": (1.0, "multiplicative noise on the delay, 0 (none) to 1"),
    "max_s": (300.0, "longest delay in seconds, up to 300"),
    "word_pause_s": (5.0, "extra seconds for each character typed after a space or punctuation, up to 5"),
    "read_per_char_s": (1.0, "seconds of reading per character of the judge's message before typing starts, up to 1"),
}

TYPING_SETTINGS: dict[str, Setting] = {
    f.name: number_setting(f.default, maximum=_BOUNDS[f.name][0], help=_BOUNDS[f.name][1]) for f in fields(TypingModel)
}


# --- the "is typing" signals a judge sees ------------------------------------------------------------

TYPING_GAP_S = (1.6, 2.8)  # seconds between two signals, drawn uniformly: the same for every witness
TYPING_FRESH_S = 3.0  # a person counts as typing this long after their console's last typing frame
CADENCE_RNG = random.Random()  # the draws of the gaps (a test seeds its own)

log = logging.getLogger(__name__)


def typing_gap(rng: random.Random | None = None) -> float:
    """Seconds until the next "is typing" signal, for a person's typing and a machine's alike."""
    return (rng or CADENCE_RNG).uniform(*TYPING_GAP_S)


class TypingRelay:
    """One person's "is typing" signals, re-timed to the one cadence: :meth:`seen` on each typing frame of
    their console (the first of a spell is signalled at once), :meth:`stop` when they send their message,
    :meth:`cancel` when they leave. ``signal``: an awaitable that shows them typing; ``clock`` and ``sleep``:
    the event loop's (a test passes its own)."""

    def __init__(
        self,
        *,
        signal: Callable[[], Awaitable],
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable] = asyncio.sleep,
        rng: random.Random | None = None,
    ):
        self.signal, self.clock, self.sleep, self.rng = signal, clock, sleep, rng
        self.last_seen = -math.inf
        self.task: asyncio.Future | None = None

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    async def seen(self) -> None:
        """A typing frame: noted; signalled now when no spell runs (what the signal raises reaches the
        caller), else only at the spell's next turn."""
        self.last_seen = self.clock()
        if self.running:
            return
        await self.signal()
        self.task = asyncio.ensure_future(self._spell())

    def stop(self) -> None:
        """Their message is sent: no signal after it until they type again."""
        self.last_seen = -math.inf

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _spell(self) -> None:
        while True:
            await self.sleep(typing_gap(self.rng))
            if self.clock() - self.last_seen > TYPING_FRESH_S:
                return
            try:
                await self.signal()
            except Exception:  # the conversation ended or the connection went: the spell ends with it
                log.info("a typing signal failed; the spell ends", exc_info=True)
                return
