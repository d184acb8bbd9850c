"""The SQL of a message append, the hot path of every chat message (see `messages.message_post`).

Three statements through Django's cursor, built once per database vendor from the models' own table
and column names: lock a conversation (with what the checks need), read the last link of its hash
chain, insert the new message. Building the same queries with the ORM cost about four times the CPU.
Values come back as the ORM would give them (aware datetimes, UUIDs), on PostgreSQL and SQLite alike.

An append's transaction has one interface and two implementations, chosen by
`appends_pg.append_open`: `AtomicAppend` here, Django's atomic block around the three statements
(SQLite, or inside a caller's transaction), and on PostgreSQL outside any transaction
`appends_pg.TwoTripAppend`, two round trips (lock and last link in one, INSERT and COMMIT in the
other).
"""
import datetime as dt
import uuid
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from arena.models import Conversation, Entry, Interrogation, Message

LOCK_FIELDS = ("id", "public_id", "side", "interrogator", "witness_human", "witness_entry", "interrogation")


def _column(model, name: str, alias: str) -> str:
    return f"{alias}.{connection.ops.quote_name(model._meta.get_field(name).column)}"


def _table(model, alias: str) -> str:
    return f"{connection.ops.quote_name(model._meta.db_table)} {alias}"


@cache
def _lock_sql(vendor: str) -> str:
    user = get_user_model()
    columns = [_column(Conversation, name, "c") for name in LOCK_FIELDS] + [
        # The conversation's own status, not the interrogation's: it is on the locked row, so a message
        # waiting for the lock while the interrogation ends sees "ended" (PostgreSQL re-reads a locked row,
        # not the rows joined to it) and is refused instead of landing after the transcript's seal.
        _column(Conversation, "status", "c"), _column(Interrogation, "deadline", "i"),
        _column(Entry, "display_name", "e"), _column(user, user.USERNAME_FIELD, "u"),
    ]
    sql = (
        f"SELECT {', '.join(columns)} FROM {_table(Conversation, 'c')}"
        f" JOIN {_table(Interrogation, 'i')} ON {_column(Interrogation, 'id', 'i')} = {_column(Conversation, 'interrogation', 'c')}"
        f" LEFT JOIN {_table(Entry, 'e')} ON {_column(Entry, 'id', 'e')} = {_column(Conversation, 'witness_entry', 'c')}"
        f" LEFT JOIN {_table(user, 'u')} ON {_column(user, user._meta.pk.name, 'u')}"
        f" = {_column(Conversation, 'witness_human', 'c')}"
        f" WHERE {_column(Conversation, 'id', 'c')} = %s"
    )
    if connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF c"
    elif connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql


@cache
def _last_link_sql(vendor: str) -> str:
    return (
        f"SELECT {_column(Message, 'seq', 'm')}, {_column(Message, 'hash', 'm')} FROM {_table(Message, 'm')}"
        f" WHERE {_column(Message, 'conversation', 'm')} = %s ORDER BY {_column(Message, 'seq', 'm')} DESC LIMIT 1"
    )


@cache
def _insert_sql(vendor: str) -> str:
    names = ("conversation", "seq", "sender_role", "text", "created_at", "prev_hash", "hash")
    columns = ", ".join(connection.ops.quote_name(Message._meta.get_field(name).column) for name in names)
    sql = (
        f"INSERT INTO {connection.ops.quote_name(Message._meta.db_table)} ({columns})"
        f" VALUES ({', '.join(['%s'] * len(names))})"
    )
    if connection.features.can_return_columns_from_insert:
        sql += f" RETURNING {connection.ops.quote_name(Message._meta.pk.column)}"
    return sql


def lock_sql() -> str:
    return _lock_sql(connection.vendor)


def last_link_sql() -> str:
    return _last_link_sql(connection.vendor)


def insert_statement_sql() -> str:
    return _insert_sql(connection.vendor)


def _aware(value) -> dt.datetime | None:
    if value is None or isinstance(value, dt.datetime):
        return value if value is None or value.tzinfo else value.replace(tzinfo=dt.UTC)
    return dt.datetime.fromisoformat(value).replace(tzinfo=dt.UTC)  # SQLite: naive UTC text


def conversation_lock(conversation_id: int):
    """Lock the conversation row until the transaction ends. Returns (conversation, its status
    (the interrogation's, mirrored on the locked row), deadline, witness label), or None when there is no such conversation."""
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(connection.vendor), [conversation_id])
        return locked_from_row(cursor.fetchone())


def locked_from_row(row):
    """`conversation_lock`'s answer from the lock statement's row."""
    if row is None:
        return None
    pk, public_id, side, interrogator_id, human_id, entry_id, interrogation_id, status, deadline, entry_name, username = row
    conversation = Conversation(
        id=pk, public_id=public_id if isinstance(public_id, uuid.UUID) else uuid.UUID(public_id), side=side,
        interrogator_id=interrogator_id, witness_human_id=human_id, witness_entry_id=entry_id,
        interrogation_id=interrogation_id,
    )
    conversation._state.adding, conversation._state.db = False, connection.alias
    return conversation, status, _aware(deadline), entry_name if entry_id else username


def last_link(conversation_id: int) -> tuple[int, str] | None:
    """(seq, hash) of the conversation's last message, read after the lock (it sees every commit)."""
    with connection.cursor() as cursor:
        cursor.execute(_last_link_sql(connection.vendor), [conversation_id])
        return cursor.fetchone()


def insert_statement(*, conversation_id: int, seq: int, sender_role: str, text: str, created_at: dt.datetime,
                     prev_hash: str, digest: str) -> tuple[str, list]:
    """The INSERT of a message and its parameters (on PostgreSQL it returns the new id)."""
    params = [conversation_id, seq, sender_role, text, connection.ops.adapt_datetimefield_value(created_at),
              prev_hash, digest]
    return _insert_sql(connection.vendor), params


def message_insert(**fields) -> Message:
    sql, params = insert_statement(**fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if connection.features.can_return_columns_from_insert:
            pk = cursor.fetchone()[0]
        else:
            pk = connection.ops.last_insert_id(cursor, Message._meta.db_table, Message._meta.pk.column)
    return message_from_insert(pk, **fields)


def message_from_insert(pk: int, *, conversation_id: int, seq: int, sender_role: str, text: str,
                        created_at: dt.datetime, prev_hash: str, digest: str) -> Message:
    """The stored message as the ORM would load it."""
    message = Message(id=pk, conversation_id=conversation_id, seq=seq, sender_role=sender_role, text=text,
                      created_at=created_at, prev_hash=prev_hash, hash=digest)
    message._state.adding, message._state.db = False, connection.alias
    return message


class AtomicAppend:
    """The portable append: Django's atomic block around the three statements (five round trips on
    PostgreSQL, counting BEGIN and COMMIT); callbacks run when the outermost block commits."""

    def __init__(self, conversation_id: int):
        self.conversation_id = conversation_id
        self.locked = conversation_lock(conversation_id)

    def last_link(self) -> tuple[int, str] | None:
        return last_link(self.conversation_id)

    def insert(self, **fields) -> Message:
        return message_insert(**fields)

    def on_commit(self, callback) -> None:
        transaction.on_commit(callback)

