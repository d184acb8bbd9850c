"""Migrations that install PostgreSQL-only code (triggers, functions) from markets/sql/; other
databases skip them (core.pgsql)."""

from django.db import migrations

from core import pgsql


def run_on_postgresql(create: str | tuple[str, ...], drop: str | tuple[str, ...]) -> migrations.RunPython:
    """Run the markets/sql file(s) `create` forwards and `drop` backwards, on PostgreSQL only."""
    return pgsql.run_on_postgresql("markets.sql", create, drop)
