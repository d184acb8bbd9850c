"""Studies from the command line.

python manage.py study load FILE.json [--slug S] [--open]
python manage.py study simulate CONFIG.json --truth TRUTH.json --participants N --seed S [--json]
python manage.py study export ID --format csv|jsonl --what games|messages|verdicts|surveys|exclusions [--output FILE]
python manage.py study judge-transcripts ID --entry NAME [--limit N]
python manage.py study open ID | close ID
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.errors import ArenaError
from studies import exports, services
from studies.models import Study

MAX_FILE_BYTES = 1_000_000


def _read_json(path: str, what: str):
    file = Path(path)
    if not file.is_file():
        raise CommandError(f"{what}: no such file {path!r}.")
    if file.stat().st_size > MAX_FILE_BYTES:
        raise CommandError(f"{what}: {path!r} is larger than {MAX_FILE_BYTES} bytes.")
    try:
        return services.study_config_read(text=file.read_text(encoding="utf-8"))
    except (ArenaError, UnicodeDecodeError) as exc:
        raise CommandError(f"{what} {path}: {exc}") from None


def _study(ident: str) -> Study:
    study = Study.objects.filter(pk=int(ident)).first() if ident.isdigit() else Study.objects.filter(slug=ident).first()
    if study is None:
        raise CommandError(f"No study {ident!r} (give its id or slug).")
    return study


class Command(BaseCommand):
    help = "Load, simulate, export, open and close online Turing-test studies."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        load = sub.add_parser("load", help="create a study from a JSON configuration")
        load.add_argument("file")
        load.add_argument("--slug", default="")
        load.add_argument("--open", action="store_true", help="open it on /play/ at once")
        sim = sub.add_parser("simulate", help="run a whole study with simulated participants and print its analysis")
        sim.add_argument("config")
        sim.add_argument("--truth", required=True, help='JSON {"<witness>": p judged human, ..., "human": p}')
        sim.add_argument("--participants", type=int, required=True)
        sim.add_argument("--seed", type=int, required=True)
        sim.add_argument("--replicates", type=int, default=10_000, help="bootstrap replicates")
        sim.add_argument("--json", action="store_true")
        export = sub.add_parser("export", help="one table of a study, anonymised")
        export.add_argument("study")
        export.add_argument("--format", choices=exports.FORMATS, required=True)
        export.add_argument("--what", choices=exports.TABLES, required=True)
        export.add_argument("--output", default="-")
        judge = sub.add_parser(
            "judge-transcripts", help="an LLM entry judges the study's finished transcripts ('inverted' judging)"
        )
        judge.add_argument("study")
        judge.add_argument("--entry", required=True, help="the judging entry's display name (any engine, e.g. an LLM)")
        judge.add_argument("--limit", type=int, default=100)
        for name in ("open", "close"):
            sub.add_parser(name).add_argument("study")

    def handle(self, *args, action, **options):
        try:
            getattr(self, f"do_{action.replace('-', '_')}")(**options)
        except ArenaError as exc:
            raise CommandError(str(exc)) from None

    def do_load(self, *, file, slug, open, **_):
        study = services.study_load(
            config=_read_json(file, "configuration"),
            slug=slug,
            status=Study.Status.OPEN if open else Study.Status.DRAFT,
        )
        self.stdout.write(f"study {study.pk} ({study.slug}): {study.conditions.count()} AI witnesses, {study.status}")

    def do_simulate(self, *, config, truth, participants, seed, replicates, json: bool, **_):
        from studies.services.simulate import study_simulate

        if not 0 <= replicates <= 1_000_000:
            raise CommandError("--replicates must be from 0 to 1000000.")
        result = study_simulate(
            config=_read_json(config, "CONFIG"),
            truth=_read_json(truth, "TRUTH"),
            participants=participants,
            seed=seed,
            replicates=max(1, replicates),
        )
        out = {
            "witnesses": result["witnesses"],
            "interrogator_accuracy": result["interrogator_accuracy"],
            "excluded": result["excluded"],
            "games": result["games_judged"],
            "flagged": result["flagged"],
            "study": result["study"],
        }
        if json:
            self.stdout.write(_json_dumps(out))
            return
        self.stdout.write(f"study {out['study']}: {out['games']} games judged, {out['excluded']} excluded")
        for w in out["witnesses"]:
            self.stdout.write(
                f"  {w['witness']:<24} n={w['games']:<5} pass {w['pass_rate']:.3f} "
                f"[{w['ci_low']:.3f}, {w['ci_high']:.3f}]  p={w['p_value']:.3g}"
            )
        self.stdout.write(f"  interrogator accuracy {out['interrogator_accuracy']:.3f}")

    def do_export(self, *, study, format, what, output, **_):
        study = _study(study)
        if output == "-":
            exports.export_write(study=study, what=what, fmt=format, out=self.stdout)
        else:
            with open(output, "w", encoding="utf-8", newline="") as out:
                exports.export_write(study=study, what=what, fmt=format, out=out)

    def do_judge_transcripts(self, *, study, entry, limit, **_):
        from arena.models import Entry
        from studies.services.transcripts import transcript_games

        study = _study(study)
        judge = Entry.objects.filter(display_name=entry).first()
        if judge is None:
            raise CommandError(f"No entry is called {entry!r}.")
        if not 1 <= limit <= 100_000:
            raise CommandError("--limit must be from 1 to 100000.")
        games = transcript_games(study=study).exclude(transcript_verdicts__entry=judge).order_by("pk")[:limit]
        done = sum(services.transcript_judge_inverted(game=game, entry=judge) is not None for game in games)
        self.stdout.write(
            f"{done} of {len(games)} transcripts judged by {judge} (the rest: no readable answer, "
            f"see the entry's engine calls)"
        )

    def do_open(self, *, study, **_):
        study = services.study_status_set(study_id=_study(study).pk, status=Study.Status.OPEN)
        self.stdout.write(f"study {study.pk} is open on /play/")

    def do_close(self, *, study, **_):
        study = services.study_status_set(study_id=_study(study).pk, status=Study.Status.CLOSED)
        self.stdout.write(f"study {study.pk} is closed")


def _json_dumps(data) -> str:
    return json.dumps(data)
