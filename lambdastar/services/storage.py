"""Storing one computed chunk in as few round trips as the database allows, stored at most once.

PostgreSQL: one statement (the chunk row inserted unless it exists, its episodes from arrays in the
same statement), so it is atomic without a transaction of its own. SQLite (the embedded default):
the chunk row and an ``executemany`` of its episodes in one transaction.
"""
from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone

from lambdastar.models import ChunkResult, EpisodeResult

CHUNK_COLUMNS = ("run_id", "agent_type", "index", "first_episode", "stop_episode", "worker", "elapsed_s",
                 "created_at")
EPISODE_COLUMNS = ("chunk_id", "run_id", "agent_type", "episode", "score", "complexity")


def _names(columns) -> str:
    return ", ".join(connection.ops.quote_name(c) for c in columns)


def _chunk_insert() -> str:
    """The chunk row, unless a copy is stored already: RETURNING gives its id, or nothing."""
    placeholders = ", ".join(["%s"] * len(CHUNK_COLUMNS))
    return (f"INSERT INTO {connection.ops.quote_name(ChunkResult._meta.db_table)} ({_names(CHUNK_COLUMNS)}) "
            f"VALUES ({placeholders}) ON CONFLICT ({_names(('run_id', 'agent_type', 'index'))}) DO NOTHING "
            f"RETURNING {connection.ops.quote_name('id')}")


def chunk_store(*, run_id: int, agent_type: str, index: int, first: int, scores: list[float],
                complexities: list[int] | None, worker: str, elapsed_s: float) -> bool:
    """Store a chunk and its per-episode rows; False (nothing written) if it was stored already."""
    chunk_row = [run_id, agent_type, index, first, first + len(scores), worker[:200], elapsed_s,
                 connection.ops.adapt_datetimefield_value(timezone.now())]
    if complexities is None:
        complexities = [None] * len(scores)
    episodes = list(range(first, first + len(scores)))
    if connection.vendor == "postgresql":
        return _store_postgresql(chunk_row, run_id, agent_type, episodes, scores, complexities)
    return _store_generic(chunk_row, run_id, agent_type, episodes, scores, complexities)


def _array(values) -> str:
    """A PostgreSQL array literal, built at C speed (psycopg would adapt the list element by element
    in Python); repr() of a float reads back as the same double."""
    return "{" + ",".join("NULL" if v is None else repr(v) for v in values) + "}"


def _store_postgresql(chunk_row, run_id, agent_type, episodes, scores, complexities) -> bool:
    table = connection.ops.quote_name(EpisodeResult._meta.db_table)
    sql = (f"WITH chunk AS ({_chunk_insert()}) "
           f"INSERT INTO {table} ({_names(EPISODE_COLUMNS)}) "
           f"SELECT chunk.id, %s, %s, %s + e.i - 1, e.score, e.complexity FROM chunk, "
           f"unnest(%s::double precision[], %s::integer[]) WITH ORDINALITY AS e(score, complexity, i)")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*chunk_row, run_id, agent_type, episodes[0], _array(scores), _array(complexities)])
        return cursor.rowcount > 0  # a chunk has at least one episode; none inserted: a duplicate


def _store_generic(chunk_row, run_id, agent_type, episodes, scores, complexities) -> bool:
    table = connection.ops.quote_name(EpisodeResult._meta.db_table)
    episode_insert = (f"INSERT INTO {table} ({_names(EPISODE_COLUMNS)}) "
                      f"VALUES ({', '.join(['%s'] * len(EPISODE_COLUMNS))})")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_chunk_insert(), chunk_row)
        row = cursor.fetchone()
        if row is None:
            return False
        cursor.executemany(episode_insert, [(row[0], run_id, agent_type, e, s, k)
                                            for e, s, k in zip(episodes, scores, complexities)])
    return True
