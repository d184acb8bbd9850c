from django.core.management.base import BaseCommand

from tournaments.wager.demo import demo_wager_seed


class Command(BaseCommand):
    help = (
        "Create the demo wager session (idempotent): trial 1 finished (verdicts, ranks, sealed transcripts), "
        "trial 2's first slot running, trial 3 scheduled; print the logins."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--reply-timeout",
            type=float,
            default=5.0,
            help="seconds to wait for each of the computer's replies (default 5)",
        )

    def handle(self, *args, reply_timeout, **options):
        session, logins = demo_wager_seed(reply_timeout_s=reply_timeout)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo wager session ready: /wager/sessions/{session.pk}/ "
                f"(report: /wager/sessions/{session.pk}/report/). Logins:"
            )
        )
        for username, password, role in logins:
            self.stdout.write(f"  {username:<13} {password:<19} {role}")
