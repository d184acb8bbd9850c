"""A message append on PostgreSQL in one round trip: one statement, the SQL function
`arena_message_append` (arena/sql/message_append_v2.sql, installed by migration 0011; version 1 by 0009).

Through Django's atomic block an append costs five round trips (BEGIN, the lock, the chain's last
link, the INSERT, COMMIT); the two-query append before this one cost two. The function locks the
conversation row, makes `appends`' decisions in the same order, reads the last link in a statement of
its own (read committed: a fresh snapshot taken under the lock, so it sees whoever held the lock
before), numbers the message, chains its hash as `core.hashchain.message_hash` does, inserts it and
returns what the push needs. Outside a transaction the statement is its own transaction: the message
is committed when the answer arrives, before anything is pushed; an error rolls the statement back
and leaves the connection idle. Inside a caller's transaction it is one statement of that
transaction (the lock is held, and the push waits, until the caller commits).

PL/pgSQL plans its statements once per session, as the prepared statements of the two-query append
did, without a PREPARE of our own to lose (DISCARD ALL, a pooler).
"""

from __future__ import annotations

import datetime as dt

from django.db import connection

from arena.services import appends

CALL = "SELECT * FROM arena_message_append(%s::bigint, %s::text, %s::bigint, %s::text, %s::timestamptz, %s::boolean)"


def usable() -> bool:
    """On PostgreSQL in read committed (a snapshot per statement: what the last-link read relies on)."""
    if connection.vendor != "postgresql":
        return False
    level = connection.settings_dict.get("OPTIONS", {}).get("isolation_level")
    return level is None or int(level) == 1  # psycopg's IsolationLevel.READ_COMMITTED


def message_append(
    *, conversation_id: int, sender_role: str, user, text: str, now: dt.datetime, policy: bool
) -> appends.Appended:
    """`appends.message_append`'s answer, in one round trip."""
    with connection.cursor() as cursor:
        cursor.execute(CALL, [conversation_id, sender_role, user.pk if user is not None else None, text, now, policy])
        return appended(cursor.fetchone(), sender_role=sender_role, text=text)


def appended(row, *, sender_role: str, text: str) -> appends.Appended:
    """The function's answer row as `appends.message_append` answers (whichever connection ran CALL
    with `message_append`'s parameters: Django's, or an async one on a server's event loop)."""
    (
        outcome,
        pk,
        public_id,
        side,
        interrogator_id,
        human_id,
        entry_id,
        interrogation_id,
        status,
        label,
        cap,
        last_role,
        message_pk,
        seq,
        prev_hash,
        digest,
        created_at,
        engine,
        feed_delay,
    ) = row
    if outcome == "missing":
        return appends.Appended(outcome)
    conversation = appends.conversation_loaded(
        id=pk,
        public_id=public_id,
        side=side,
        interrogator_id=interrogator_id,
        witness_human_id=human_id,
        witness_entry_id=entry_id,
        interrogation_id=interrogation_id,
    )
    found = appends.Appended(
        outcome, conversation, status, label, cap, last_role, witness_engine=engine or "", feed_delay_s=feed_delay
    )
    if outcome == "ok":
        found.message = appends.message_loaded(
            id=message_pk,
            conversation_id=pk,
            seq=seq,
            sender_role=sender_role,
            text=text,
            created_at=created_at,
            prev_hash=prev_hash,
            hash=digest,
        )
    return found
