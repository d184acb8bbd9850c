from django.core.management.base import BaseCommand

from markets.conversation.demo import demo_seed_xmarkets
from markets.demo import demo_seed_markets


class Command(BaseCommand):
    help = (
        "Create two demo bettors, an open Turing Trade game and two crowd markets on conversations, one "
        "settled and one live (idempotent; run after seed_demo)."
    )

    def handle(self, *args, **options):
        logins = demo_seed_markets()
        self.stdout.write(self.style.SUCCESS("Turing Trade demo ready at /markets/. Bettor logins:"))
        for username, password, role in logins:
            self.stdout.write(f"  {username:<13} {password:<19} {role}")
        for title in demo_seed_xmarkets():
            self.stdout.write(f"Conversation market: {title} (/markets/conversations/)")
