"""Migrations that install PostgreSQL-only code (triggers, functions); other databases skip them."""
from django.db import migrations


def run_on_postgresql(create: str, drop: str) -> migrations.RunPython:
    def forwards(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            with schema_editor.connection.cursor() as cursor:  # no parameters: "%" stays as written
                cursor.execute(create)

    def backwards(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(drop)

    return migrations.RunPython(forwards, backwards)
