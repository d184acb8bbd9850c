"""``python manage.py seed_demo_tables``: one finished game for the demo, played by a built-in
scripted stand-in for the LLM servers (tables.demo; no network). Idempotent: does nothing when it exists."""

from django.core.management.base import BaseCommand

from tables.demo import demo_seed


class Command(BaseCommand):
    help = "Seed a finished Turing the Tables game (idempotent)."

    def handle(self, *args, **options):
        game, created = demo_seed()
        self.stdout.write(f"tables demo game {game.pk}: {'created' if created else 'already there'}")
