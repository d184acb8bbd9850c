"""Turing Trade's settled markets as forecasts that the target is human, scored by the Brier score."""

import pytest
from django.test import Client

from markets import selectors, services
from tests.markets.conftest import running_game, trade


def settled(cast, bettors, *, target, buys):
    game = running_game(cast, bettors[:2], target=target)
    for _ in range(buys):
        trade(game, cast.jude, "buy", "H")
    services.game_settle(game_id=game.pk, force=True)
    return game


def test_settled_markets_are_scored_as_forecasts(cast, bettors):
    settled(cast, bettors, target="human", buys=15)  # final price 65: forecast 0.65 for a human
    settled(cast, bettors, target="machine", buys=10)  # final price 60: forecast 0.6 for a machine
    forecasts = selectors.market_forecasts()
    summary = forecasts["summary"]
    assert summary["n"] == 2
    assert summary["brier"] == pytest.approx(((0.65 - 1) ** 2 + 0.6**2) / 2)
    assert summary["reference_brier"] == pytest.approx(0.25)  # the prior P(human) = 0.5 of both games
    assert summary["skill"] == pytest.approx(1 - summary["brier"] / 0.25)
    assert forecasts["by_target"] == {
        "human": {"n": 1, "mean_forecast": 0.65},
        "machine": {"n": 1, "mean_forecast": 0.6},
    }
    page = Client().get("/markets/leaderboard/").content.decode()
    assert 'id="market-forecasts"' in page and "over\n2 games" in page


def test_no_settled_games_no_forecasts(cast):
    assert selectors.market_forecasts()["summary"]["brier"] is None
    assert "No settled games yet." in Client().get("/markets/leaderboard/").content.decode()
