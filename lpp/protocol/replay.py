"""Render a JComm log (2009 or 2012 format) as a readable transcript.

    python -m lpp.protocol.replay LOGFILE [--side left|right] [--backspace]

One block per screen side; each utterance, in the order the lines were
finished, as ``[mm:ss.s typing N.Ns] speaker: text``: when the line was
finished, counted from the session's first key, and how long it took to type. BackSpace is applied, or
shown as ``~`` with ``--backspace``. Lines the reader could not use are listed at the end.
"""

from __future__ import annotations

import argparse

from lpp.protocol import cli
from lpp.protocol.lines import transcript_utterances
from lpp.protocol.logs import read_log
from lpp.protocol.model import JUDGE, Transcript, Utterance


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lpp.protocol.replay", description=__doc__.split("\n\n")[0])
    parser.add_argument("logfile", type=cli.existing_file, help="a JComm log file")
    parser.add_argument("--side", choices=("left", "right"), help="only this screen side")
    parser.add_argument("--backspace", action="store_true", help="show each BackSpace as ~ instead of applying it")
    parser.add_argument(
        "--idle",
        type=cli.seconds,
        default=5.0,
        help="seconds of silence that end a line of a sender who never presses Return",
    )
    return parser


def clock(seconds: float | None) -> str:
    if seconds is None:
        return "--:--.-"
    minutes, rest = divmod(max(seconds, 0.0), 60)
    return f"{int(minutes):02d}:{rest:04.1f}"


def speaker(transcript: Transcript, utterance: Utterance) -> str:
    if utterance.sender == JUDGE:
        return "judge"
    role = transcript.role_of(utterance.side)
    if role == "program" and transcript.program:
        return transcript.program
    return role or transcript.program or "other"


def render(transcript: Transcript, side: str | None = None, backspace: bool = False, idle: float = 5.0) -> list[str]:
    times = [k.time for k in transcript.keystrokes if k.time is not None]
    start = min(times) if times else None
    fields = [
        f"{name} {value}"
        for name, value in (
            ("judge", transcript.judge),
            ("program", transcript.program),
            ("round", transcript.round),
            ("left", transcript.left),
        )
        if value
    ]
    out = [f"== {transcript.title or 'LPP session'} ({', '.join(fields)}) =="]
    if not transcript.keystrokes:
        out.append("(no keystrokes: an aborted or empty session)")
    for s in [side] if side else transcript.sides:
        role = transcript.role_of(s)
        out.append(f"-- {s or 'link'}{f' ({role})' if role else ''} --")
        for u in transcript_utterances(transcript, s, idle_timeout=idle):
            at = None if u.ended is None or start is None else u.ended - start
            took = "" if u.started is None or u.ended is None else f" typing {u.ended - u.started:.1f}s"
            text = u.typed("~") if backspace else u.text
            out.append(f"[{clock(at)}{took}] {speaker(transcript, u)}: {text}")
    out += [f"! {problem}" for problem in transcript.problems]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    transcripts = read_log(args.logfile)
    if not transcripts:
        cli.warn(f"{args.logfile}: no LPP session found (not a JComm log?)")
        return 1
    for transcript in transcripts:
        for line in render(transcript, args.side, args.backspace, args.idle):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
