"""PostgreSQL: refuse, at commit, any ledger transaction whose legs do not sum to zero.

A deferred constraint trigger (the idea of django-hordak, without the dependency):
markets/sql/ledger_zero_sum.sql. Other databases rely on `ledger_post`'s own check and on
`selectors.ledger_audit`, which the tests run.
"""

from django.db import migrations

from markets.pgsql import run_on_postgresql


class Migration(migrations.Migration):
    dependencies = [("markets", "0001_initial")]
    operations = [run_on_postgresql("ledger_zero_sum.sql", "ledger_zero_sum_drop.sql")]
