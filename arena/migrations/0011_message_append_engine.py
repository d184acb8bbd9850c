"""The one-statement append, version 2 (arena/sql/message_append_v2.sql): it also returns the machine
witness's engine, so a judge's message to an external program's entry (lpp, lpp2, pull) enqueues no
bot reply that would only find out it has nothing to do."""

from django.db import migrations

from core.pgsql import run_on_postgresql


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0010_spectator_feed"),
    ]

    operations = [
        run_on_postgresql(
            "arena.sql", "message_append_v2.sql", ("message_append_v2_drop.sql", "message_append_v1.sql")
        ),
    ]
