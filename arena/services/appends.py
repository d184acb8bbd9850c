"""A message append (see `messages.message_post`): what it decides, in which order, and the
portable way of doing it.

The decisions, in order, under the conversation's row lock: the conversation exists; the sender may
write as that role (`check_sender`); the conversation is running; its deadline has not passed; then,
for people's messages, the interrogation's message policy (`turn_refusal`, the length cap), which
needs the chain's last link; finally the message is numbered, timed (the caller's clock, read before
the lock, but never before the message it follows), chained and inserted. The outcome is
one word ("ok" or why not), and `messages.message_post` turns a refusal into its error.

Two implementations make the same decisions: on PostgreSQL (in read committed) one statement, the
SQL function `arena_message_append` (`appends_pg`); elsewhere `message_append` here, three
statements through Django's cursor inside an atomic block, built once per database vendor from the
models' own table and column names (building the same queries with the ORM cost about four times the
CPU). Values come back as the ORM would give them (aware datetimes, UUIDs).
"""

import datetime as dt
import uuid
from dataclasses import dataclass
from functools import cache

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, transaction

from arena.models import Conversation, Entry, Interrogation, Message, SpectatorFeed, Status
from core import hashchain
from core.errors import InvalidInput, NotAllowed

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
        _column(Conversation, "status", "c"),
        _column(Interrogation, "deadline", "i"),
        _column(Entry, "display_name", "e"),
        _column(user, user.USERNAME_FIELD, "u"),
        _column(Interrogation, "turn_rule", "i"),
        _column(Interrogation, "max_message_chars", "i"),
        _column(Entry, "engine", "e"),
        _column(SpectatorFeed, "delay_s", "f"),
    ]
    sql = (
        f"SELECT {', '.join(columns)} FROM {_table(Conversation, 'c')}"
        f" JOIN {_table(Interrogation, 'i')} ON {_column(Interrogation, 'id', 'i')}"
        f" = {_column(Conversation, 'interrogation', 'c')}"
        f" LEFT JOIN {_table(Entry, 'e')} ON {_column(Entry, 'id', 'e')}"
        f" = {_column(Conversation, 'witness_entry', 'c')}"
        f" LEFT JOIN {_table(user, 'u')} ON {_column(user, user._meta.pk.name, 'u')}"
        f" = {_column(Conversation, 'witness_human', 'c')}"
        f" LEFT JOIN {_table(SpectatorFeed, 'f')} ON {_column(SpectatorFeed, 'interrogation', 'f')}"
        f" = {_column(Conversation, 'interrogation', 'c')}"
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
        f"SELECT {_column(Message, 'seq', 'm')}, {_column(Message, 'hash', 'm')},"
        f" {_column(Message, 'sender_role', 'm')},"
        f" {_column(Message, 'created_at', 'm')} FROM {_table(Message, 'm')}"
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


def _aware(value) -> dt.datetime | None:
    if value is None or isinstance(value, dt.datetime):
        return value if value is None or value.tzinfo else value.replace(tzinfo=dt.UTC)
    return dt.datetime.fromisoformat(value).replace(tzinfo=dt.UTC)  # SQLite: naive UTC text


@dataclass
class Appended:
    """An append's answer: `outcome` "ok" (then `message` is stored) or why not ("missing", "sender",
    "closed", "time_up", "too_long", "not_your_turn"), with what the push or the refusal needs."""

    outcome: str
    conversation: Conversation | None = None
    status: str = ""
    witness_label: str = ""
    cap: int | None = None
    last_role: str | None = None
    message: Message | None = None
    witness_engine: str = ""  # the machine witness's engine ("" for a person)
    feed_delay_s: float | None = None  # the interrogation's spectator feed's delay (None: no feed)


def check_sender(conversation: Conversation, *, sender_role: str, user) -> None:
    """user=None means the platform itself (a bot reply delivered by a task)."""
    if sender_role == Message.Role.INTERROGATOR:
        if user is None or user.pk != conversation.interrogator_id:
            raise NotAllowed("Only this conversation's interrogator can write as interrogator.")
    elif sender_role == Message.Role.WITNESS:
        if conversation.witness_human_id:
            if user is None or user.pk != conversation.witness_human_id:
                raise NotAllowed("Only this conversation's witness can write as witness.")
        elif user is not None:
            raise NotAllowed("A machine witness's replies come from its engine only.")
    else:
        raise InvalidInput(f"Unknown sender role {sender_role!r}.")


def turn_refusal(*, rule: str, sender_role: str, last_role: str | None) -> str | None:
    """Why a person may not write now under the interrogation's turn rule (None: they may). Under
    both rules but "free" the interrogator speaks first, so no witness posts unprompted; under
    "alternate" nobody speaks twice in a row."""
    if rule == Interrogation.TurnRule.FREE:
        return None
    if sender_role == Message.Role.WITNESS and last_role is None:
        return "The interrogator speaks first: wait for their message."
    if rule == Interrogation.TurnRule.ALTERNATE and last_role == sender_role:
        return (
            "Wait for the witness's answer before you write again."
            if sender_role == Message.Role.INTERROGATOR
            else "Wait for the interrogator's next message before you write again."
        )
    return None


def policy_outcome(*, rule: str, cap: int | None, sender_role: str, text: str, last_role: str | None) -> str:
    """The message policy's word on a person's message: "too_long", "not_your_turn" or "ok"."""
    if cap is not None and len(text) > cap:
        return "too_long"
    if turn_refusal(rule=rule, sender_role=sender_role, last_role=last_role):
        return "not_your_turn"
    return "ok"


def message_append(
    *, conversation_id: int, sender_role: str, user, text: str, now: dt.datetime, policy: bool
) -> Appended:
    """The portable append: lock, checks, last link, insert, in Django's atomic block (five round
    trips on PostgreSQL counting BEGIN and COMMIT; SQLite locks the whole database)."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(_lock_sql(connection.vendor), [conversation_id])
            row = cursor.fetchone()
        if row is None:
            return Appended("missing")
        (
            pk,
            public_id,
            side,
            interrogator_id,
            human_id,
            entry_id,
            interrogation_id,
            status,
            deadline,
            entry_name,
            username,
            rule,
            cap,
            engine,
            feed_delay,
        ) = row
        conversation = conversation_loaded(
            id=pk,
            public_id=public_id if isinstance(public_id, uuid.UUID) else uuid.UUID(public_id),
            side=side,
            interrogator_id=interrogator_id,
            witness_human_id=human_id,
            witness_entry_id=entry_id,
            interrogation_id=interrogation_id,
        )
        found = Appended(
            "ok",
            conversation,
            status,
            entry_name if entry_id else username,
            cap,
            witness_engine=engine or "",
            feed_delay_s=feed_delay,
        )
        try:
            check_sender(conversation, sender_role=sender_role, user=user)
        except (NotAllowed, InvalidInput):
            found.outcome = "sender"
            return found
        deadline = _aware(deadline)
        if status != Status.RUNNING:
            found.outcome = "closed"
        elif deadline is not None and now >= deadline:
            found.outcome = "time_up"
        if found.outcome != "ok":
            return found
        with connection.cursor() as cursor:
            cursor.execute(_last_link_sql(connection.vendor), [conversation_id])
            last = cursor.fetchone()
        found.last_role = last[2] if last else None
        if policy:
            found.outcome = policy_outcome(
                rule=rule, cap=cap, sender_role=sender_role, text=text, last_role=found.last_role
            )
            if found.outcome != "ok":
                return found
        seq = last[0] + 1 if last else 1
        now = max(now, _aware(last[3])) if last else now  # the caller's clock, never before the predecessor
        prev_hash = last[1] if last else hashchain.genesis_hash(conversation.public_id)
        digest = hashchain.message_hash(
            prev_hash=prev_hash, seq=seq, sender_role=sender_role, text=text, created_at=now
        )
        fields = dict(
            conversation_id=pk,
            seq=seq,
            sender_role=sender_role,
            text=text,
            created_at=now,
            prev_hash=prev_hash,
            hash=digest,
        )
        with connection.cursor() as cursor:
            cursor.execute(
                _insert_sql(connection.vendor),
                [pk, seq, sender_role, text, connection.ops.adapt_datetimefield_value(now), prev_hash, digest],
            )
            if connection.features.can_return_columns_from_insert:
                message_pk = cursor.fetchone()[0]
            else:
                message_pk = connection.ops.last_insert_id(cursor, Message._meta.db_table, Message._meta.pk.column)
        found.message = message_loaded(id=message_pk, **fields)
    return found


def conversation_loaded(**fields) -> Conversation:
    """A conversation as the ORM would load it (the fields an append reads; the others deferred: read,
    they are fetched)."""
    return _loaded(Conversation, fields)


def message_loaded(**fields) -> Message:
    """The stored message as the ORM would load it."""
    return _loaded(Message, fields)


@cache
def _attnames(model) -> tuple[str, ...]:
    return tuple(f.attname for f in model._meta.concrete_fields)


def _loaded(model, fields: dict):
    """``model.from_db`` (what a QuerySet calls for each row) with ``fields``, in the model's field order."""
    names = [name for name in _attnames(model) if name in fields]
    if len(names) != len(fields):
        raise TypeError(f"{model.__name__} has no field {sorted(set(fields) - set(names))}")
    return model.from_db(DEFAULT_DB_ALIAS, names, [fields[name] for name in names])  # django.db.connection's alias
