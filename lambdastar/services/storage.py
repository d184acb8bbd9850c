"""Storing one computed chunk in one statement, at most once.

The chunk row carries its episodes' scores and complexities as two JSON arrays (a row per episode
cost the database ~15 µs each); ``INSERT … ON CONFLICT DO NOTHING RETURNING`` stores it unless a
copy is there already, atomically without a transaction of its own, on PostgreSQL and SQLite alike.
Floats go through ``repr`` (``json.dumps``), so the same doubles read back.
"""

from __future__ import annotations

import json

from django.db import connection
from django.utils import timezone

from lambdastar.models import ChunkResult

COLUMNS = (
    "run_id",
    "agent_type",
    "index",
    "first_episode",
    "stop_episode",
    "worker",
    "elapsed_s",
    "created_at",
    "scores",
    "complexities",
)
JSON_COLUMNS = ("scores", "complexities")


def _insert() -> str:
    """The chunk row, unless a copy is stored already: RETURNING gives its id, or nothing."""
    cast = "::jsonb" if connection.vendor == "postgresql" else ""
    names = ", ".join(connection.ops.quote_name(c) for c in COLUMNS)
    values = ", ".join(f"%s{cast}" if c in JSON_COLUMNS else "%s" for c in COLUMNS)
    key = ", ".join(connection.ops.quote_name(c) for c in ("run_id", "agent_type", "index"))
    return (
        f"INSERT INTO {connection.ops.quote_name(ChunkResult._meta.db_table)} ({names}) VALUES ({values}) "
        f"ON CONFLICT ({key}) DO NOTHING RETURNING {connection.ops.quote_name('id')}"
    )


def chunk_store(
    *,
    run_id: int,
    agent_type: str,
    index: int,
    first: int,
    scores: list[float],
    complexities: list[int] | None,
    worker: str,
    elapsed_s: float,
) -> bool:
    """Store a chunk with its per-episode results; False (nothing written) if it was stored already."""
    row = [
        run_id,
        agent_type,
        index,
        first,
        first + len(scores),
        worker[:200],
        elapsed_s,
        connection.ops.adapt_datetimefield_value(timezone.now()),
        json.dumps(scores),
        None if complexities is None else json.dumps(complexities),
    ]
    with connection.cursor() as cursor:
        cursor.execute(_insert(), row)
        return cursor.fetchone() is not None
