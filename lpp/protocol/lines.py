"""From keystrokes to lines: BackSpace per sender, and where an utterance ends
(docs/reference/protocols.md). An utterance ends at the sender's ``Return``; at a change of
speaker, when the other party starts or finishes a line while this sender has
paused for at least ``floor_gap`` seconds (both sides may type at once, so a
mere interleaving of keys is no change of speaker); or after ``idle_timeout``
seconds without a key from that sender (a 2012 program never sent ``Return``).

Read as JComm showed it on screen (``faithful=True``, what the importer uses; the live bridge cannot wait
for a sender's next key and keeps the streaming rules): a line the reader closed stays open to that
sender's next key. A BackSpace typed after the speaker-change or idle rule closed a line deletes from
that line (the screen showed one line), so no deleted text survives in a message; a BackSpace right after
``Return`` deletes the Return and joins the lines, as the screen did; and the idle rule does not split a
word: a line idle after a letter or digit goes on when the sender's next key is one too."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from lpp.protocol.keys import BACKSPACE, RETURN
from lpp.protocol.model import Keystroke, Transcript, Utterance
from lpp.protocol.stamps import sort_per_sender


def apply_backspace(chars: Iterable[str | None]) -> str:
    """Characters of one sender's line with each BackSpace deleting the previous
    character (a Return too, which joins the lines); unknown keys (``None``) are ignored,
    a Return left standing ends the line (it becomes nothing)."""
    line: list[str] = []
    for char in chars:
        if char == BACKSPACE:
            if line:
                line.pop()
        elif char:
            line.append(char)
    return "".join(c for c in line if c != RETURN)


def _wordy(char: str | None) -> bool:
    return bool(char) and len(char) == 1 and char.isalnum()


class Segmenter:
    """Turns a keystroke stream (in order) into utterances, sender by sender.

    ``feed`` returns the utterances a keystroke closes; ``expire(now)`` those an
    idle timeout closes by ``now``; ``flush`` the rest. Empty lines are dropped.
    ``idle_timeouts`` overrides ``idle_timeout`` per sender (``None``: never)."""

    def __init__(
        self,
        idle_timeout: float | None = 8.0,
        idle_timeouts: Mapping[str, float | None] | None = None,
        floor_gap: float = 2.0,
        faithful: bool = False,
    ) -> None:
        self.idle_timeout = idle_timeout
        self.idle_timeouts = dict(idle_timeouts or {})
        self.floor_gap = floor_gap
        self.faithful = faithful
        self._open: dict[str, list[Keystroke]] = {}
        self._held: dict[str, tuple[list[Keystroke], str]] = {}  # faithful: closed lines a BackSpace may reopen

    def feed(self, key: Keystroke) -> list[Utterance]:
        closed = self.expire(key.time, keep=key) if key.time is not None else []
        if self.faithful and key.sender in self._held and not self._open.get(key.sender):
            keys, why = self._held.pop(key.sender)
            if key.char == BACKSPACE:  # deletes from the line on screen: the closed line goes on
                self._open[key.sender] = [*keys, key]
                return closed
            closed += self._emit(key.sender, keys, why)
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

    def expire(self, now: float | None, keep: Keystroke | None = None) -> list[Utterance]:
        """Lines idle at ``now``. Faithful: a line idle after a letter or digit waits for its sender's next
        key (``keep``, the key being fed) and goes on if that key is a letter or digit too."""
        if now is None:
            return []
        closed = []
        for sender, line in list(self._open.items()):
            timeout = self.idle_timeouts.get(sender, self.idle_timeout)
            if line and timeout is not None and _paused(line, now, timeout, strict=True):
                if self.faithful and _wordy(self.pending(sender)[-1:]):
                    if keep is None or keep.sender != sender or _wordy(keep.char):
                        continue
                closed += self._close(sender, "idle")
        return closed

    def flush(self) -> list[Utterance]:
        closed = []
        for sender in list(self._open):
            closed += self._close(sender, "end")
        for sender, (keys, why) in list(self._held.items()):
            closed += self._emit(sender, keys, why)
        self._held.clear()
        return closed

    def pending(self, sender: str) -> str:
        """The open line of ``sender`` so far, BackSpace applied."""
        return apply_backspace(k.char for k in self._open.get(sender, []))

    def _close(self, sender: str, why: str) -> list[Utterance]:
        keys = self._open.pop(sender, [])
        if self.faithful and keys and why != "end":
            self._held[sender] = (keys, why)
            return []
        return self._emit(sender, keys, why)

    def _emit(self, sender: str, keys: list[Keystroke], why: str) -> list[Utterance]:
        text = apply_backspace(k.char for k in keys).strip()
        if not text:
            return []
        return [
            Utterance(
                sender=sender,
                text=text,
                started=keys[0].time,
                ended=keys[-1].time,
                side=keys[0].side,
                ended_by=why,
                keystrokes=tuple(keys),
            )
        ]


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


def transcript_utterances(
    transcript: Transcript,
    side: str | None = None,
    idle_timeout: float | None = 5.0,
    long_idle: float | None = 60.0,
    faithful: bool = True,
) -> list[Utterance]:
    """A session's utterances (of one side, or of all), ordered by end time. A sender that never pressed
    Return on that side (one 2012 program never did) ends a line after ``idle_timeout`` seconds of
    silence; one that did, only after ``long_idle`` seconds (a line left for minutes)."""
    result = []
    for s in [side] if side is not None else transcript.sides:
        keys = sort_per_sender(k for k in transcript.keystrokes if k.side == s)
        with_return = {k.sender for k in keys if k.char == "\n"}
        timeouts = {k.sender: long_idle if k.sender in with_return else idle_timeout for k in keys}
        result += segment(keys, idle_timeouts=timeouts, faithful=faithful)
    return sorted(result, key=lambda u: u.ended or 0.0)
