"""`manage.py wager plan|score|rehearse`: the slot plan, scoring a file of verdicts and ranks, a rehearsal."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.errors import ArenaError
from tournaments.wager import rules

MAX_INPUT_BYTES = 5_000_000


def _positive(kind):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(f"not a number: {text!r}") from None
        if value != value or value <= 0:
            raise ValueError("must be positive")
        return value

    parse.__name__ = kind.__name__
    return parse


class Command(BaseCommand):
    help = "Long Now wager sessions: `plan` (the slot plan), `score FILE.json`, `rehearse` (a whole session with bots)."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        plan = sub.add_parser("plan", help="the slot plan of one trial")
        plan.add_argument("--judges", type=int, default=3)
        plan.add_argument("--candidates", type=int, default=4, help="the computer and the foils (4 by the rules)")
        plan.add_argument("--hours", type=float, default=2.0, help="one interview's length (2 by the rules)")
        plan.add_argument("--break-hours", type=float, default=0.0, help="rest between slots")
        plan.add_argument("--json", action="store_true", help="one JSON object per line")
        score = sub.add_parser("score", help="score a file of verdicts and ranks (- for standard input)")
        score.add_argument("file")
        rehearse = sub.add_parser("rehearse", help="a whole session with bot judges and foils; prints its score")
        rehearse.add_argument("--trials", type=int, default=3)
        rehearse.add_argument("--minutes", type=int, default=2, help="interview length (the arena's timer)")
        rehearse.add_argument("--seed", default="rehearsal")
        rehearse.add_argument("--judges", type=int, default=3)
        rehearse.add_argument("--foils", type=int, default=3)
        rehearse.add_argument(
            "--turns", type=int, default=3, help="questions per interview; the bot judge then ends it early (default 3)"
        )
        rehearse.add_argument("--engine", default="eliza", help="the computer's engine (a rehearsal entry)")
        rehearse.add_argument("--entry", help="an existing entry's display name as the computer instead")
        rehearse.add_argument("--foil-engine", default="simple", help="the engine typing the bot foils' answers")
        rehearse.add_argument(
            "--reply-timeout",
            type=float,
            default=10.0,
            help="seconds a bot judge waits for the computer's reply (default 10)",
        )

    def handle(self, *args, action, **options):
        try:
            getattr(self, f"_{action}")(**options)
        except (rules.RulesError, rules.PlanError, ArenaError) as error:
            raise CommandError(str(error)) from None

    def _plan(self, *, judges, candidates, hours, break_hours, json: bool, **_):
        plan = rules.slot_plan(judges=judges, candidates=candidates, hours=hours, break_h=break_hours)
        problems = rules.plan_check(plan, judges=judges, candidates=candidates)
        if problems:  # never, by construction; checked all the same
            raise CommandError("; ".join(problems))
        for slot in plan:
            if json:
                self.stdout.write(_dumps(slot.as_dict()))
            else:
                self.stdout.write(
                    f"slot {slot.slot}  {slot.start_h:g}–{slot.end_h:g} h  {slot.judge} interviews {slot.candidate}"
                )
        if not json:
            per_judge = candidates * hours
            self.stdout.write(
                f"{max(s.slot for s in plan)} slots; {per_judge:g} h of interviews per judge, "
                f"{per_judge * judges:g} h per trial."
            )

    def _score(self, *, file, **_):
        try:
            if file == "-":
                text = sys.stdin.read(MAX_INPUT_BYTES + 1)
            else:
                path = Path(file)
                if path.stat().st_size > MAX_INPUT_BYTES:
                    raise CommandError(f"{file}: larger than {MAX_INPUT_BYTES} bytes.")
                text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{file}: cannot be read ({error}).") from None
        if len(text) > MAX_INPUT_BYTES:
            raise CommandError(f"{file}: larger than {MAX_INPUT_BYTES} bytes.")
        try:
            document = json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as error:
            raise CommandError(f"{file}: not valid JSON ({error}).") from None
        self.stdout.write(_dumps(rules.score_document(document).as_dict()))

    def _rehearse(self, *, trials, minutes, seed, judges, foils, turns, engine, entry, foil_engine, reply_timeout, **_):
        from arena.models import Entry
        from tournaments.wager import selectors
        from tournaments.wager.services.rehearsal import rehearsal_run

        computer = None
        if entry:
            computer = Entry.objects.filter(display_name=entry).first()
            if computer is None:
                raise CommandError(f"No entry named {entry!r}.")
        for name, value, high in (
            ("trials", trials, 20),
            ("minutes", minutes, 24 * 60),
            ("judges", judges, 10),
            ("foils", foils, 10),
        ):
            if not 1 <= value <= high:
                raise CommandError(f"--{name} must be from 1 to {high}.")
        if not 0 < reply_timeout <= 600:
            raise CommandError("--reply-timeout must be from 0 to 600 seconds.")
        session = rehearsal_run(
            trials=trials,
            minutes=minutes,
            seed=seed,
            judges=judges,
            foils=foils,
            turns=turns,
            engine=engine,
            foil_engine=foil_engine,
            entry=computer,
            reply_timeout_s=reply_timeout,
            progress=lambda line: self.stderr.write(line),
        )
        self.stderr.write(
            f"session {session.pk}: /wager/sessions/{session.pk}/ (report: /wager/sessions/{session.pk}/report/)"
        )
        self.stdout.write(_dumps(selectors.session_document(session=session)))


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _no_constant(name):
    raise ValueError(f"{name} is not a number JSON allows")
