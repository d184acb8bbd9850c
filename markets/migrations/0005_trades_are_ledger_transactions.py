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
   without its `txn_id` column): markets/sql/trade_place_v2.sql instead of trade_place_v1.sql.

Reversible: going back rebuilds each trade's transaction and legs from its row and restores the
function of migration 0003.
"""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery

from markets.pgsql import run_on_postgresql
from markets.sql import load


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
        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(txn=txn, account_id=trade.participant.account_id, amount=-trade.cost),
                LedgerEntry(txn=txn, account_id=trade.maker_account, amount=trade.cost),
            ]
        )
        Trade.objects.filter(pk=trade.pk).update(txn=txn)
    _checks_now(schema_editor)


def _checks_now(schema_editor):
    """Run the deferred checks (zero-sum trigger, foreign keys) of the rows just written now: PostgreSQL
    refuses to alter a table with trigger events pending, and the next operations alter tables."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(load("deferred_checks_now.sql"))


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
            field=models.OneToOneField(
                null=True, on_delete=models.PROTECT, related_name="trade", to="markets.ledgertxn"
            ),
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
            field=models.CharField(
                choices=[
                    ("grant", "starting points"),
                    ("payout", "payout at reveal"),
                    ("refund", "refund of a void game"),
                ],
                max_length=8,
            ),
        ),
        migrations.RemoveConstraint(model_name="ledgertxn", name="ledger_once_per_bettor_and_kind"),
        migrations.AddConstraint(
            model_name="ledgertxn",
            constraint=models.UniqueConstraint(fields=("participant", "kind"), name="ledger_once_per_bettor_and_kind"),
        ),
        migrations.RunPython(drop_trade_ledger_rows, migrations.RunPython.noop),
        run_on_postgresql(
            ("trade_place_drop.sql", "trade_place_v2.sql"), ("trade_place_drop.sql", "trade_place_v1.sql")
        ),
    ]
