"""Migration 0005 (trades become ledger transactions of their own), both ways on books with trades:
going back rebuilds each trade's transaction and legs, coming forward drops them again, and the books
balance the same throughout."""
import pytest

from markets import selectors
from markets.models import Account, LedgerTxn

from ..conftest import migrate_to as migrate
from .conftest import running_game, trade

BEFORE = [("markets", "0004_fewer_trade_indexes")]
AFTER = [("markets", "0005_trades_are_ledger_transactions")]


@pytest.mark.django_db(transaction=True)
def test_trade_transactions_are_rebuilt_going_back_and_dropped_coming_forward(cast, bettors):
    jude, june = bettors[:2]
    game = running_game(cast, [jude, june], starting_points=500)
    for user, action, security in [(jude, "buy", "H"), (june, "buy", "C"), (jude, "sell", "H"), (june, "buy", "C")]:
        trade(game, user, action, security)
    balances = dict(Account.objects.filter(game=game).values_list("pk", "balance"))
    maker = Account.objects.get(game=game, kind="maker").pk
    assert selectors.ledger_audit(game=game) == []
    try:
        old = migrate(BEFORE)
        Trade, LedgerEntry = old.get_model("markets", "Trade"), old.get_model("markets", "LedgerEntry")
        trades = list(Trade.objects.filter(game_id=game.pk).select_related("participant").order_by("seq"))
        assert [t.cost for t in trades] == [51, 50, -50, 52]
        for t in trades:  # each trade has its transaction back: the bettor pays the maker
            legs = sorted(LedgerEntry.objects.filter(txn_id=t.txn_id).values_list("account_id", "amount"))
            assert legs == sorted([(t.participant.account_id, -t.cost), (maker, t.cost)])
        for account, balance in balances.items():  # and every cached balance is its legs' sum again
            assert sum(LedgerEntry.objects.filter(account_id=account).values_list("amount", flat=True)) == balance
    finally:
        migrate(AFTER)
    assert not LedgerTxn.objects.filter(game=game).exclude(kind__in=["grant", "payout", "refund"]).exists()
    assert dict(Account.objects.filter(game=game).values_list("pk", "balance")) == balances
    assert selectors.ledger_audit(game=game) == []
    assert trade(game, jude, "buy", "H").price_after == 49  # the trade path works after the round trip
    assert selectors.ledger_audit(game=game) == []
