"""Loebner contests from the command line: ``manage.py loebner SUBCOMMAND ...``.

    loebner schedule --format F [--entries N] [--seed S] [--json]
    loebner score --format F [--entries N] [--ranking R] FILE.json

Each subcommand is a module beside this one, named with a leading ``_`` so Django does not list it as
a command of its own, exposing ``add_arguments(parser)`` and ``handle(command, options)``. Adding a
subcommand is one line in SUBCOMMANDS; a listed module that is absent is left out.
"""

import importlib
import importlib.util

from django.core.management.base import BaseCommand

SUBCOMMANDS = {
    "schedule": ("tournaments.loebner.management.commands._schedule", "print a format's round schedule"),
    "score": ("tournaments.loebner.management.commands._score", "score a final's judgments (JSON file)"),
    "rehearse": (
        "tournaments.loebner.management.commands._rehearse",
        "play a whole contest with bot judges and confederates",
    ),
}


def _available() -> dict[str, object]:
    modules = {}
    for name, (path, _) in SUBCOMMANDS.items():
        if importlib.util.find_spec(path) is not None:
            modules[name] = importlib.import_module(path)
    return modules


class Command(BaseCommand):
    help = "Loebner contests: " + ", ".join(f"{name} ({text})" for name, (_, text) in SUBCOMMANDS.items())

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="subcommand", required=True, metavar="SUBCOMMAND")
        for name, module in _available().items():
            module.add_arguments(sub.add_parser(name, help=SUBCOMMANDS[name][1]))

    def handle(self, *args, subcommand, **options):
        return _available()[subcommand].handle(self, options)
