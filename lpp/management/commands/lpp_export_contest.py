from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from lpp.export import contest_logs


class Command(BaseCommand):
    help = (
        "Write every published meeting of a Loebner contest as a JComm 2012 log (one file per judge and "
        "round: R<round>-J<judge>-E<entry>-C<confederate>.log), readable by lpp_import and python -m lpp.protocol."
    )

    def add_arguments(self, parser):
        parser.add_argument("contest_id", type=int)
        parser.add_argument("directory")

    def handle(self, *args, contest_id, directory, **options):
        from tournaments.loebner.models import Contest

        try:
            logs = contest_logs(contest_id=contest_id)
        except Contest.DoesNotExist:
            raise CommandError(f"No contest {contest_id}.") from None
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        for name, text in logs.items():
            (out / name).write_bytes(text.encode("utf-8"))
        self.stdout.write(f"{len(logs)} log(s) written to {out}")
