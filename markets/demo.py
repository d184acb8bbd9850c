"""A demo Turing Trade game for a first look: idempotent, seeded by `make run`."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from arena import roles
from arena.models import Entry
from markets.models import Game
from markets.services import game_create, game_open

DEMO_BETTORS = [("bettor1", "bettor1-demo"), ("bettor2", "bettor2-demo")]
DEMO_TITLE = "Demo: is the target human?"


@transaction.atomic
def demo_seed_markets() -> list[tuple[str, str, str]]:
    """Two bettors and an open game (target: confederate1, ELIZA or the Simple Bot, drawn at random)."""
    User = get_user_model()
    bettor_group = Group.objects.filter(name=roles.BETTOR).first()
    for username, password in DEMO_BETTORS:
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_password(password)
            user.save()
        if bettor_group:
            user.groups.add(bettor_group)
    busy = Game.objects.filter(title=DEMO_TITLE, status__in=[Game.Status.DRAFT, Game.Status.OPEN, Game.Status.RUNNING])
    if not busy.exists():
        game = game_create(
            title=DEMO_TITLE,
            entries=Entry.objects.filter(display_name__in=["ELIZA", "Simple Bot"]),
            humans=User.objects.filter(username="confederate1"),
            max_bettors=2,
            duration_s=600,
        )
        game_open(game_id=game.pk)
    return [(u, p, roles.BETTOR) for u, p in DEMO_BETTORS]
