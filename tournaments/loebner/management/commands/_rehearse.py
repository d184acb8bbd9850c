"""``loebner rehearse --format F --seed S``: a whole contest played by bots through the real services;
prints the results JSON (the ``contest_score`` shape, plus ``contest_id``, ``names`` and ``problem``)."""

import json

from django.core.management.base import CommandError

from core.notify import flush


def add_arguments(parser) -> None:
    parser.add_argument(
        "--format", dest="format_name", required=True, help="a format of the rules (e.g. 2009-rules, aisb)"
    )
    parser.add_argument("--seed", type=int, required=True, help="seeds the schedule and every bot's choices")
    parser.add_argument("--entries", type=int, default=None, help="entries, for the generic and compact formats")
    parser.add_argument("--questions", type=int, default=2, choices=range(1, 6), help="questions per witness (1-5)")


def handle(command, options) -> None:
    from tournaments.loebner.services.rehearsal import contest_rehearse

    try:
        result = contest_rehearse(
            format_name=options["format_name"],
            seed=options["seed"],
            entries_count=options.get("entries"),
            questions=options.get("questions") or 2,
        )
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    finally:
        flush()
    command.stdout.write(json.dumps(result, indent=2, default=str))
