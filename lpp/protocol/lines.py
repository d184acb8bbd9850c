"""From keystrokes to lines: BackSpace per sender, and where an utterance ends
(docs/reference/protocols.md). An utterance ends at the sender's ``Return``; at a change of
speaker, when the other party starts or finishes a line while this sender has
paused for at least ``floor_gap`` seconds (both sides may type at once, so a
mere interleaving of keys is no change of speaker); or after ``idle_timeout``
seconds without a key from that sender (a 2012 program never sent ``Return``).

These streaming rules are what the live bridge uses: it cannot wait for a sender's next key. A log is read
as JComm showed it on screen (``faithful=True``, what the importer and the replay use; :func:`window_lines`):
every sender had a window of their own, so a line ends only where the window showed a Return or where the
floor changed hands between words, and nothing a BackSpace deleted survives."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping

from lpp.protocol.keys import BACKSPACE, RETURN
from lpp.protocol.model import Keystroke, Transcript, Utterance
from lpp.protocol.stamps import sort_per_sender
from lpp.protocol.window import inside_word, window


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
        keep_empty: bool = False,
    ) -> None:
        self.idle_timeout = idle_timeout
        self.idle_timeouts = dict(idle_timeouts or {})
        self.floor_gap = floor_gap
        self.keep_empty = keep_empty
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
        """Lines idle at ``now``."""
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
        return self._emit(sender, self._open.pop(sender, []), why)

    def _emit(self, sender: str, keys: list[Keystroke], why: str) -> list[Utterance]:
        text = apply_backspace(k.char for k in keys).strip()
        if not text and not (self.keep_empty and keys):
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


def segment(keystrokes: Iterable[Keystroke], faithful: bool = False, **options) -> list[Utterance]:
    """All utterances of an ordered keystroke stream, ordered by end time; ``faithful``: as the senders'
    windows showed them (:func:`window_lines`)."""
    if faithful:
        return window_lines(list(keystrokes), **options)
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


def window_lines(keys: list[Keystroke], *, floor_gap: float = 2.0, **options) -> list[Utterance]:
    """The lines of an ordered keystroke stream (one screen side) as the senders' windows showed them,
    ordered by end time. ``options`` are :class:`Segmenter`'s idle timeouts.

    - a Return the window still showed ends a line; a Return a BackSpace deleted joins the lines it separated;
    - the streaming rules (change of speaker, idle) cut only between characters the window showed, and a cut
      goes away where the sender's BackSpace went back over it;
    - neither rule cuts inside a word (between two letters, digits or apostrophes, the second no capital
      after a small letter), except a change of speaker where the other party began a line after this
      line's last character (a line the other began earlier and finished while this sender paused is no
      answer to it);
    - every key (BackSpaces and deleted characters too) belongs to exactly one line, so no deleted character
      survives and none is typed twice."""
    segmenter = Segmenter(floor_gap=floor_gap, keep_empty=True, **options)
    pieces = [u for key in keys for u in segmenter.feed(key)] + segmenter.flush()
    senders = list(dict.fromkeys(k.sender for k in keys))
    starts = {
        s: line_starts([k for k in keys if k.sender == s], segmenter.idle_timeouts.get(s, segmenter.idle_timeout))
        for s in senders
    }
    result: list[Utterance] = []
    for sender in senders:
        own = [k for k in keys if k.sender == sender]
        others = sorted(t for s in senders if s != sender for t in starts[s])
        result += _lines(own, [p for p in pieces if p.sender == sender], others)
    return sorted(result, key=lambda u: u.ended or 0.0)


def line_starts(keys: list[Keystroke], idle: float | None) -> list[float]:
    """When one sender began lines: the first character they typed, the first after their Return or after
    a silence longer than ``idle``."""
    times, fresh, last = [], True, None
    for key in keys:
        if idle is not None and last is not None and key.time is not None and key.time - last > idle:
            fresh = True
        last = key.time if key.time is not None else last
        if key.char == RETURN:
            fresh = True
        elif key.char and key.char != BACKSPACE and fresh:
            if key.time is not None:
                times.append(key.time)
            fresh = False
    return times


def replied(others: list[float], after: float | None, before: float | None) -> bool:
    """Whether the other party began a line between two keys of this sender."""
    if after is None or before is None:
        return True
    i = bisect.bisect_right(others, after)
    return i < len(others) and others[i] < before


def _lines(keys: list[Keystroke], pieces: list[Utterance], others: list[float]) -> list[Utterance]:
    """One sender's lines: the streaming pieces re-cut where the window showed them."""
    position = {id(k): i for i, k in enumerate(keys)}
    pieces.sort(key=lambda p: min(position[id(k)] for k in p.keystrokes))
    piece_of = {id(k): n for n, p in enumerate(pieces) for k in p.keystrokes}
    screen = window(keys)
    if not screen.shown:
        return []
    # a cut between pieces i and i + 1 goes away where a BackSpace of a later piece deleted a key of piece i
    reopened: set[int] = set()
    for dropped in screen.deleted:
        first, last = piece_of.get(id(dropped)), piece_of.get(id(screen.deleter[id(dropped)]))
        if first is not None and last is not None:
            reopened.update(range(first, last))
    starts: list[int] = []  # index in ``keys`` where each line after the first begins
    why: list[str] = []  # what ended each line
    for left, right in zip(screen.shown, [*screen.shown[1:], None]):
        a, b = piece_of.get(id(left)), piece_of.get(id(right)) if right else None
        if left.char == RETURN:
            cut, reason = True, "Return"
        elif right is None:
            cut, reason = False, ""
        elif a is None or b is None or a == b or any(n in reopened for n in range(a, b)):
            cut, reason = False, ""
        else:
            reason = pieces[a].ended_by
            word = inside_word(left.char, right.char)
            cut = not word or (reason == "speaker" and replied(others, left.time, right.time))
        if cut:  # the next line begins after this piece's last key (what follows ``left`` in it was deleted)
            starts.append(
                max(position[id(k)] for k in pieces[a].keystrokes) + 1 if a is not None else position[id(left)] + 1
            )
            why.append(reason)
    shown = {id(k) for k in screen.shown}
    bounds = [0, *starts, len(keys)]
    ends = [*why, "end"]
    lines = []
    for n, (begin, end) in enumerate(zip(bounds, bounds[1:])):
        own = keys[begin:end]
        text = "".join(k.char for k in own if id(k) in shown and k.char != RETURN)
        if own and text.strip():
            lines.append(
                Utterance(
                    sender=own[0].sender,
                    text=text.strip(),
                    started=own[0].time,
                    ended=own[-1].time,
                    side=own[0].side,
                    ended_by=ends[n],
                    keystrokes=tuple(own),
                )
            )
    return lines
