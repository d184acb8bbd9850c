"""Bradley–Terry ratings with bootstrap intervals, of a battles file or of the platform's own verdicts.

    python manage.py ratings --input battles.jsonl [--bootstrap 1000] [--seed S] [--anchor NAME=RATING] --json

Each input line: {"a": name, "b": name, "winner": "a" | "b" | "tie"} (blank lines are skipped).  Without
--input the platform's verdicts are rated: every registered results source, every format on one scale
(arena.selectors.results.results_battles: humans pooled as "human").
Output with --json: {"ratings": [{"name", "rating", "ci_low", "ci_high", "battles"}, ...]}, best first,
rating = 1000 + 400·log10(strength), centred on a mean of 1000 unless anchored; ci_* null with
--bootstrap 0.  Notes (e.g. a player that won every battle, and the prior then used) go to stderr, and
so does a progress bar when the bootstrap takes more than a second.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from arena import stats
from arena.selectors.results import results_battles


def _anchor(text):
    name, sep, value = (text or "").rpartition("=")
    try:
        if not sep or not name:
            raise ValueError
        return name, float(value)
    except ValueError:
        raise CommandError(f"--anchor must be NAME=RATING (e.g. human=1000), not {text!r}") from None


def battles_read(path) -> stats.Battles:
    """The battles of a JSON Lines file; a bad line raises CommandError naming its line number."""
    records, lines = [], []
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as error:
                    raise CommandError(f"{path}, line {number}: not JSON ({error.msg})") from None
                lines.append(number)
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        return stats.battles_from_records(records)
    except stats.BattleError as error:
        raise CommandError(f"{path}, line {lines[error.index]}: {error}") from None


class Command(BaseCommand):
    help = "Bradley–Terry ratings with bootstrap confidence intervals (of a battles file, or of the verdicts)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--input", help='JSON Lines, one battle a line: {"a": name, "b": name, "winner": "a"|"b"|"tie"}'
        )
        parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap replicates (0: no intervals)")
        parser.add_argument("--seed", type=int, default=None, help="seed of the bootstrap (default: random)")
        parser.add_argument("--anchor", default=None, help="NAME=RATING: give this player this rating")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args, **options):
        replicates = options["bootstrap"]
        if replicates < 0:
            raise CommandError("--bootstrap must be 0 or more")
        anchor = _anchor(options["anchor"]) if options["anchor"] is not None else None
        battles = battles_read(options["input"]) if options["input"] else results_battles()[0]
        bar = tqdm(
            total=replicates, desc="bootstrap", unit="replicate", file=sys.stderr, delay=1.0, disable=replicates == 0
        )
        try:
            table = stats.ratings_compute(
                battles, replicates=replicates, seed=options["seed"], anchor=anchor, progress=bar.update
            )
        except stats.BattleError as error:
            raise CommandError(str(error)) from None
        finally:
            bar.close()
        for note in table.notes:
            self.stderr.write(f"note: {note}")
        rows = [r.as_dict() for r in table.ratings]
        if options["json"]:
            self.stdout.write(json.dumps({"ratings": rows}))
            return
        if not rows:
            self.stdout.write("No battles to rate.")
            return
        width = max(len(r["name"]) for r in rows)
        level = f"{table.level:.0%} CI"
        self.stdout.write(f"{'name':<{width}}  rating  {level:>17}  battles")
        for r in rows:
            ci = "" if r["ci_low"] is None else f"[{r['ci_low']:7.1f}, {r['ci_high']:7.1f}]"
            self.stdout.write(f"{r['name']:<{width}}  {r['rating']:6.1f}  {ci:>17}  {r['battles']:7d}")
