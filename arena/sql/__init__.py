"""The PostgreSQL code of the arena, as SQL files its migrations run (core.pgsql; read and diff them as
SQL). Migrations are history: a file a migration loads is never edited; a new version is a new file."""

from core.pgsql import sql_load


def load(name: str) -> str:
    """The text of `arena/sql/<name>`, exactly as written (comments included)."""
    return sql_load(__name__, name)
