"""Trades on /metrics: each new trade counts once; a repeated click (the same key) does not."""

import pytest

from core import metrics

from .conftest import key, running_game, trade

pytestmark = pytest.mark.django_db


def test_a_new_trade_counts_once_and_a_repeated_click_not_at_all(cast):
    game = running_game(cast, [cast.jude])
    before = metrics.TRADES._value.get()
    click = key()
    trade(game, cast.jude, "buy", "H", click)
    trade(game, cast.jude, "buy", "H", click)  # the same click again: the same trade
    assert metrics.TRADES._value.get() - before == 1
