"""Turing Trade's trading rules through the services: quotes, one type at a time, bounds, points, clicks, settlement."""

import pytest

from core.errors import ArenaError, Closed, InvalidInput, NotAllowed
from markets import selectors, services
from markets.models import Account, Game, LedgerTxn, Market, Participant, Trade

from .conftest import running_game, trade

pytestmark = pytest.mark.django_db


def snapshot(game):
    return (
        list(Market.objects.filter(game=game).values_list("human_price", "q_human", "q_computer", "seq")),
        list(Account.objects.filter(game=game).order_by("pk").values_list("balance", flat=True)),
        list(Participant.objects.filter(game=game).order_by("pk").values_list("security", "quantity")),
        Trade.objects.filter(game=game).count(),
        LedgerTxn.objects.filter(game=game).count(),
    )


def points(game, user):
    return Participant.objects.get(game=game, user=user).account.balance


def test_trades_follow_the_edge_convention(cast, bettors):
    game = running_game(cast, bettors[:2], starting_points=1000)
    jude, june = bettors[:2]
    assert trade(game, jude, "buy", "H").cost == 51
    t = trade(game, june, "buy", "C")
    assert (t.cost, t.price_before, t.price_after) == (50, 51, 50)
    assert trade(game, jude, "sell", "H").cost == -50
    assert points(game, jude) == 1000 - 51 + 50 and points(game, june) == 950
    assert list(Trade.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2, 3]
    assert selectors.ledger_audit(game=game) == []


def test_trade_logs_the_current_question(cast, bettors):
    game = running_game(cast, bettors[:2])
    question = services.question_ask(game_id=game.pk, user=cast.jude, text="hello?")
    assert trade(game, cast.june, "buy", "H").question_id == question.pk


@pytest.mark.parametrize(
    "setup, action, security, code",
    [
        ([], "sell", "H", "not_held"),
        ([("buy", "H")], "buy", "C", "other_type"),
        ([("buy", "C")], "sell", "H", "not_held"),
        ([], "short", "H", "invalid"),
        ([], "buy", "X", "invalid"),
    ],
)
def test_bad_trades_are_refused_and_change_nothing(cast, bettors, setup, action, security, code):
    game = running_game(cast, bettors[:1])
    for a, s in setup:
        trade(game, cast.jude, a, s)
    before = snapshot(game)
    with pytest.raises(ArenaError) as refused:
        trade(game, cast.jude, action, security)
    assert refused.value.code == code
    assert snapshot(game) == before


def test_price_bounds_and_points(cast, bettors):
    game = running_game(cast, bettors[:2], starting_points=100)
    with pytest.raises(ArenaError) as refused:
        for _ in range(3):
            trade(game, cast.jude, "buy", "H")  # 51 then 52 > 49 left
    assert refused.value.code == "insufficient_points" and points(game, cast.jude) == 49
    Market.objects.filter(game=game).update(human_price=100)
    before = snapshot(game)
    with pytest.raises(InvalidInput) as bound:
        trade(game, cast.june, "buy", "H")  # would take the price above 100
    assert bound.value.code == "price_bound" and snapshot(game) == before


def test_a_repeated_click_returns_the_original_trade(cast, bettors):
    game = running_game(cast, bettors[:1])
    first = trade(game, cast.jude, "buy", "H", k="click-1")
    again = trade(game, cast.jude, "buy", "H", k="click-1")
    assert again.pk == first.pk and Trade.objects.filter(game=game).count() == 1
    assert points(game, cast.jude) == 1000 - 51
    sold = trade(game, cast.jude, "sell", "H", k="click-2")
    assert trade(game, cast.jude, "sell", "H", k="click-2").pk == sold.pk  # not "you hold nothing"


@pytest.mark.parametrize("bad_key", ["\x00", "click\x00-1", "click\n", "\x1b[2J", "\u200b", "\U0010ffff"])
def test_a_key_with_a_control_or_invisible_character_is_refused_and_changes_nothing(cast, bettors, bad_key):
    """A click's key is 1 to 64 printable characters. PostgreSQL's text cannot hold NUL: a key with one
    reached the trade's SQL and failed there (DataError: the frame's answer was server_error, which the
    frame fuzzer found for the bettor's console)."""
    game = running_game(cast, bettors[:1])
    before = snapshot(game)
    with pytest.raises(InvalidInput):
        trade(game, cast.jude, "buy", "H", k=bad_key)
    assert snapshot(game) == before
    assert trade(game, cast.jude, "buy", "H", k="click \u00e9 1").cost == 51  # a space or an accent is fine


def test_outsiders_late_and_unstarted_trades_are_refused(cast, bettors):
    game = running_game(cast, bettors[:1])
    with pytest.raises(NotAllowed):
        trade(game, cast.oscar, "buy", "H")
    services.game_settle(game_id=game.pk, force=True)
    with pytest.raises(Closed):
        trade(game, cast.jude, "buy", "H")
    draft = services.game_create(title="d", humans=[cast.connie])
    with pytest.raises(Closed):
        services.game_join(game_id=draft.pk, user=cast.jude)


@pytest.mark.parametrize("target", ["human", "machine"])
def test_settlement_pays_100_per_winning_unit_and_is_idempotent(cast, bettors, target):
    game = running_game(cast, bettors[:2], target=target)
    trade(game, cast.jude, "buy", "H")
    trade(game, cast.jude, "buy", "H")  # 51 + 52
    trade(game, cast.june, "buy", "C")  # 51 -> 101 - 52 = 49
    services.game_settle(game_id=game.pk, force=True)
    after_once = snapshot(game)
    services.game_settle(game_id=game.pk, force=True)
    assert snapshot(game) == after_once
    game.refresh_from_db()
    assert game.status == Game.Status.SETTLED
    if target == "human":
        assert (points(game, cast.jude), points(game, cast.june)) == (1000 - 103 + 200, 1000 - 49)
    else:
        assert (points(game, cast.jude), points(game, cast.june)) == (1000 - 103, 1000 - 49 + 100)
    assert selectors.ledger_audit(game=game) == []
    log = selectors.game_log(game=game)
    assert log["reveal"]["kind"] == target and log["final_price"] == 51
    assert log["market_brier"] == pytest.approx((0.51 - (target == "human")) ** 2)


def test_void_refunds_everyone_and_cancels_positions(cast, bettors):
    game = running_game(cast, bettors[:2])
    trade(game, cast.jude, "buy", "H")
    trade(game, cast.june, "buy", "H")
    trade(game, cast.jude, "sell", "H")  # jude profits 1
    services.game_void(game_id=game.pk)
    services.game_void(game_id=game.pk)
    assert points(game, cast.jude) == points(game, cast.june) == 1000
    assert not Participant.objects.filter(game=game, quantity__gt=0).exists()
    maker = Account.objects.get(game=game, kind="maker")
    assert maker.balance == 0 and selectors.ledger_audit(game=game) == []
    with pytest.raises(Closed):
        services.game_settle(game_id=game.pk, force=True) and trade(game, cast.jude, "buy", "H")


def test_lmsr_treatment_trades_in_integers(cast, bettors):
    game = running_game(cast, bettors[:2], market_maker="lmsr", lmsr_b=10)
    costs = [trade(game, cast.jude, "buy", "H").cost for _ in range(5)]
    assert costs == sorted(costs) and all(isinstance(c, int) for c in costs)
    assert Market.objects.get(game=game).human_price > 50
    assert selectors.ledger_audit(game=game) == []


def test_leaderboard_ranks_by_profit_with_brier(cast, bettors):
    game = running_game(cast, bettors[:2])
    for _ in range(10):
        trade(game, cast.jude, "buy", "H")
    services.game_settle(game_id=game.pk, force=True)
    board = selectors.leaderboard()
    assert board["bettors"][0]["bettor"] == "jude" and board["bettors"][0]["profit"] > 0
    assert board["bettors"][0]["brier"] == pytest.approx((0.6 - 1) ** 2)
