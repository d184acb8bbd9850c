"""Migrations that install PostgreSQL-only code (triggers, functions) from markets/sql/; other
databases skip them."""
from django.db import migrations

from markets.sql import load


def run_on_postgresql(create: str | tuple[str, ...], drop: str | tuple[str, ...]) -> migrations.RunPython:
    """Run the SQL file(s) `create` forwards and `drop` backwards, on PostgreSQL only. The files are
    read when the migration is imported, so a missing one fails on every database."""
    create_sql, drop_sql = _read(create), _read(drop)

    def forwards(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            with schema_editor.connection.cursor() as cursor:  # no parameters: "%" stays as written
                cursor.execute(create_sql)

    def backwards(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(drop_sql)

    return migrations.RunPython(forwards, backwards)


def _read(names: str | tuple[str, ...]) -> str:
    return "".join(load(name) for name in ((names,) if isinstance(names, str) else names))
