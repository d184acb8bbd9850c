"""A terminal judge program for one LPP link, playing the role of JComm.

    python -m lpp.protocol.judge DIR [--log FILE] [--program NAME]

Each line typed on standard input is sent key by key (``*.judge``) followed by
``Return``; the other side's keys (``*.other``) are read, deleted and shown as
utterances (``--live`` shows them key by key). With ``--log`` every key of both
sides is written in the 2012 JComm log format. After standard input ends the
program waits for the other side's answer to the last line (at most ``--wait``
seconds), then until the other side has been quiet for ``--linger`` seconds.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from dataclasses import replace

from bots.typing_delay import TypingModel
from lpp.protocol import cli
from lpp.protocol.lines import Segmenter
from lpp.protocol.logs import LogWriter
from lpp.protocol.model import JUDGE, Keystroke, Transcript
from lpp.protocol.transport import CommDir, Watcher


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lpp.protocol.judge", description=__doc__.split("\n\n")[0])
    cli.add_transport_args(parser)
    parser.add_argument("--log", help="write a 2012-format JComm log of both sides here")
    parser.add_argument("--program", default="other", help="name of the other side in the log")
    parser.add_argument("--judge", default="1", help="judge number in the log (default 1)")
    parser.add_argument("--round", default="1", help="round number in the log (default 1)")
    parser.add_argument("--side", choices=("left", "right"), default="left", help="screen side of this link")
    parser.add_argument(
        "--other-is", choices=("program", "human", ""), default="", help="what the other side is, for the log header"
    )
    parser.add_argument(
        "--idle",
        type=cli.seconds,
        default=5.0,
        help="seconds without a key that end the other side's utterance (default 5)",
    )
    parser.add_argument(
        "--linger",
        type=cli.seconds,
        default=10.0,
        help="after the answer to the last line, exit once the other side is quiet this long (default 10)",
    )
    parser.add_argument(
        "--wait",
        type=cli.seconds,
        default=60.0,
        help="after input ends, wait at most this long for an answer (default 60)",
    )
    parser.add_argument("--live", action="store_true", help="show the other side key by key")
    cli.add_typing_args(parser, TypingModel.fast())
    return parser


class Judge:
    def __init__(self, comm: CommDir, log: LogWriter | None, side: str, idle: float, live: bool) -> None:
        self.comm, self.log, self.side, self.live = comm, log, side, live
        self.segmenter = Segmenter(idle_timeout=idle)
        self.lock = threading.Lock()
        self.last_heard = time.monotonic()
        self.answered = True  # has the other side finished a line since the judge's last one?

    def record(self, key: Keystroke) -> None:
        key = Keystroke(key.sender, key.key, key.char, key.stamp, key.time, side=self.side)
        with self.lock:
            if self.log:
                self.log.write(key)
            if key.sender == JUDGE:
                self.answered = self.answered and key.char != "\n"
                return
            self.last_heard = time.monotonic()
            if self.live:
                shown = "\b \b" if key.char == "\b" else key.char
                sys.stdout.write(shown)
                sys.stdout.flush()
            self.show(self.segmenter.feed(replace(key, time=self.comm.clock())))  # local clock

    def show(self, utterances) -> None:
        for utterance in utterances:
            self.answered = True
            cli.say(f"{'' if not self.live else chr(10)}other: {utterance.text}")

    def listen(self, watcher: Watcher, stop: threading.Event) -> None:
        while not stop.is_set():
            for key in watcher.get(timeout=0.2):
                self.record(key)
            with self.lock:
                self.show(self.segmenter.expire(self.comm.clock()))
        with self.lock:
            self.show(self.segmenter.flush())


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    model = cli.typing_model(parser, args)
    cli.stop_on_sigterm()
    comm = CommDir(args.directory, side=JUDGE)
    other = args.other_is
    left = other if args.side == "left" else {"program": "human", "human": "program"}.get(other, "")
    log_file = open(args.log, "w", encoding="utf-8", newline="") if args.log else None
    header = Transcript(program=args.program, judge=args.judge, round=args.round, left=left)
    judge = Judge(comm, LogWriter(log_file, header) if log_file else None, args.side, args.idle, args.live)
    stop = threading.Event()
    with Watcher(comm, mode=args.watch) as watcher:
        listener = threading.Thread(target=judge.listen, args=(watcher, stop), daemon=True)
        listener.start()
        try:
            for line in sys.stdin:
                comm.send_text(line.rstrip("\r\n"), model, on_key=judge.record)
            end_of_input = time.monotonic()
            while time.monotonic() - end_of_input < args.wait:
                if judge.answered and time.monotonic() - judge.last_heard >= args.linger:
                    break
                time.sleep(0.05)
        except KeyboardInterrupt:
            pass
        finally:
            stop.set()
            listener.join(timeout=5)
            if log_file:
                log_file.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
