"""A console's state stays the same size however long the game: what a (re)connecting page is sent, and
what the trader's page is sent after each trade."""

import pytest

from markets import groups, notify, selectors

from .conftest import running_game, trade

pytestmark = pytest.mark.django_db


def test_a_console_gets_the_last_price_points_not_the_whole_history(cast, bettors, monkeypatch):
    monkeypatch.setattr(selectors, "HISTORY_POINTS", 3)
    game = running_game(cast, bettors[:1])
    for _ in range(5):
        trade(game, cast.jude, "buy", "H")
    history = selectors.bettor_state(game=game, participant=None)["market"]["history"]
    assert [(p["seq"], p["price"]) for p in history] == [(3, 53), (4, 54), (5, 55)]  # the newest 3, oldest first


def test_the_trader_is_sent_its_position_not_told_to_reload_everything(
    cast, bettors, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(notify, "send", sent.extend)
    game = running_game(cast, bettors[:2])
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        placed = trade(game, cast.jude, "buy", "H")
    me = {"type": "me", "me": {"number": 1, "points": 1000 - 51, "security": "H", "quantity": 1}}
    assert (groups.bettor_group(placed.participant_id), me) in sent
    assert not any(payload["type"] == "refresh" for _, payload in sent)
