"""An interrogation's message policy (turn rule, length cap: a study's rules, checked under the
append's lock), and on PostgreSQL the one-statement append `arena_message_append`
(arena/sql/message_append_v1.sql; arena/services/appends_pg.py calls it)."""

from django.conf import settings
from django.db import migrations, models

from core.pgsql import run_on_postgresql


class Migration(migrations.Migration):
    dependencies = [
        ("arena", "0008_entrant_journey"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),  # the function reads the witness's username
    ]

    operations = [
        migrations.AddField(
            model_name="interrogation",
            name="max_message_chars",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="People's messages are at most this long (the platform's own cap otherwise).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="interrogation",
            name="turn_rule",
            field=models.CharField(
                choices=[
                    ("free", "free: anyone writes any time"),
                    ("interrogator_first", "the interrogator writes first, then free"),
                    ("alternate", "the interrogator writes first, then strict alternation"),
                ],
                default="free",
                help_text="Who may write next (people only; machine witnesses answer each question once).",
                max_length=20,
            ),
        ),
        run_on_postgresql("arena.sql", "message_append_v1.sql", "message_append_drop.sql"),
    ]
