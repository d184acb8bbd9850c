"""Trades become ledger transactions of their own.

A trade used to write a LedgerTxn and two LedgerEntry legs beside its Trade row: three more rows, five
index entries, four foreign-key checks and two runs of the zero-sum trigger on every click, a fifth of
the database's work per trade. The trade row already says everything those rows said: who paid
(`participant` -> its account), who received (the game's maker account) and how much (`cost`), so its
legs sum to zero by construction. Grants, payouts and refunds stay LedgerTxn rows with their legs.

1. `Trade.txn` goes; the "trade" kind of LedgerTxn goes, and with it the exemption from "once per
   bettor and kind" that trade transactions needed.
2. Existing trades' LedgerTxn rows and legs are deleted. Balances do not move: the legs the trade rows
   imply are exactly the legs deleted (`selectors.ledger_audit` checks balances against both kinds).
3. `markets_trade_place` (PostgreSQL) is replaced by the same function without those writes (and
   without its `txn_id` column).

Reversible: going back rebuilds each trade's transaction and legs from its row and restores the
function of migration 0003.
"""
from importlib import import_module

from django.db import migrations, models
from django.db.models import OuterRef, Subquery

from markets.pgsql import run_on_postgresql

OLD_CREATE = import_module("markets.migrations.0003_trade_function").CREATE

OLD = "DROP FUNCTION IF EXISTS markets_trade_place(bigint, bigint, text, text, text, timestamptz, boolean);"
# the function of migration 0003 less its ledger writes and its txn_id column: each (old, new) below
# must be found in it exactly once
CHANGES = [
    ("OUT q_computer integer, OUT question_id bigint, OUT txn_id bigint, OUT created_at timestamptz,",
     "OUT q_computer integer, OUT question_id bigint, OUT created_at timestamptz,"),
    ("""        SELECT t.id, t.seq, t.action, t.security, t.cost, t.price_before, t.price_after, t.question_id, t.txn_id, t.created_at
          INTO trade_id, seq, action, security, cost, price_before, price_after, question_id, txn_id, created_at""",
     """        SELECT t.id, t.seq, t.action, t.security, t.cost, t.price_before, t.price_after, t.question_id, t.created_at
          INTO trade_id, seq, action, security, cost, price_before, price_after, question_id, created_at"""),
    ("""    -- every write in one statement: ledger transaction and legs, both balances, position, market, log
    WITH txn AS (
        INSERT INTO markets_ledgertxn (game_id, kind, participant_id, created_at)
        VALUES (p_game, 'trade', NULL, p_now) RETURNING id
    ), legs AS (
        INSERT INTO markets_ledgerentry (txn_id, account_id, amount)
        SELECT txn.id, leg.account, leg.amount
          FROM txn, (VALUES (p.account_id, -cost), (maker_account, cost)) AS leg (account, amount)
    ), balances AS (""",
     """    -- every write in one statement: both balances (the trade row is the ledger transaction: the
    -- bettor's account pays cost, the maker's receives it), position, market, log
    WITH balances AS ("""),
    ("""                               question_id, txn_id, idempotency_key, created_at)
    SELECT p_game, markets_trade_place.seq, p.id, p_action, p_security, cost, price_before, price_after,
           latest, txn.id, p_key, p_now
      FROM txn
    RETURNING id, markets_trade.txn_id INTO trade_id, txn_id;""",
     """                               question_id, idempotency_key, created_at)
    VALUES (p_game, markets_trade_place.seq, p.id, p_action, p_security, cost, price_before, price_after,
            latest, p_key, p_now)
    RETURNING id INTO trade_id;"""),
]


def _without_ledger_writes(source: str) -> str:
    for old, new in CHANGES:
        if source.count(old) != 1:
            raise ValueError(f"migration 0003's function has changed: {old[:60]!r}")
        source = source.replace(old, new)
    return source


CREATE = OLD + _without_ledger_writes(OLD_CREATE)


def rebuild_trade_ledger_rows(apps, schema_editor):
    """Backwards: each trade's LedgerTxn (kind "trade") and its two legs, linked from the trade."""
    Account = apps.get_model("markets", "Account")
    LedgerEntry = apps.get_model("markets", "LedgerEntry")
    LedgerTxn = apps.get_model("markets", "LedgerTxn")
    Trade = apps.get_model("markets", "Trade")
    maker = Account.objects.filter(game=OuterRef("game_id"), kind="maker").values("pk")[:1]
    trades = Trade.objects.filter(txn__isnull=True).annotate(maker_account=Subquery(maker)).order_by("pk")
    for trade in trades.select_related("participant").iterator(chunk_size=500):
        txn = LedgerTxn.objects.create(game_id=trade.game_id, kind="trade", participant=None)
        LedgerEntry.objects.bulk_create([LedgerEntry(txn=txn, account_id=trade.participant.account_id, amount=-trade.cost),
                                         LedgerEntry(txn=txn, account_id=trade.maker_account, amount=trade.cost)])
        Trade.objects.filter(pk=trade.pk).update(txn=txn)
    _checks_now(schema_editor)


def _checks_now(schema_editor):
    """Run the deferred checks (zero-sum trigger, foreign keys) of the rows just written now: PostgreSQL
    refuses to alter a table with trigger events pending, and the next operations alter tables."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        schema_editor.execute("SET CONSTRAINTS ALL DEFERRED")


def drop_trade_ledger_rows(apps, schema_editor):
    LedgerEntry = apps.get_model("markets", "LedgerEntry")
    LedgerTxn = apps.get_model("markets", "LedgerTxn")
    LedgerEntry.objects.filter(txn__kind="trade").delete()
    LedgerTxn.objects.filter(kind="trade").delete()
    _checks_now(schema_editor)


class Migration(migrations.Migration):
    dependencies = [("markets", "0004_fewer_trade_indexes")]

    operations = [
        # nullable first, so that going back can add the rebuilt transactions before it is required again
        migrations.AlterField(
            model_name="trade",
            name="txn",
            field=models.OneToOneField(null=True, on_delete=models.PROTECT, related_name="trade", to="markets.ledgertxn"),
        ),
        migrations.RunPython(migrations.RunPython.noop, rebuild_trade_ledger_rows),
        migrations.RemoveField(model_name="trade", name="txn"),
        migrations.AlterField(
            model_name="account",
            name="balance",
            field=models.BigIntegerField(default=0, help_text="Cached: always the sum of this account's ledger legs."),
        ),
        migrations.AlterField(
            model_name="ledgertxn",
            name="kind",
            field=models.CharField(choices=[("grant", "starting points"), ("payout", "payout at reveal"),
                                            ("refund", "refund of a void game")], max_length=8),
        ),
        migrations.RemoveConstraint(model_name="ledgertxn", name="ledger_once_per_bettor_and_kind"),
        migrations.AddConstraint(
            model_name="ledgertxn",
            constraint=models.UniqueConstraint(fields=("participant", "kind"), name="ledger_once_per_bettor_and_kind"),
        ),
        migrations.RunPython(drop_trade_ledger_rows, migrations.RunPython.noop),
        run_on_postgresql(CREATE, OLD + OLD_CREATE),
    ]
