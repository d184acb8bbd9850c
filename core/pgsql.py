"""PostgreSQL-only code (functions, triggers) kept as SQL files in an app's `sql/` package and run by
its migrations; other databases skip them.

Migrations are history: a file that a migration loads is never edited; a new version of a function
is a new file (`<name>_v2.sql` beside `<name>_v1.sql`) loaded by a new migration.
"""

from functools import cache
from importlib.resources import files

from django.db import migrations


@cache
def sql_load(package: str, name: str) -> str:
    """The text of `<package>/<name>` (e.g. "markets.sql", "trade_place_v2.sql"), exactly as written."""
    return files(package).joinpath(name).read_text(encoding="utf-8")


def sql_function_body(package: str, name: str) -> str:
    """A function file's body: the text between its $$ quotes (what pg_proc.prosrc holds)."""
    return sql_load(package, name).split("$$")[1]


def run_on_postgresql(package: str, create: str | tuple[str, ...], drop: str | tuple[str, ...]) -> migrations.RunPython:
    """Run the SQL file(s) `create` forwards and `drop` backwards, on PostgreSQL only. The files are
    read when the migration is imported, so a missing one fails on every database."""
    create_sql, drop_sql = _read(package, create), _read(package, drop)

    def forwards(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            with schema_editor.connection.cursor() as cursor:  # no parameters: "%" stays as written
                cursor.execute(create_sql)

    def backwards(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            with schema_editor.connection.cursor() as cursor:
                cursor.execute(drop_sql)

    return migrations.RunPython(forwards, backwards)


def _read(package: str, names: str | tuple[str, ...]) -> str:
    return "".join(sql_load(package, name) for name in ((names,) if isinstance(names, str) else names))
