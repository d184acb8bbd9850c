"""Argument helpers shared by the LPP command-line tools (bad arguments exit 2)."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from bots.typing_delay import TypingModel


def existing_dir(value: str) -> Path:
    path = Path(value)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a directory: {value}")
    return path


def existing_file(value: str) -> Path:
    path = Path(value)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {value}")
    return path


def seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value!r}") from None
    if not number >= 0:
        raise argparse.ArgumentTypeError(f"must be >= 0: {value}")
    return number


def add_transport_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", type=existing_dir, help="the communications directory")
    parser.add_argument(
        "--watch",
        choices=("auto", "inotify", "poll"),
        default="auto",
        help="how to notice new keys: inotify, polling, or inotify with polling as fallback",
    )


def add_typing_args(parser: argparse.ArgumentParser, default: TypingModel) -> None:
    group = parser.add_argument_group("typing rhythm")
    group.add_argument("--think", type=seconds, default=default.think_s, help="seconds before the first key")
    group.add_argument("--per-char", type=seconds, default=default.per_char_s, help="seconds per key")
    group.add_argument(
        "--word-pause", type=seconds, default=default.word_pause_s, help="extra seconds after a space or punctuation"
    )
    group.add_argument(
        "--jitter",
        type=seconds,
        default=default.jitter,
        help="each delay is scaled by a factor in [1-jitter, 1+jitter] (0 to 1)",
    )
    group.add_argument("--fast", action="store_true", help="type with next to no delay (tests)")


def typing_model(parser: argparse.ArgumentParser, args: argparse.Namespace) -> TypingModel:
    if args.fast:
        return TypingModel.fast()
    try:
        return TypingModel(
            think_s=args.think, per_char_s=args.per_char, word_pause_s=args.word_pause, jitter=args.jitter
        )
    except ValueError as error:
        parser.error(str(error))


def stop_on_sigterm() -> None:
    """Let SIGTERM end a tool like Ctrl-C does (cleanly, through KeyboardInterrupt)."""

    def handler(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


def say(text: str) -> None:
    print(text, flush=True)


def warn(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
