"""Run a bot engine as a Loebner Prize Protocol entry.

    python -m lpp.entry DIR --engine simple [--setting key=value ...]

Reads the judge's keys from DIR (``*.judge``, deleting each), takes a judge
utterance as finished at ``Return`` or after ``--idle`` seconds without a key,
asks the engine for a reply and types it back key by key (``*.other``) with a
human-like rhythm, ending with ``Return``. Stops on Ctrl-C or SIGTERM, or after
``--max-replies``.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace

from lpp import cli
from lpp.engines import EngineNotFound, get_engine, make_context
from lpp.lines import Segmenter
from lpp.model import JUDGE, OTHER, Utterance
from lpp.transport import CommDir, Watcher
from lpp.typing_model import TypingModel


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lpp.entry", description=__doc__.split("\n\n")[0])
    cli.add_transport_args(parser)
    parser.add_argument("--engine", required=True, help="engine name (bots registry, or 'echo')")
    parser.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                        help="an engine setting; VALUE is read as JSON when it parses, else as text")
    parser.add_argument("--idle", type=cli.seconds, default=10.0,
                        help="seconds without a judge key that end an utterance lacking Return (default 10)")
    parser.add_argument("--max-replies", type=int, default=None, help="exit after this many replies")
    cli.add_typing_args(parser, TypingModel())
    return parser


def parse_settings(parser: argparse.ArgumentParser, pairs: list[str]) -> dict:
    settings = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            parser.error(f"--setting wants KEY=VALUE, not {pair!r}")
        try:
            settings[key] = json.loads(value)
        except ValueError:
            settings[key] = value
    return settings


class Entry:
    """The reply loop, separate from the command line so it can be driven in-process."""

    def __init__(self, comm: CommDir, engine, model: TypingModel, idle: float = 10.0,
                 watch: str = "auto") -> None:
        self.comm, self.engine, self.model, self.watch = comm, engine, model, watch
        self.segmenter = Segmenter(idle_timeout=idle)
        self.history: list[Utterance] = []
        self.replies = 0

    def run(self, max_replies: int | None = None) -> None:
        with Watcher(self.comm, mode=self.watch) as watcher:
            while max_replies is None or self.replies < max_replies:
                finished = []
                for key in watcher.get(timeout=0.25):
                    # idle timeouts run on this machine's clock: the judge's may be skewed
                    finished += self.segmenter.feed(replace(key, time=self.comm.clock()))
                finished += self.segmenter.expire(self.comm.clock())
                for utterance in finished:
                    self.answer(utterance)

    def answer(self, question: Utterance) -> None:
        cli.say(f"judge: {question.text}")
        context = make_context(f"lpp:{self.comm.path}", self.history, question.text)
        self.history.append(question)
        try:
            reply = self.engine.reply(context)
        except Exception as error:  # one failing reply must not end the session
            cli.warn(f"engine failed: {error}")
            return
        sent = self.comm.send_text(reply, self.model) if reply.strip() else []
        if sent:
            self.history.append(Utterance(sender=OTHER, text=reply.strip(), started=sent[0].time,
                                          ended=sent[-1].time, keystrokes=tuple(sent)))
            cli.say(f"entry: {reply.strip()}")
        self.replies += 1


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    model = cli.typing_model(parser, args)
    try:
        engine = get_engine(args.engine, parse_settings(parser, args.setting))
    except (EngineNotFound, ValueError) as error:
        parser.error(str(error).strip("'\""))
    cli.stop_on_sigterm()
    entry = Entry(CommDir(args.directory, side=OTHER, clock=time.time), engine, model,
                  idle=args.idle, watch=args.watch)
    cli.say(f"entry {args.engine} watching {args.directory} for {JUDGE} keys")
    try:
        entry.run(max_replies=args.max_replies)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
