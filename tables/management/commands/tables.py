"""``python manage.py tables play CONFIG.json [--json]``: check every backend (no completion spent), then
play a game to its end in this process and print its result (``--json``: one JSON object: loser or draw,
turns, votes_against, penalties, metrics)."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.errors import ArenaError
from tables import selectors, services

MAX_CONFIG_BYTES = 100_000


class Command(BaseCommand):
    help = "Turing the Tables: play a game from a JSON configuration."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        play = sub.add_parser("play", help="play a game to its end")
        play.add_argument("config", help="CONFIG.json: agents, judge, seed, end_votes, max_turns")
        play.add_argument("--json", action="store_true", help="print the result as one JSON object")
        play.add_argument(
            "--no-probe", action="store_true", help="skip the backends' check (as the configuration's probe: false)"
        )

    def handle(self, *args, **options):
        path = Path(options["config"])
        try:
            if path.stat().st_size > MAX_CONFIG_BYTES:
                raise CommandError(f"{path}: larger than {MAX_CONFIG_BYTES} bytes")
            config = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise CommandError(f"{path}: not JSON: {exc}") from None
        if options["no_probe"] and isinstance(config, dict):
            config = {**config, "probe": False}
        try:
            game = services.game_create(config=config)
        except services.BackendsFailed as exc:
            raise CommandError(str(exc)) from None
        except ArenaError as exc:
            raise CommandError(f"bad configuration: {exc}") from None
        services.game_start(game_id=game.pk, run=False)
        game = services.game_play(game_id=game.pk)
        result = selectors.game_result(game=game)
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False))
            return
        self.stdout.write(f"game {game.pk} (seed {game.seed}, order {', '.join(game.order)})")
        for turn in result["turns"]:
            what = (
                f"votes against {turn['vote']['against']}"
                if turn["vote"]
                else f"penalised ({turn['penalty']['rule']})"
                if turn["penalty"]
                else f"no reply: {turn['error']}"
                if turn["status"] == "failed"
                else "opening"
            )
            self.stdout.write(f"  turn {turn['number']:>3} {turn['agent']}: {what}")
        end = (
            f"void (counts for nothing): {result['void']}"
            if "void" in result
            else f"{result['loser']} declared human"
            if "loser" in result
            else "draw (turn cap)"
        )
        self.stdout.write(f"{end}; votes against {result['votes_against']}; penalties {result['penalties']}")
