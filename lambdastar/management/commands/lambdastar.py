"""``python manage.py lambdastar run|status|export``: the experiment page on the command line.

run CONFIG.json [--name N] [--seed S] [--owner USER] [--no-wait]
    validate, check the quota, launch; the embedded default runs the chunks in this process,
    services mode queues them for ``celery -A config worker -Q lambdastar`` and follows progress
status ID                      progress and aggregates
export ID --format csv|jsonl [--output FILE] [--what episodes|aggregates]
"""

import json
import sys
import time
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from core.errors import ArenaError
from lambdastar import exports, figures, selectors, services
from lambdastar.models import Aggregate, Experiment

DONE = (Experiment.Status.FINISHED, Experiment.Status.FAILED, Experiment.Status.CANCELLED)


def read_configuration(path: Path) -> dict:
    if not path.exists():
        raise CommandError(f"{path}: no such file", returncode=2)
    text = path.read_text()
    if path.suffix in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError:
            raise CommandError(f"{path}: YAML needs PyYAML, which is not installed; use JSON", returncode=2) from None
        return yaml.safe_load(text)
    try:
        return json.loads(text)
    except ValueError as exc:
        raise CommandError(f"{path}: not valid JSON ({exc})", returncode=2) from None


class Command(BaseCommand):
    help = "Run, follow and export Λ* experiments (see lambdastar/management/commands/lambdastar.py)."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        run = sub.add_parser("run", help="validate, launch and follow an experiment")
        run.add_argument("config", type=Path)
        run.add_argument("--name")
        run.add_argument("--seed", type=int)
        run.add_argument("--owner", help="username (default: the first superuser)")
        run.add_argument("--no-wait", action="store_true", help="services mode: return once queued")
        status = sub.add_parser("status", help="progress and aggregates")
        status.add_argument("experiment", type=int)
        export = sub.add_parser("export", help="per-episode results or aggregates")
        export.add_argument("experiment", type=int)
        export.add_argument("--format", choices=["csv", "jsonl"], default="csv")
        export.add_argument("--what", choices=["episodes", "aggregates", *figures.FIGURES], default="episodes")
        export.add_argument("--output", type=Path)

    def handle(self, *args, action, **options):
        return getattr(self, f"do_{action}")(**options)

    # --- run ------------------------------------------------------------------------------------
    def do_run(self, config, name, seed, owner, no_wait, **_):
        configuration = read_configuration(config)
        try:
            experiment = services.experiment_create(
                owner=self._owner(owner), name=name or config.stem, configuration=configuration, seed=seed
            )
            inline = settings.CELERY_TASK_ALWAYS_EAGER
            services.experiment_launch(experiment_id=experiment.pk, enqueue=not inline)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages), returncode=2) from None
        except ArenaError as exc:
            raise CommandError(str(exc), returncode=2) from None
        experiment.refresh_from_db()
        self.stderr.write(
            f"experiment {experiment.pk}: {experiment.runs.count()} runs, {experiment.total_episodes} episodes × types"
        )
        with tqdm(total=experiment.total_episodes, unit="ep", file=sys.stderr, disable=None) as bar:
            if inline:
                services.experiment_execute(
                    experiment_id=experiment.pk, on_chunk=lambda chunk, outcome: bar.update(chunk.episodes)
                )
            elif not no_wait:
                self._follow(experiment, bar)
        self.do_status(experiment.pk)
        experiment.refresh_from_db()
        if experiment.status == Experiment.Status.FAILED:
            raise CommandError(experiment.error)

    def _owner(self, username):
        users = get_user_model().objects
        user = (
            users.filter(username=username).first()
            if username
            else users.filter(is_superuser=True).order_by("pk").first()
        )
        if user is None:
            raise CommandError(f"no user {username!r}" if username else "no superuser: pass --owner", returncode=2)
        return user

    def _follow(self, experiment, bar):
        while True:
            progress = selectors.experiment_progress(experiment=experiment)
            bar.update(progress["done"] - bar.n)
            if progress["status"] in DONE:
                return
            time.sleep(0.5)

    # --- status ---------------------------------------------------------------------------------
    def do_status(self, experiment, **_):
        e = self._experiment(experiment)
        p = selectors.experiment_progress(experiment=e)
        rate = f"{p['rate']:.1f} episodes/s" if p["rate"] else "–"
        eta = f"{p['eta_s']:.0f} s" if p["eta_s"] is not None and p["status"] not in DONE else "–"
        self.stdout.write(
            f"experiment {e.pk} {e.name!r} (owner {e.owner.get_username()}, seed {e.seed}): "
            f"{p['status']}, {p['done']}/{p['total']} episodes, rate {rate}, time left {eta}"
        )
        if e.error:
            self.stdout.write(f"error: {e.error}")
        for a in Aggregate.objects.filter(run__experiment=e).select_related("run"):
            self.stdout.write(
                f"  run {a.run.index + 1} [{a.run}] {a.agent_type:>9}: mean {a.mean:.4f} "
                f"± {a.ci_high - a.mean:.4f} (95 % CI, n={a.episodes}, std {a.std:.4f})"
            )

    def _experiment(self, pk) -> Experiment:
        experiment = Experiment.objects.select_related("owner").filter(pk=pk).first()
        if experiment is None:
            raise CommandError(f"no experiment {pk}", returncode=2)
        return experiment

    # --- export ---------------------------------------------------------------------------------
    def do_export(self, experiment, format, what, output, **_):
        e = self._experiment(experiment)
        if what == "episodes":
            rows, fields = selectors.episode_rows(experiment=e), selectors.EXPORT_FIELDS
        else:
            name = "types" if what == "aggregates" else what
            rows, fields = figures.figure_rows(experiment=e, name=name), figures.CSV_FIELDS
            if what == "aggregates":
                rows = [
                    {
                        "run": a.run.index + 1,
                        "agent_type": a.agent_type,
                        "n": a.episodes,
                        "mean": a.mean,
                        "std": a.std,
                        "sem": a.sem,
                        "ci_low": a.ci_low,
                        "ci_high": a.ci_high,
                    }
                    for a in Aggregate.objects.filter(run__experiment=e).select_related("run")
                ]
                fields = ["run", "agent_type", "n", "mean", "std", "sem", "ci_low", "ci_high"]
        lines = exports.csv_lines(rows, fields) if format == "csv" else exports.jsonl_lines(rows)
        out = output.open("w") if output else self.stdout
        try:
            for line in lines:
                out.write(line, ending="") if out is self.stdout else out.write(line)
        finally:
            if output:
                out.close()
