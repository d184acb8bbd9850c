"""One sender's window as JComm showed it (no Django; docs/reference/protocols.md): every sender had a
window of their own, in which each key appended a character and each BackSpace deleted the last one, a
Return included. :func:`window` replays one sender's keys so; the faithful reading of a log
(:func:`lpp.protocol.lines.window_lines`) and the fidelity counts (:mod:`lpp.protocol.fidelity`) start from it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lpp.protocol.keys import BACKSPACE, RETURN
from lpp.protocol.model import Keystroke


def in_word(char: str | None) -> bool:
    """A character that belongs to a word: a letter, a digit or an apostrophe."""
    return bool(char) and len(char) == 1 and (char.isalnum() or char == "'")


def inside_word(left: str | None, right: str | None) -> bool:
    """Whether two characters typed one after the other are inside one word: both word characters, and
    the second no capital after a small letter or digit (``HelloHow``: a turn typed without a space)."""
    if not (in_word(left) and in_word(right)):
        return False
    return not (right.isupper() and not left.isupper())


@dataclass
class Window:
    """One sender's window at the end: the keys whose characters it still showed (in order), and what the
    BackSpaces did on the way."""

    shown: list[Keystroke]
    deleted: list[Keystroke]
    retyped: list[Keystroke]  # deleted, then the same character typed again in the same place
    returns_deleted: list[tuple[Keystroke, int]]  # a deleted Return and the window's length at its deletion
    deleter: dict[int, Keystroke]  # id(deleted key) -> the BackSpace that deleted it


def window(keys: Iterable[Keystroke]) -> Window:
    """Replay one sender's keys (in order) as their window showed them."""
    screen = Window([], [], [], [], {})
    gone: dict[int, Keystroke] = {}  # window position -> the key last deleted there
    for key in keys:
        if key.char == BACKSPACE:
            if screen.shown:
                dropped = screen.shown.pop()
                screen.deleted.append(dropped)
                screen.deleter[id(dropped)] = key
                gone[len(screen.shown)] = dropped
                if dropped.char == RETURN:
                    screen.returns_deleted.append((dropped, len(screen.shown)))
        elif key.char:
            before = gone.pop(len(screen.shown), None)
            if before is not None and before.char == key.char:
                screen.retyped.append(before)
            screen.shown.append(key)
    return screen
