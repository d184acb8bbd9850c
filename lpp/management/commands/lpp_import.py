import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from lpp.importer import FORMATS, ImportFailed, import_file, rounds_check


class Command(BaseCommand):
    help = (
        "Import what Loebner contests left behind as ended interrogations: JComm transcript logs (Loebner "
        "Prize 2009/2012 formats, keeping every keystroke), the LPP2 reference server's round logs and text "
        "transcripts of 'Speaker: text' lines. Re-importing a file changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("logfiles", nargs="+", metavar="LOGFILE")
        parser.add_argument(
            "--judge-user",
            metavar="NAME",
            help="existing user to record as the judge (default: lpp-judge-<judge id>, created inactive)",
        )
        parser.add_argument(
            "--confederate-user",
            metavar="NAME",
            help="existing user to record as the human witness (default: lpp-confederate-<program>)",
        )
        parser.add_argument(
            "--format",
            choices=FORMATS,
            default="auto",
            help="jcomm (JComm log), lpp2 (the reference server's Round<n> file), text (a transcript of "
            "'Speaker: text' lines); auto (default) tells them apart",
        )
        parser.add_argument(
            "--tilde",
            choices=("backspace", "literal"),
            default="backspace",
            help="in a text transcript, ~ is a BackSpace (default) or a literal character",
        )

    def handle(self, *args, logfiles, judge_user=None, confederate_user=None, verbosity=1, **options):
        judge, confederate = self._user(judge_user), self._user(confederate_user)
        imported = skipped = 0
        failures, results = [], []
        bar = tqdm(logfiles, unit="file", disable=verbosity < 1 or len(logfiles) < 2, file=sys.stderr)
        for path in bar:
            try:
                result = import_file(
                    path,
                    judge_user=judge,
                    confederate_user=confederate,
                    format=options.get("format", "auto"),
                    tilde=options.get("tilde", "backspace"),
                )
            except ImportFailed as error:
                failures.append(str(error))
                continue
            results.append(result)
            imported += len(result.imported)
            skipped += result.skipped
            for interrogation in result.imported:
                if verbosity >= 2:
                    tqdm.write(f"{path}: interrogation {interrogation.pk} {interrogation.title}", file=self.stdout)
        self.stdout.write(f"Imported {imported} transcript(s), {skipped} already imported.")
        for key, why in sorted(rounds_check(results).items()):
            self.stdout.write(f"{key}: {why}")
        for result in results:
            for note in result.notes:
                self.stdout.write(note)
        if failures:
            raise CommandError("; ".join(failures))

    @staticmethod
    def _user(name):
        if not name:
            return None
        try:
            return get_user_model().objects.get(username=name)
        except get_user_model().DoesNotExist:
            raise CommandError(f"No user named {name!r}.") from None
