"""From keystrokes to lines: BackSpace per sender, and where an utterance ends
(lpp.md §1.5). An utterance ends at the sender's ``Return``; at a change of
speaker, when the other party starts or finishes a line while this sender has
paused for at least ``floor_gap`` seconds (both sides may type at once, so a
mere interleaving of keys is no change of speaker); or after ``idle_timeout``
seconds without a key from that sender (a 2012 program never sent ``Return``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from lpp.protocol.keys import BACKSPACE, RETURN
from lpp.protocol.model import Keystroke, Transcript, Utterance
from lpp.protocol.stamps import sort_per_sender


def apply_backspace(chars: Iterable[str | None]) -> str:
    """Characters of one sender's line with each BackSpace deleting the previous
    character; unknown keys (``None``) and Returns are ignored."""
    line: list[str] = []
    for char in chars:
        if char == BACKSPACE:
            if line:
                line.pop()
        elif char and char != RETURN:
            line.append(char)
    return "".join(line)


class Segmenter:
    """Turns a keystroke stream (in order) into utterances, sender by sender.

    ``feed`` returns the utterances a keystroke closes; ``expire(now)`` those an
    idle timeout closes by ``now``; ``flush`` the rest. Empty lines are dropped.
    ``idle_timeouts`` overrides ``idle_timeout`` per sender (``None``: never)."""

    def __init__(self, idle_timeout: float | None = 8.0,
                 idle_timeouts: Mapping[str, float | None] | None = None,
                 floor_gap: float = 2.0) -> None:
        self.idle_timeout = idle_timeout
        self.idle_timeouts = dict(idle_timeouts or {})
        self.floor_gap = floor_gap
        self._open: dict[str, list[Keystroke]] = {}

    def feed(self, key: Keystroke) -> list[Utterance]:
        closed = self.expire(key.time) if key.time is not None else []
        line = self._open.setdefault(key.sender, [])
        starts_line = not line and key.char not in (RETURN, BACKSPACE, None)
        line.append(key)
        if key.char == RETURN:
            closed += self._close(key.sender, "Return")
        if key.char == RETURN or starts_line:  # the floor changes hands
            for sender, other in list(self._open.items()):
                if sender != key.sender and other and _paused(other, key.time, self.floor_gap):
                    closed += self._close(sender, "speaker")
        return closed

    def expire(self, now: float | None) -> list[Utterance]:
        if now is None:
            return []
        closed = []
        for sender, line in list(self._open.items()):
            timeout = self.idle_timeouts.get(sender, self.idle_timeout)
            if line and timeout is not None and _paused(line, now, timeout, strict=True):
                closed += self._close(sender, "idle")
        return closed

    def flush(self) -> list[Utterance]:
        closed = []
        for sender in list(self._open):
            closed += self._close(sender, "end")
        return closed

    def pending(self, sender: str) -> str:
        """The open line of ``sender`` so far, BackSpace applied."""
        return apply_backspace(k.char for k in self._open.get(sender, []))

    def _close(self, sender: str, why: str) -> list[Utterance]:
        keys = self._open.pop(sender, [])
        text = apply_backspace(k.char for k in keys).strip()
        if not text:
            return []
        return [Utterance(sender=sender, text=text, started=keys[0].time,
                          ended=keys[-1].time, side=keys[0].side, ended_by=why,
                          keystrokes=tuple(keys))]


def _paused(line: list[Keystroke], now: float | None, gap: float, strict: bool = False) -> bool:
    last = line[-1].time
    if last is None or now is None:
        return False
    return now - last > gap if strict else now - last >= gap


def segment(keystrokes: Iterable[Keystroke], **options) -> list[Utterance]:
    """All utterances of an ordered keystroke stream, ordered by end time."""
    segmenter = Segmenter(**options)
    result: list[Utterance] = []
    for key in keystrokes:
        result += segmenter.feed(key)
    result += segmenter.flush()
    return sorted(result, key=lambda u: u.ended or 0.0)


def transcript_utterances(transcript: Transcript, side: str | None = None, idle_timeout: float | None = 5.0,
                          long_idle: float | None = 60.0) -> list[Utterance]:
    """A session's utterances (of one side, or of all), ordered by end time. A sender that never pressed
    Return on that side (one 2012 program never did) ends a line after ``idle_timeout`` seconds of
    silence; one that did, only after ``long_idle`` seconds (a line left for minutes)."""
    result = []
    for s in [side] if side is not None else transcript.sides:
        keys = sort_per_sender(k for k in transcript.keystrokes if k.side == s)
        with_return = {k.sender for k in keys if k.char == "\n"}
        timeouts = {k.sender: long_idle if k.sender in with_return else idle_timeout for k in keys}
        result += segment(keys, idle_timeouts=timeouts)
    return sorted(result, key=lambda u: u.ended or 0.0)
