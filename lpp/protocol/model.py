"""The plain data model of LPP conversations (no Django): what a keystroke,
an utterance and a whole judge session are. A later importer maps these onto
the platform's conversations, keeping every keystroke and its stamp."""

from __future__ import annotations

from dataclasses import dataclass, field

JUDGE = "judge"
OTHER = "other"  # the entry or confederate side: the ``.other`` extension


@dataclass(frozen=True)
class Keystroke:
    """One key press. ``sender`` is ``"judge"`` or ``"other"``; ``key`` the name as
    written; ``char`` what it stands for (``"\\n"`` Return, ``"\\b"`` BackSpace,
    ``None`` for an unknown name); ``stamp`` the stamp as written; ``time`` seconds
    since the epoch (from a JComm stamp, else when it was read; ``None`` if
    unknown); ``side`` ``"left"``/``"right"`` in a judge session, ``""`` on a
    single link; ``received`` the receive stamp of 2009 logs."""

    sender: str
    key: str
    char: str | None
    stamp: str
    time: float | None
    side: str = ""
    received: str = ""


@dataclass(frozen=True)
class Utterance:
    """One line of one sender with BackSpace applied. ``ended_by`` says what closed
    it: ``"Return"``, ``"speaker"`` (the other party finished a line while this
    one paused), ``"idle"`` (idle timeout) or ``"end"`` (end of the stream)."""

    sender: str
    text: str
    started: float | None
    ended: float | None
    side: str = ""
    ended_by: str = "Return"
    keystrokes: tuple[Keystroke, ...] = ()

    def typed(self, backspace: str = "~") -> str:
        """The line as it was typed, each BackSpace shown as ``backspace``."""
        chars = (backspace if k.char == "\b" else k.char for k in self.keystrokes)
        return "".join(c for c in chars if c and c != "\n").strip()


@dataclass
class Transcript:
    """One judge session: the header fields of the log and every keystroke, in
    order. ``left`` is ``"human"`` or ``"program"`` (which side was the human is
    known only from this header), ``""`` when unknown."""

    program: str = ""
    judge: str = ""
    round: str = ""
    left: str = ""
    title: str = ""
    notice: str = ""
    format: str = "2012"
    keystrokes: list[Keystroke] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    source: str = ""

    @property
    def sides(self) -> list[str]:
        seen = dict.fromkeys(k.side for k in self.keystrokes)
        return [s for s in ("left", "right", "") if s in seen]

    def role_of(self, side: str) -> str:
        """``"human"``, ``"program"`` or ``""`` for the other party on ``side``."""
        if self.left not in ("human", "program") or side not in ("left", "right"):
            return ""
        flip = {"human": "program", "program": "human"}
        return self.left if side == "left" else flip[self.left]
