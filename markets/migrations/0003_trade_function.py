"""PostgreSQL: one trade of the linear maker in one round trip, `markets_trade_place(...)`:
markets/sql/trade_place_v1.sql (replaced by trade_place_v2.sql in migration 0005).

The same rules as the Python path (markets/services/trading.py states them); a refusal is returned
as `outcome` (nothing written). `p_lock => false` reads the market and the bettor unlocked (the broken
variant the concurrency test shows losing updates); every caller in the platform locks.
"""

from django.db import migrations

from markets.pgsql import run_on_postgresql


class Migration(migrations.Migration):
    dependencies = [("markets", "0002_ledger_zero_sum_trigger")]
    operations = [run_on_postgresql("trade_place_v1.sql", "trade_place_drop.sql")]
