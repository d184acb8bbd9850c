"""Run a bot engine as a Loebner Prize Protocol entry.

    python -m lpp.entry DIR --engine simple [--setting key=value ...]

Reads the judge's keys from DIR (``*.judge``, deleting each), takes a judge
utterance as finished at ``Return`` or after ``--idle`` seconds without a key,
asks the engine for a reply and types it back key by key (``*.other``) with a
human-like rhythm, ending with ``Return``. Stops on Ctrl-C or SIGTERM, or after
``--max-replies``.

The engine comes through the platform's engine gateway
(:func:`arena.services.engines.engine_standalone_reply`), so Django is set up first
(``DJANGO_SETTINGS_MODULE``, default ``config.settings``); the loop itself is
:mod:`lpp.protocol.entry`, which imports no Django.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping

from lpp.protocol import cli
from lpp.protocol.entry import Reply, add_loop_args, serve
from lpp.protocol.model import JUDGE, Utterance


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lpp.entry", description=__doc__.split("\n\n")[0])
    cli.add_transport_args(parser)
    parser.add_argument("--engine", required=True, help="engine name (bots registry, e.g. echo, simple, eliza)")
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an engine setting; VALUE is read as JSON when it parses, else as text",
    )
    add_loop_args(parser)
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


def engine_reply(name: str, settings: Mapping, conversation_key: str) -> Reply:
    """The reply callable of :mod:`lpp.protocol.entry` for engine ``name``: the judge is the
    interrogator, this entry the witness; replies are cleaned as the arena cleans them. Needs Django
    set up; raises :class:`bots.registry.UnknownEngine` (a KeyError) or
    :class:`bots.base.EngineSettingsError` (a ValueError)."""
    from arena.services.engines import engine_standalone_reply

    ask = engine_standalone_reply(engine=name, engine_settings=settings, key=conversation_key)

    def reply(history: list[Utterance], message: str) -> str:
        return ask([("interrogator" if u.sender == JUDGE else "witness", u.text) for u in history], message)

    return reply


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    model = cli.typing_model(parser, args)
    settings = parse_settings(parser, args.setting)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    try:
        reply = engine_reply(args.engine, settings, f"lpp:{args.directory}")
    except (KeyError, ValueError) as error:  # bots.registry.UnknownEngine, bots.base.EngineSettingsError
        parser.error(str(error).replace("unknown bot engine", "unknown engine", 1).strip("'\""))
    return serve(args, reply, model, args.engine)


if __name__ == "__main__":
    raise SystemExit(main())
