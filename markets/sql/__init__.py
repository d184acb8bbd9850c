"""The PostgreSQL code of the markets app, as SQL files the migrations run (read and diff them as SQL).

Migrations are history: a file that a migration loads is never edited; a new version of a function
is a new file (`trade_place_v2.sql` beside `trade_place_v1.sql`) loaded by a new migration.
"""

from core.pgsql import sql_load


def load(name: str) -> str:
    """The text of `markets/sql/<name>`, exactly as written (comments included)."""
    return sql_load(__name__, name)
