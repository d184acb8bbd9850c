"""``python manage.py seed_demo_loebner``: a demo Loebner contest (idempotent): four built-in entries
entered and qualified, the AISB format's finals with two of four rounds played and judged by bots, so
/contests/<id>/results/ and the board show something. The arena demo's judge1/judge2 and
confederate1/confederate2 (``seed_demo``), when they exist, are J1, J2, C1 and C2: after the organiser
starts round 3 in the admin, they play it in the browser."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from core.notify import flush
from tournaments.loebner.models import Contest

NAME = "Demo Loebner Prize (AISB format)"


class Command(BaseCommand):
    help = "Create the demo Loebner contest (once): qualifying done, finals half played."

    def handle(self, *args, **options):
        from tournaments.loebner.services.rehearsal import contest_rehearse

        contest = Contest.objects.filter(name=NAME).first()
        if contest is None:
            try:
                people = get_user_model().objects.filter
                judges = [u for name in ("judge1", "judge2") for u in people(username=name)]
                confederates = [u for name in ("confederate1", "confederate2") for u in people(username=name)]
                contest = Contest.objects.get(
                    pk=contest_rehearse(
                        format_name="aisb",
                        seed=2014,
                        name=NAME,
                        play_rounds=2,
                        tag="demo",
                        judges=judges,
                        confederates=confederates,
                    )["contest_id"]
                )
            finally:
                flush()
            self.stdout.write(
                f"Demo contest created: /contests/{contest.pk}/results/ (board: /contests/{contest.pk}/board/)"
            )
        else:
            self.stdout.write(f"Demo contest exists: /contests/{contest.pk}/results/")
