"""The reply loop of an LPP entry: the pure part of ``python -m lpp.entry`` (see :mod:`lpp.entry`).

Reads the judge's keys from a communications directory (``*.judge``, deleting
each), takes a judge utterance as finished at ``Return`` or after ``idle``
seconds without a key, asks ``reply(history, message)`` for the answer and types
it back key by key (``*.other``) with a human-like rhythm, ending with
``Return``. Who answers is the caller's business: any callable from the earlier
utterances (oldest first, both sides) and the judge's latest one to a text.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import replace

from bots.typing_delay import TypingModel
from lpp.protocol import cli
from lpp.protocol.lines import Segmenter
from lpp.protocol.model import JUDGE, OTHER, Utterance
from lpp.protocol.transport import LPP_TYPING, CommDir, Watcher

#: ``reply(history, message) -> text``: ``history`` is the earlier utterances, oldest first.
Reply = Callable[[list[Utterance], str], str]


def add_loop_args(parser: argparse.ArgumentParser) -> None:
    """The reply loop's options: ``--idle``, ``--max-replies`` and the typing rhythm."""
    parser.add_argument(
        "--idle",
        type=cli.seconds,
        default=10.0,
        help="seconds without a judge key that end an utterance lacking Return (default 10)",
    )
    parser.add_argument("--max-replies", type=int, default=None, help="exit after this many replies")
    cli.add_typing_args(parser, LPP_TYPING)


class Entry:
    """The reply loop, separate from the command line so it can be driven in-process."""

    def __init__(
        self, comm: CommDir, reply: Reply, model: TypingModel, idle: float = 10.0, watch: str = "auto"
    ) -> None:
        self.comm, self.reply, self.model, self.watch = comm, reply, model, watch
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
        earlier = list(self.history)
        self.history.append(question)
        try:
            reply = self.reply(earlier, question.text)
        except Exception as error:  # one failing reply must not end the session
            cli.warn(f"engine failed: {error}")
            return
        sent = self.comm.send_text(reply, self.model) if reply.strip() else []
        if sent:
            self.history.append(
                Utterance(
                    sender=OTHER, text=reply.strip(), started=sent[0].time, ended=sent[-1].time, keystrokes=tuple(sent)
                )
            )
            cli.say(f"entry: {reply.strip()}")
        self.replies += 1


def serve(args: argparse.Namespace, reply: Reply, model: TypingModel, name: str) -> int:
    """Run the loop as the command line asked (``args`` from :func:`add_loop_args` and
    :func:`cli.add_transport_args`) until Ctrl-C, SIGTERM or ``--max-replies``."""
    cli.stop_on_sigterm()
    entry = Entry(CommDir(args.directory, side=OTHER, clock=time.time), reply, model, idle=args.idle, watch=args.watch)
    cli.say(f"entry {name} watching {args.directory} for {JUDGE} keys")
    try:
        entry.run(max_replies=args.max_replies)
    except KeyboardInterrupt:
        pass
    return 0
