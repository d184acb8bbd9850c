"""How faithfully a reading of a JComm log matches what each sender's window showed (no Django).

    python -m lpp.protocol.fidelity LOGFILE...

JComm gave every sender a window of their own, in which each key appended a character and each BackSpace
deleted the last one, a Return included. What a window showed at the end is the truth a reading of the
log is measured against, sender by sender and side by side:

- ``letters_apart``: two word characters (letters, digits, an apostrophe) next to each other in the
  window but read into two messages; ``words_split``: those of them inside one word (the second no
  capital after a small letter or digit: ``HelloHow`` is two words typed without a space) between which
  the other party began no line (a turn answered is no word);
- ``deleted_surviving``: characters a later BackSpace deleted that a message still shows;
- ``retyped_doubled``: those of them that the sender typed again in the same place (``day.`` / ``y. Yeah``);
- ``lost``: characters the window showed that no message shows;
- ``returns_deleted``: Returns a BackSpace deleted between two characters the window still showed at the
  end (the window joined two lines), and ``lines_joined``: how many of those joins the reading kept.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, fields

from lpp.protocol import cli
from lpp.protocol.keys import BACKSPACE, RETURN
from lpp.protocol.lines import line_starts, replied, transcript_utterances
from lpp.protocol.logs import read_log
from lpp.protocol.model import Keystroke, Transcript, Utterance
from lpp.protocol.stamps import sort_per_sender
from lpp.protocol.window import Window, in_word, inside_word, window


@dataclass
class Counts:
    letters_apart: int = 0
    words_split: int = 0
    deleted_surviving: int = 0
    retyped_doubled: int = 0
    lost: int = 0
    returns_deleted: int = 0
    lines_joined: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def items(self) -> list[tuple[str, int]]:
        return [(f.name, getattr(self, f.name)) for f in fields(self)]


def kept(utterance: Utterance) -> list[Keystroke]:
    """The keys whose characters a message shows: its keys with its own BackSpaces applied, Returns dropped."""
    out: list[Keystroke] = []
    for key in utterance.keystrokes:
        if key.char == BACKSPACE:
            if out:
                out.pop()
        elif key.char:
            out.append(key)
    return [k for k in out if k.char != RETURN]


def idle(sender: str, keys: list[Keystroke]) -> float:
    """The silence that ends a line of ``sender`` (as the importer reads a log): 60 s for a sender who
    pressed Return on that side, 5 s for one who never did."""
    return 60.0 if any(k.sender == sender and k.char == RETURN for k in keys) else 5.0


def measure(transcript: Transcript, read: Callable[[Transcript, str], list[Utterance]]) -> Counts:
    """The counts of one session read by ``read(transcript, side)``."""
    total = Counts()
    for side in transcript.sides:
        keys = sort_per_sender(k for k in transcript.keystrokes if k.side == side)
        lines = read(transcript, side)
        for sender in dict.fromkeys(k.sender for k in keys):
            own = [u for u in lines if u.sender == sender]
            others = sorted(
                t
                for other in dict.fromkeys(k.sender for k in keys)
                if other != sender
                for t in line_starts([k for k in keys if k.sender == other], idle(other, keys))
            )
            total += _sender_counts(window(k for k in keys if k.sender == sender), own, others)
    return total


def _sender_counts(screen: Window, lines: list[Utterance], others: list[float]) -> Counts:
    line_of = {id(k): n for n, u in enumerate(lines) for k in kept(u)}
    shown = {id(k) for k in screen.shown}
    deleted = {id(k) for k in screen.deleted if k.char != RETURN} - shown
    surviving = deleted & line_of.keys()
    counts = Counts(
        deleted_surviving=len(surviving),
        retyped_doubled=len(surviving & {id(k) for k in screen.retyped}),
        lost=sum(1 for k in screen.shown if k.char != RETURN and not k.char.isspace() and id(k) not in line_of),
    )
    for left, right in zip(screen.shown, screen.shown[1:]):
        if in_word(left.char) and in_word(right.char) and id(left) in line_of and id(right) in line_of:
            if line_of[id(left)] != line_of[id(right)]:
                counts.letters_apart += 1
                word = inside_word(left.char, right.char)
                counts.words_split += word and not replied(others, left.time, right.time)
    for _return, position in screen.returns_deleted:  # the window's neighbours, at the end, across the join
        if 0 < position < len(screen.shown):
            left, right = screen.shown[position - 1], screen.shown[position]
            if RETURN not in (left.char, right.char) and id(left) in line_of and id(right) in line_of:
                counts.returns_deleted += 1
                counts.lines_joined += line_of[id(left)] == line_of[id(right)]
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lpp.protocol.fidelity", description=__doc__.split("\n\n")[0])
    parser.add_argument("logfiles", nargs="+", type=cli.existing_file, metavar="LOGFILE")
    args = parser.parse_args(argv)
    total = Counts()
    for path in args.logfiles:
        counts = Counts()
        for transcript in read_log(path):
            counts += measure(transcript, transcript_utterances)
        total += counts
        print(f"{path.name}: " + ", ".join(f"{name} {value}" for name, value in counts.items()))
    print("total: " + ", ".join(f"{name} {value}" for name, value in total.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
