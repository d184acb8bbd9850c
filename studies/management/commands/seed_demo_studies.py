"""Seed the demo study (idempotent): open on /play/, with finished games on its results page."""

from django.core.management.base import BaseCommand

from studies.demo import seed_demo_studies


class Command(BaseCommand):
    help = "Create the demo study (open on /play/, with simulated games already played); does nothing if it exists."

    def handle(self, *args, **options):
        study, created = seed_demo_studies()
        games = study.games.count()
        verb = "created" if created else "already there"
        self.stdout.write(
            f"demo study {study.pk} ({study.slug}) {verb}: {games} games; play at /play/, "
            f"results at /studies/{study.pk}/ (organisers)"
        )
