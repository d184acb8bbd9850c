from django.core.management.base import BaseCommand

from arena.demo import DEMO_API_KEY, DEMO_PULL_ENTRY, demo_seed


class Command(BaseCommand):
    help = "Create the demo people, entries and two three-party interrogations (idempotent) and print the logins."

    def add_arguments(self, parser):
        parser.add_argument("--time-limit", type=int, default=300, help="seconds per interrogation (default 300)")

    def handle(self, *args, time_limit, **options):
        logins = demo_seed(time_limit_s=time_limit)
        self.stdout.write(self.style.SUCCESS("Demo data ready. Logins (username / password / role):"))
        for username, password, role in logins:
            self.stdout.write(f"  {username:<13} {password:<19} {role}")
        from arena.models import Entry

        entry = Entry.objects.filter(display_name=DEMO_PULL_ENTRY).first()
        self.stdout.write(f"  The entrant's API key: {DEMO_API_KEY}")
        if entry is not None:
            self.stdout.write(
                f"  Its pull-mode entry: {DEMO_PULL_ENTRY} (id {entry.pk}); "
                f"python examples/pull_client.py --token {DEMO_API_KEY} --entry {entry.pk} --rehearse"
            )
