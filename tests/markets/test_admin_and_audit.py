"""The organiser's side: a game made in the admin, opened and started; deadlines; the audit command."""

import datetime as dt
import random

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from core.errors import Closed
from markets import selectors, services
from markets.models import Account, Game, Market

from .conftest import running_game, trade

pytestmark = pytest.mark.django_db


def test_an_organiser_creates_opens_and_starts_a_game_in_the_admin(cast):
    client = Client()
    client.force_login(cast.olivia)
    response = client.post(
        "/admin/markets/game/add/",
        {
            "title": "Admin game",
            "market_maker": "linear",
            "lmsr_b": "18",
            "p_human": "0.5",
            "max_bettors": "4",
            "starting_points": "500",
            "duration_s": "120",
            "answer_delay_s": "5",
            "entry_pool": [cast.simple.pk],
            "participants-TOTAL_FORMS": "0",
            "participants-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(title="Admin game")
    assert Market.objects.filter(game=game).exists() and Account.objects.filter(game=game).count() == 2
    client.post("/admin/markets/game/", {"action": "open_games", "_selected_action": [game.pk]})
    game.refresh_from_db()
    assert game.status == "open" and game.target_entry == cast.simple
    services.game_join(game_id=game.pk, user=cast.jude)
    client.post("/admin/markets/game/", {"action": "start_games", "_selected_action": [game.pk]})
    game.refresh_from_db()
    assert game.status == "running" and game.deadline is not None


@pytest.mark.slow
def test_the_target_is_drawn_with_the_game_probability(cast):
    draws = []
    for seed in range(200):
        game = services.game_create(humans=[cast.connie], entries=[cast.simple], p_human=0.25)
        draws.append(services.game_open(game_id=game.pk, rng=random.Random(seed)).target_is_human)
    assert 30 < sum(draws) < 70  # about 50 of 200


def test_after_the_deadline_trades_are_refused_and_any_read_settles_the_game(cast, bettors):
    game = running_game(cast, bettors[:1])
    trade(game, cast.jude, "buy", "H")
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    with pytest.raises(Closed):
        trade(game, cast.jude, "buy", "H")
    state = selectors.bettor_state(game=game, participant=selectors.participant_for(game=game, user=cast.jude))
    assert (
        state["status"] == "settled" and state["reveal"]["kind"] == "human" and state["me"]["points"] == 1000 - 51 + 100
    )


def test_audit_command_finds_a_tampered_balance(cast, bettors):
    game = running_game(cast, bettors[:2])
    trade(game, cast.jude, "buy", "H")
    call_command("markets_audit")
    Account.objects.filter(game=game, kind="maker").update(balance=7)
    with pytest.raises(CommandError):
        call_command("markets_audit", game=str(game.public_id))
