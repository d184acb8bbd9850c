"""pg_trgm and a trigram GiST index on learned prompts: PostgreSQL only (SQLite skips both).

GiST, not GIN: it serves ORDER BY prompt <-> %s LIMIT n (nearest neighbours) straight from the index.

The learner matches in memory (rapidfuzz) on SQLite, and by trigram similarity in PostgreSQL.
"""

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations

INDEX = "arena_learnedpair_prompt_trgm"


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON arena_learnedpair USING gist (prompt gist_trgm_ops)"
        )


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("arena", "0003_bot_health_learner")]

    operations = [
        TrigramExtension(),  # CreateExtension does nothing on other databases
        migrations.RunPython(create_index, drop_index),
    ]
