from django.core.management.base import BaseCommand

from arena.demo import demo_seed


class Command(BaseCommand):
    help = "Create the demo people, entries and two three-party interrogations (idempotent) and print the logins."

    def add_arguments(self, parser):
        parser.add_argument("--time-limit", type=int, default=300, help="seconds per interrogation (default 300)")

    def handle(self, *args, time_limit, **options):
        logins = demo_seed(time_limit_s=time_limit)
        self.stdout.write(self.style.SUCCESS("Demo data ready. Logins (username / password / role):"))
        for username, password, role in logins:
            self.stdout.write(f"  {username:<13} {password:<19} {role}")
