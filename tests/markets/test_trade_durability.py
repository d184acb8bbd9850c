"""A trade of its own on PostgreSQL releases the market lock at its commit and waits for the WAL flush
before answering (early lock release, markets/services/trading_sql.py): the session's durability
setting is never left changed, and a database error inside that query leaves the connection usable."""

import contextlib

import pytest
from django.db import DatabaseError, connection, transaction
from psycopg.pq import TransactionStatus

from markets.models import Market, Trade
from markets.services import trading_sql

from .conftest import running_game, trade

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("early lock release is for PostgreSQL (set DATABASE_URL)")


def setting(name):
    with connection.cursor() as cursor:
        cursor.execute(f"SHOW {name}")
        return cursor.fetchone()[0]


@contextlib.contextmanager
def statements_sent():
    """The SQL this connection sends inside the block."""
    sent = []

    def spy(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        yield sent


def test_a_trade_waits_for_the_flush_and_leaves_synchronous_commit_on(cast, bettors):
    game = running_game(cast, bettors)
    with statements_sent() as sent:
        placed = trade(game, bettors[0], "buy", "H")
    assert any("pg_logical_emit_message" in sql and "synchronous_commit" in sql for sql in sent)
    assert Trade.objects.get(pk=placed.pk).price_after == 51
    # the asynchronous commit was the trade's own: the session commits synchronously again
    assert setting("synchronous_commit") == "on"
    assert connection.connection.info.transaction_status == TransactionStatus.IDLE


def test_inside_a_callers_transaction_the_trade_is_a_plain_statement(cast, bettors):
    game = running_game(cast, bettors)
    with statements_sent() as sent, transaction.atomic():
        trade(game, bettors[0], "buy", "H")
        assert setting("synchronous_commit") == "on"  # the caller's commit stays synchronous
    assert not any("pg_logical_emit_message" in sql for sql in sent)
    assert Market.objects.get(game=game).human_price == 51


def test_an_error_inside_the_query_is_rolled_back_and_the_connection_goes_on(cast, bettors, monkeypatch):
    game = running_game(cast, bettors)
    broken = trading_sql.EARLY_RELEASE.replace("FROM markets_trade_place(", "FROM markets_trade_place_missing(")
    monkeypatch.setattr(trading_sql, "EARLY_RELEASE", broken)
    with pytest.raises(DatabaseError):
        trade(game, bettors[0], "buy", "H")
    assert connection.connection.info.transaction_status == TransactionStatus.IDLE
    assert setting("synchronous_commit") == "on"
    monkeypatch.undo()
    assert trade(game, bettors[0], "buy", "H").price_after == 51  # nothing of the failed click was kept
    assert Trade.objects.filter(game=game).count() == 1
