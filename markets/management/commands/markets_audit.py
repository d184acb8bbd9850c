"""Check every game's books (or one game's): zero-sum transactions, cached balances equal ledger sums,
no negative bettor balance, gap-free trade sequence numbers, market price = last logged price.

    manage.py markets_audit [--game PUBLIC_ID] [--settle-due]

Exits 1 when a problem is found. --settle-due first settles running games past their deadline (the
same sweep as the markets.tasks.games_sweep task, for a deployment without Celery beat)."""

from django.core.management.base import BaseCommand, CommandError

from markets import selectors, services
from markets.models import Game


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser):
        parser.add_argument("--game", help="public id of one game")
        parser.add_argument("--settle-due", action="store_true")

    def handle(self, *args, game=None, settle_due=False, **options):
        if settle_due:
            self.stdout.write(f"settled {services.games_sweep()} game(s) past their deadline")
            self.stdout.write(f"settled or voided {services.xmarkets_sweep()} conversation market(s)")
        games = Game.objects.filter(public_id=game) if game else Game.objects.all()
        problems = 0
        for g in games.select_related("market"):
            for problem in selectors.ledger_audit(game=g):
                problems += 1
                self.stdout.write(f"game {g.public_id}: {problem}")
        if problems:
            raise CommandError(f"{problems} problem(s) found")
        self.stdout.write(f"{games.count()} game(s) audited: books balance")
