"""Migration 0005 (trades become ledger transactions of their own), both ways on books with trades:
going back rebuilds each trade's transaction and legs, coming forward drops them again, and the books
balance the same throughout. On PostgreSQL, the functions installed are the markets/sql files."""

import pytest
from django.db import connection

from markets import selectors
from markets.models import Account, LedgerTxn
from markets.sql import load

from ..conftest import migrate_to as migrate
from .conftest import running_game, trade

BEFORE = [("markets", "0004_fewer_trade_indexes")]


def _latest():
    """Every app at its latest migration (going back to 0004 also takes back the later migrations of
    markets, and of the apps that depend on them)."""
    from django.db.migrations.loader import MigrationLoader

    return MigrationLoader(connection).graph.leaf_nodes()


@pytest.mark.slow
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
        migrate(_latest())
    assert not LedgerTxn.objects.filter(game=game).exclude(kind__in=["grant", "payout", "refund"]).exists()
    assert dict(Account.objects.filter(game=game).values_list("pk", "balance")) == balances
    assert selectors.ledger_audit(game=game) == []
    assert trade(game, jude, "buy", "H").price_after == 49  # the trade path works after the round trip
    assert selectors.ledger_audit(game=game) == []


def _installed_source(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT prosrc FROM pg_proc WHERE proname = %s", [name])
        return cursor.fetchone()[0]


def _body(file: str) -> str:
    """The function body of a markets/sql file: the text between its $$ quotes."""
    return load(file).split("$$")[1]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_database_runs_the_sql_files_as_written():
    """PostgreSQL: the functions the migrations install are the markets/sql files' text, both ways."""
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL functions (set DATABASE_URL)")
    assert _installed_source("markets_ledger_zero_sum") == _body("ledger_zero_sum.sql")
    assert _installed_source("markets_trade_place") == _body("trade_place_v2.sql")
    try:
        migrate(BEFORE)
        assert _installed_source("markets_trade_place") == _body("trade_place_v1.sql")
    finally:
        migrate(_latest())
    assert _installed_source("markets_trade_place") == _body("trade_place_v2.sql")
