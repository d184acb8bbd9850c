"""Pushes leave the trade's path: a trade returns before its push is sent, pushes keep their order,
and pushes that pile up while one is being sent go out together, every price point kept."""

import asyncio
import threading

import pytest

from core import notify
from markets import groups, services

from .conftest import running_game, trade

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hop(monkeypatch):
    """Stands in for the pump's send to the channel layer; holds it while `gate` is shut."""
    gate, calls = threading.Event(), []

    async def send(layer, events):
        await asyncio.to_thread(gate.wait, 10)
        calls.append([(group, event["payload"]) for group, event in events])

    notify.flush()
    monkeypatch.setattr(notify, "_send", send)
    yield gate, calls
    gate.set()
    notify.flush()


def started_game(cast, bettors, hop):
    """A running game whose own pushes (its start) are out of the way, the hop shut again."""
    gate, calls = hop
    game = running_game(cast, bettors[:2])
    gate.set()
    notify.flush()
    gate.clear()
    calls.clear()
    return game


def test_a_trade_does_not_wait_for_its_push(cast, bettors, hop):
    gate, calls = hop
    game = started_game(cast, bettors, hop)
    trade(game, cast.jude, "buy", "H")  # returns although the hop is held shut
    assert calls == []
    gate.set()
    assert notify.flush()
    prices = [
        p["point"]["price"]
        for batch in calls
        for group, p in batch
        if p["type"] == "price" and group == groups.bettors_group(game.pk)
    ]
    assert prices == [51]


def test_pushes_that_pile_up_go_out_together_in_order(cast, bettors, hop):
    gate, calls = hop
    game = started_game(cast, bettors, hop)
    trade(game, cast.jude, "buy", "H")  # the sender takes this one and waits at the gate ...
    for _ in range(5):  # ... while these pile up behind it
        trade(game, cast.june, "buy", "H")
    services.game_settle(game_id=game.pk, force=True)
    gate.set()
    assert notify.flush()
    assert len(calls) <= 3  # the held batch, then the rest in one hop (or two, if the sender was slow to start)
    pushed = [(group, p) for batch in calls for group, p in batch]
    prices = [
        p["point"]["price"] for group, p in pushed if p["type"] == "price" and group == groups.bettors_group(game.pk)
    ]
    assert prices == [51, 52, 53, 54, 55, 56]  # every price, in order
    for batch in calls:  # each page refreshed at most once per hop
        refreshed = [group for group, p in batch if p["type"] == "refresh"]
        assert len(refreshed) == len(set(refreshed))
    assert pushed[-1][1]["type"] == "refresh"  # the end of the game comes after the last price


def test_coalesce_drops_only_refreshes_that_a_later_one_repeats():
    def event(payload):
        return {"type": "arena.event", "payload": payload}

    batch = [
        ("a", event({"type": "refresh"})),
        ("b", event({"type": "price", "n": 1})),
        ("a", event({"type": "refresh"})),
        ("b", event({"type": "price", "n": 2})),
        ("c", event({"type": "refresh"})),
        ("a", {"type": "arena.message", "judge": {}}),
    ]
    assert notify.coalesce(batch) == batch[1:]
