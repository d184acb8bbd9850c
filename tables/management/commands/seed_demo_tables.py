"""``python manage.py seed_demo_tables``: one finished game for the demo, played against a built-in
scripted OpenAI-compatible stub on loopback (no network). Idempotent: does nothing when it exists."""

from django.core.management.base import BaseCommand

from tables.demo import demo_seed


class Command(BaseCommand):
    help = "Seed a finished Turing the Tables game (idempotent)."

    def handle(self, *args, **options):
        game, created = demo_seed()
        self.stdout.write(f"tables demo game {game.pk}: {'created' if created else 'already there'}")
