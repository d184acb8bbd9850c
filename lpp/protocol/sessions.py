"""Judge sessions read from what a contest left behind as whole lines (no Django): the reference LPP2
server's round logs (:mod:`lpp.protocol.round_log`) and published text transcripts
(:mod:`lpp.protocol.text_transcript`). A JComm log keeps every key instead (:mod:`lpp.protocol.logs`).

:func:`detect` tells the formats apart from a file's first bytes and lines, or says why it reads none."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from lpp.protocol.model import JUDGE, OTHER

__all__ = ["JUDGE", "OTHER", "Line", "Party", "Session", "UnreadableInput", "detect"]

HUMAN, PROGRAM = "human", "program"


class UnreadableInput(ValueError):
    """Input that no reader can use; the message says why."""


@dataclass(frozen=True)
class Line:
    """One message: ``sender`` is ``JUDGE`` or ``OTHER``; ``time`` seconds since the epoch, or seconds
    from the session's first stamp when the source gives only a clock (``None``: no time)."""

    sender: str
    text: str
    time: float | None = None


@dataclass
class Party:
    """The judge's partner in one conversation: its name in the source, ``human``/``program``/``""``
    (not stated), the screen side if the source says it (``left``/``right``), and the lines."""

    name: str
    role: str = ""
    side: str = ""
    lines: list[Line] = field(default_factory=list)


@dataclass
class Session:
    format: str
    judge: str = ""
    round: str = ""
    title: str = ""
    parties: list[Party] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def party(self, name: str, role: str = "", side: str = "") -> Party:
        for party in self.parties:
            if party.name == name and party.side == side:
                return party
        party = Party(name, role, side)
        self.parties.append(party)
        return party


_KEY_LINE = re.compile(r"J\S* \d+ (?:\d+ (?:local|remote)|\S+) (?:left|right)(?: |$)")
_JCOMM_HEADER = re.compile(r"(Transcripts of (judge|program) |\*Starting round |Left =)")
SPEAKER = re.compile(
    r"^\s*(?:\[(?P<stamp>[^\]]{1,40})\]\s*|(?P<clock>\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?)\s+)?"
    r"(?P<speaker>[A-Za-z][\w.'-]*(?: [\w.'-]+){0,2})\s*:(?: (?P<text>.*)|$)"
)


def detect(data: bytes) -> str:
    """``"jcomm"``, ``"lpp2"`` or ``"text"``; :class:`UnreadableInput` with the reason otherwise."""
    if not data.strip():
        raise UnreadableInput("the file is empty")
    if data.startswith(b"%PDF"):
        raise UnreadableInput("a PDF file: extract its text first (for example with pdftotext) and import that")
    if b"\x00" in data[:65536]:
        raise UnreadableInput("a binary file, not text")
    lines = [line.strip() for line in data.decode("utf-8", errors="replace").splitlines() if line.strip()]
    head = lines[:200]
    if any(_KEY_LINE.match(line) or _JCOMM_HEADER.match(line) for line in head):
        return "jcomm"
    if head and head[0].startswith("{"):
        try:
            first = json.loads(head[0])
        except ValueError:
            first = None
        if isinstance(first, dict) and {"id", "to", "content"} <= first.keys():
            return "lpp2"
    if any(SPEAKER.match(line) for line in lines):
        return "text"
    raise UnreadableInput(
        "not a JComm log, a round log of the LPP2 reference server or a transcript of 'Speaker: text' lines"
    )
