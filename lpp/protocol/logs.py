"""JComm transcript logs (docs/reference/protocols.md): a lenient reader of the 2009 and 2012
formats and a writer of the 2012 format.

2012, one line per key:  ``J3 013370740830274430 judge left T``
2009, one line per key:  ``J2 <received> <sent> local|remote left|right H``

Quirks handled: CRLF or LF, a byte order mark, bytes that are not UTF-8, blank
judge/round in the header, a header glued to a cut last line (a new session
starts there), a file cut off inside its last line (reported), an empty file,
a truncated line, stamps out of order between
senders or unpadded, a literal one-character key name, lenient names, unknown
names (kept with ``char=None`` and reported in ``Transcript.problems``).
Nothing here raises on bad input (tests/lpp/test_log_quirks.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TextIO

from lpp.protocol.keys import char_for
from lpp.protocol.model import JUDGE, OTHER, Keystroke, Transcript
from lpp.protocol.stamps import stamp_time

TITLE_MARK = "Loebner Prize"
DEFAULT_TITLE = "Loebner Prize Protocol log"
DEFAULT_NOTICE = "These transcripts are in the public domain"

_KEY_2012 = re.compile(r"J(?P<judge>\S*) (?P<stamp>\d+) (?P<sender>\S+) (?P<side>left|right)(?: (?P<key>.*))?$")
_KEY_2009 = re.compile(
    r"J(?P<judge>\S*) (?P<received>\d+) (?P<stamp>\d+) (?P<who>local|remote) (?P<side>left|right)(?: (?P<key>.*))?$"
)
_JUDGE_HEADER = re.compile(r"Transcripts of judge ?(?P<judge>\S*) program (?P<program>\S*) round ?(?P<round>\S*)\s*$")
_PROGRAM_HEADER = re.compile(r"Transcripts of program (?P<program>\S+)")
_LEFT_HEADER = re.compile(r"Left =\s*(?P<left>\w*)")
_ROUND_2009 = re.compile(
    r"\*Starting round (?P<round>\S+) program (?P<program>\S+) human \S+ "
    r"judge J?(?P<judge>\S+) left is (?P<left>\S+)"
)


def read_log(path: str | Path) -> list[Transcript]:
    """Every judge session in a log file (usually one; 2009 files hold many)."""
    text = Path(path).read_bytes().decode("utf-8", errors="replace")
    return parse_log(text, source=str(path))


def parse_log(text: str, source: str = "") -> list[Transcript]:
    reader = _Reader(source)
    text = text.removeprefix("\ufeff")  # a byte order mark, as Windows editors write
    lines = text.replace("\r\n", "\n").split("\n")
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r")
        cut = line.find(TITLE_MARK)
        if cut > 0:  # a cut last line with the next file's header glued on
            reader.problem(number, f"truncated line {line[:cut]!r}")
            line = line[cut:]
        session, known = reader.current, len(reader.current.problems)
        reader.line(number, line)
        if number == len(lines) and line.strip():  # JComm ended every line: this file was cut off
            del session.problems[known:]
            reader.problem(number, f"the file is cut off inside its last line {line[:60]!r}")
    return reader.done()


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.sessions: list[Transcript] = []
        self.current = self._new()

    def _new(self, **fields) -> Transcript:
        transcript = Transcript(source=self.source, **fields)
        self.sessions.append(transcript)
        return transcript

    def problem(self, number: int, message: str) -> None:
        self.current.problems.append(f"line {number}: {message}")

    def line(self, number: int, line: str) -> None:
        cur = self.current
        if line.startswith(TITLE_MARK):
            if cur.keystrokes or cur.title:
                cur = self.current = self._new()
            cur.title = line
        elif match := _KEY_2012.match(line):
            self.keystroke(number, match, sender=JUDGE if match["sender"] == JUDGE else OTHER)
            if match["sender"] != JUDGE and not cur.program:
                cur.program = match["sender"]
        elif match := _KEY_2009.match(line):
            cur.format = "2009"
            self.keystroke(number, match, sender=JUDGE if match["who"] == "local" else OTHER)
        elif match := _JUDGE_HEADER.match(line):
            cur.judge, cur.program, cur.round = match["judge"], match["program"], match["round"]
        elif match := _LEFT_HEADER.match(line):
            cur.left = match["left"].lower()
        elif match := _ROUND_2009.match(line):
            self.round_2009(match)
        elif match := _PROGRAM_HEADER.match(line):
            cur.program = match["program"]
        elif line.startswith("**") or not line.strip():
            pass  # 2009 sub-round markers carry nothing the key lines lack
        elif cur.title and not cur.notice and not cur.keystrokes:
            cur.notice = line
        else:
            self.problem(number, f"unrecognised line {line!r}")

    def round_2009(self, match: re.Match) -> None:
        cur = self.current
        if cur.keystrokes or cur.round:
            cur = self.current = self._new(title=cur.title, notice=cur.notice)
        cur.format = "2009"
        cur.round, cur.program, cur.judge = match["round"], match["program"], match["judge"]
        cur.left = "program" if match["left"] == match["program"] else "human"

    def keystroke(self, number: int, match: re.Match, sender: str) -> None:
        cur = self.current
        key = match["key"] or ""
        if len(key) > 1 or not key.strip():
            key = key.strip() or key[:1]  # "H " -> "H"; keep a literal " "
        if not key:
            self.problem(number, "keystroke line without a key name, skipped")
            return
        char = char_for(key)
        if char is None:
            self.problem(number, f"unknown key name {key!r}")
        if not cur.judge:
            cur.judge = match["judge"]
        stamp = match["stamp"]
        cur.keystrokes.append(
            Keystroke(
                sender=sender,
                key=key,
                char=char,
                stamp=stamp,
                time=stamp_time(stamp),
                side=match["side"],
                received=match.groupdict().get("received") or "",
            )
        )

    def done(self) -> list[Transcript]:
        return [t for t in self.sessions if t.keystrokes or t.title or t.program]


# --------------------------------------------------------------------- writer


def header_lines(transcript: Transcript) -> list[str]:
    """The four header lines of the 2012 format."""
    return [
        transcript.title or DEFAULT_TITLE,
        transcript.notice or DEFAULT_NOTICE,
        f"Transcripts of judge {transcript.judge} program {transcript.program} round {transcript.round}",
        f"Left ={transcript.left} ",
    ]


def keystroke_line(transcript: Transcript, key: Keystroke) -> str:
    sender = JUDGE if key.sender == JUDGE else transcript.program
    return f"J{transcript.judge} {key.stamp} {sender} {key.side} {key.key}"


def format_2012(transcript: Transcript) -> str:
    """The whole session in the 2012 JComm format (CRLF line endings)."""
    lines = header_lines(transcript) + [keystroke_line(transcript, k) for k in transcript.keystrokes]
    return "".join(line + "\r\n" for line in lines)


def write_2012(transcript: Transcript, path: str | Path) -> None:
    Path(path).write_bytes(format_2012(transcript).encode("utf-8"))


class LogWriter:
    """Writes a 2012-format log as a session goes, one flushed line per key, so an
    interrupted session still leaves a readable log."""

    def __init__(self, stream: TextIO, transcript: Transcript) -> None:
        self.stream = stream
        self.transcript = transcript
        for line in header_lines(transcript):
            self._line(line)

    def write(self, key: Keystroke) -> None:
        self._line(keystroke_line(self.transcript, key))

    def _line(self, line: str) -> None:
        self.stream.write(line + "\r\n")
        self.stream.flush()
