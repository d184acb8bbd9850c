"""Published transcripts as text (no Django; docs/reference/protocols.md): one message a line, led by its
speaker, as contests printed them and as ``python -m lpp.protocol.replay`` writes them::

    [10:02:33] Judge: Hello, how are yuo~~ou?
    Entry: Fine thanks.
    [01:12.5 typing 3.1s] human: and you

- the speaker: ``Judge``, ``Interrogator``, ``J3`` or ``Judge 3`` is the judge; ``Human``, ``Confederate``,
  ``C2``, ``conf1`` a human partner; ``Entry``, ``Program``, ``Bot``, ``Computer``, ``E1``, ``ai0`` a
  program; any other name is a partner whose nature the transcript does not state;
- an optional time in brackets or before the speaker (``hh:mm:ss``, ``mm:ss.s``) orders nothing but is kept
  as the message's time, counted from the first;
- ``~`` is a BackSpace (it deletes the character before it) unless ``tilde="literal"``;
- a line without a speaker continues the message before it (a new line in the message); lines before the
  first message are the title; a judge's line belongs to the conversation of the partner who spoke last;
- the replay's ``== title (judge 3, program P, round 1, left human) ==`` starts a session and
  ``-- left (human) --`` a conversation on that screen side.
"""

from __future__ import annotations

import re

from lpp.protocol.sessions import HUMAN, JUDGE, OTHER, PROGRAM, SPEAKER, Line, Party, Session, UnreadableInput

_JUDGE = re.compile(r"(judge|interrogator)( ?\d+)?|j\d+", re.IGNORECASE)
_HUMAN = re.compile(r"human|confederate|person|c\d+|conf\d+", re.IGNORECASE)
_PROGRAM = re.compile(r"entry|program|bot|chatbot|computer|machine|ai\d*|e\d+", re.IGNORECASE)
_TITLE = re.compile(r"^== (?P<title>.*?)(?: \((?P<fields>[^()]*)\))? ==$")
_SIDE = re.compile(r"^-- (?P<side>left|right|link)(?: \((?P<role>human|program)\))? --$")
_CLOCK = re.compile(r"(?:(?P<h>\d{1,2}):)?(?P<m>\d{1,2}):(?P<s>\d{2}(?:\.\d+)?)")
MAX_TEXT = 100_000


def role_of(speaker: str) -> str:
    """``judge``, ``human``, ``program`` or ``""`` (a name that does not say)."""
    for role, pattern in (("judge", _JUDGE), (HUMAN, _HUMAN), (PROGRAM, _PROGRAM)):
        if pattern.fullmatch(speaker.strip()):
            return role
    return ""


def backspaced(text: str) -> str:
    out: list[str] = []
    for char in text:
        if char == "~":
            if out:
                out.pop()
        else:
            out.append(char)
    return "".join(out)


def seconds(stamp: str | None) -> float | None:
    match = _CLOCK.search(stamp or "")
    if not match:
        return None
    return int(match["h"] or 0) * 3600 + int(match["m"]) * 60 + float(match["s"])


def parse_text(text: str, tilde: str = "backspace") -> list[Session]:
    """The sessions of a text transcript; :class:`UnreadableInput` if no line is a message."""
    reader = _Reader(tilde)
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        reader.line(number, line.rstrip())
    sessions = [s for s in reader.sessions if any(p.lines for p in s.parties)]
    if not sessions:
        raise UnreadableInput("no line of the form 'Speaker: text' (not a transcript?)")
    for session in sessions:
        session.parties = [p for p in session.parties if p.lines]
    return sessions


class _Reader:
    def __init__(self, tilde: str) -> None:
        self.tilde = tilde
        self.sessions = [Session("text")]
        self.side = ""
        self.role = ""
        self.last: tuple[list[Line], int] | None = None
        self.first: float | None = None
        self.spoke: Party | None = None  # the partner who spoke last

    @property
    def session(self) -> Session:
        return self.sessions[-1]

    def line(self, number: int, line: str) -> None:
        if match := _TITLE.match(line):
            self._new_session(match["title"], match["fields"] or "")
        elif match := _SIDE.match(line):
            self.side = "" if match["side"] == "link" else match["side"]
            self.role, self.last = match["role"] or "", None
        elif line.startswith("! ") or line.startswith("(no keystrokes"):
            pass  # the replay's list of what its reader could not use, or an empty session
        elif match := SPEAKER.match(line):
            self._message(number, match)
        elif self.last is not None:
            lines, index = self.last
            previous = lines[index]
            lines[index] = Line(previous.sender, self._text(previous.text + "\n" + line), previous.time)
        elif line.strip():
            if not self.session.title:
                self.session.title = line.strip()[:200]

    def _new_session(self, title: str, fields: str) -> None:
        session = self.session if not self.session.parties else Session("text")
        if session is not self.session:
            self.sessions.append(session)
        session.title = title[:200]
        values = dict(f.strip().split(" ", 1) for f in fields.split(",") if " " in f.strip())
        session.judge, session.round = values.get("judge", ""), values.get("round", "")
        self.side, self.role, self.last = "", "", None

    def _message(self, number: int, match: re.Match) -> None:
        speaker = match["speaker"].strip()
        role = role_of(speaker)
        time = seconds(match["stamp"] or match["clock"])
        if time is not None and self.first is None:
            self.first = time
        at = None if time is None or self.first is None else time - self.first
        text = self._text(match["text"] or "")
        if role == "judge":
            if not self.session.judge:
                self.session.judge = "".join(c for c in speaker if c.isdigit())
            party = self._judge_party()
            sender = JUDGE
        else:
            party = self.spoke = self._partner(speaker, self.role or role)
            sender = OTHER
        if len(text) > MAX_TEXT:
            self.session.problems.append(f"line {number}: a message longer than {MAX_TEXT} characters, cut")
            text = text[:MAX_TEXT]
        party.lines.append(Line(sender, text, at))
        self.last = (party.lines, len(party.lines) - 1)

    def _partner(self, name: str, role: str):
        """The partner's conversation; one the judge opened before the partner spoke takes its name."""
        for party in self.session.parties:
            if party.side == self.side and party.name in (name, ""):
                party.name, party.role = name, party.role or role
                return party
        return self.session.party(name, role, self.side)

    def _judge_party(self):
        """The conversation a judge's line belongs to: that of the partner who spoke last in this section,
        else one for the partner who has not spoken yet."""
        if self.spoke is not None and self.spoke.side == self.side and self.spoke in self.session.parties:
            return self.spoke
        return self.session.party("", self.role, self.side)

    def _text(self, text: str) -> str:
        return backspaced(text) if self.tilde == "backspace" else text
