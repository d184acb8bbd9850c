"""The one-statement append on PostgreSQL (arena_message_append, arena/services/appends_pg.py): one
round trip per message, inside a caller's transaction or not; concurrent writers still number a
conversation's messages 1..n under its row lock, each linked to the one before, with hashes that
core.hashchain recomputes; the SQL and the portable Python path make the same decisions; an error or a
refusal stores nothing and leaves the connection idle and the row unlocked; the installed function is
the file."""

import contextlib
import datetime as dt
import threading
import time

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from psycopg.pq import TransactionStatus

from arena import services
from arena.models import Message
from arena.services import appends, appends_pg
from arena.sql import load
from core import hashchain
from core.errors import Closed, NotAllowed
from core.pgsql import sql_function_body

from .helpers import sides, three_party

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("the one-statement append is PostgreSQL's (set DATABASE_URL); SQLite takes the atomic block")


@pytest.fixture
def human(cast):
    return sides(three_party(cast))[0]


def chain(conversation):
    messages = list(Message.objects.filter(conversation=conversation).order_by("seq"))
    assert hashchain.chain_verify(conversation.public_id, messages).ok
    return messages


@contextlib.contextmanager
def other_session():
    """A second PostgreSQL session (raw psycopg, in a transaction of its own), closed at the end."""
    raw = connection.get_new_connection(connection.get_connection_params())
    try:
        yield raw
    finally:
        raw.close()


def idle_and_unlocked(conversation) -> None:
    """This thread's connection is idle in autocommit, and another one can lock the row at once."""
    assert connection.connection.info.transaction_status == TransactionStatus.IDLE
    assert connection.get_autocommit() and not connection.in_atomic_block
    table = type(conversation)._meta.db_table
    with other_session() as other:
        row = other.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE NOWAIT", [conversation.pk]).fetchone()
        assert row == (conversation.pk,)


def lock_waiters(n: int, timeout: float = 5.0) -> None:
    """Until n sessions of this database wait for a lock."""
    deadline = time.monotonic() + timeout
    with other_session() as other:
        other.autocommit = True  # a fresh snapshot per query
        while time.monotonic() < deadline:
            if (
                other.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND datname = current_database()"
                ).fetchone()[0]
                >= n
            ):
                return
            time.sleep(0.01)
    pytest.fail(f"{n} writers never waited for the row lock")


def in_thread(results: dict, key, fn, **kwargs) -> threading.Thread:
    def run():
        try:
            results[key] = fn(**kwargs)
        except Exception as exc:  # asserted on by the callers
            results[key] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_the_database_runs_the_sql_file_as_written():
    with connection.cursor() as cursor:
        cursor.execute("SELECT prosrc FROM pg_proc WHERE proname = 'arena_message_append'")
        assert [row[0] for row in cursor.fetchall()] == [sql_function_body("arena.sql", "message_append_v2.sql")]
    assert "DROP FUNCTION" in load("message_append_drop.sql")


def test_an_append_is_one_statement_outside_a_transaction_and_inside_one(human, cast):
    assert appends_pg.usable()
    with CaptureQueriesContext(connection) as queries:
        message = services.message_post(conversation_id=human.pk, sender_role="interrogator", text="hi", user=cast.jude)
    assert len(queries) == 1 and "arena_message_append" in queries[0]["sql"], [q["sql"][:80] for q in queries]
    idle_and_unlocked(human)
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            services.message_post(conversation_id=human.pk, sender_role="witness", text="hello", user=cast.connie)
        assert len(queries) == 1, [q["sql"][:80] for q in queries]
    with CaptureQueriesContext(connection) as queries:  # a refusal is one statement too
        with pytest.raises(NotAllowed):
            services.message_post(conversation_id=human.pk, sender_role="witness", text="no", user=cast.carl)
    assert len(queries) == 1
    assert message.seq == 1 and message.pk == Message.objects.order_by("seq").first().pk
    assert [m.text for m in chain(human)] == ["hi", "hello"]
    idle_and_unlocked(human)


TRICKY = [
    "plain",
    'quote " and backslash \\ and slash /',
    "line one\nline two\ttabbed",
    "émoji 🤖 and ß, 中文",
    "a \u2028 line separator, \u00a0 nbsp, e\u0301 combining",
    "</script><b>x</b> & %s %% {}",
    "x" * 999,
]


def test_the_sql_hash_is_the_hashchain_hash(human, cast):
    """Every message the function stores verifies with core.hashchain (whose text a reader runs offline)."""
    for i, text in enumerate(TRICKY):
        role, user = ("interrogator", cast.jude) if i % 2 == 0 else ("witness", cast.connie)
        services.message_post(conversation_id=human.pk, sender_role=role, text=text, user=user)
    messages = chain(human)
    assert [m.text for m in messages] == TRICKY
    assert messages[0].prev_hash == hashchain.genesis_hash(human.public_id)
    for m in messages:
        assert m.hash == hashchain.message_hash(
            prev_hash=m.prev_hash, seq=m.seq, sender_role=m.sender_role, text=m.text, created_at=m.created_at
        )


def test_the_sql_and_the_portable_path_decide_alike(cast):
    """The same messages through the function and through the atomic block: the same outcomes, and
    the same rows (but the ids) when both are given the same moment."""

    def fresh():
        interrogation = services.interrogation_create(
            judge=cast.jude, witnesses=[cast.connie], title="t", turn_rule="alternate", max_message_chars=10
        )
        services.interrogation_start(interrogation_id=interrogation.pk)
        return interrogation.conversations.get()

    now = timezone.now()
    steps = [
        ("witness", cast.connie, "first?"),
        ("interrogator", cast.jude, "hello"),
        ("interrogator", cast.jude, "again"),
        ("witness", cast.connie, "x" * 11),
        ("witness", cast.connie, "hi"),
        ("witness", cast.carl, "me"),
        ("interrogator", None, "bot?"),
        ("witness", cast.connie, "twice"),
        ("interrogator", cast.jude, "ok"),
    ]
    answers, rows = [], []
    for append in (appends_pg.message_append, appends.message_append):
        conversation = fresh()
        outcomes = []
        for i, (role, user, text) in enumerate(steps):
            found = append(
                conversation_id=conversation.pk,
                sender_role=role,
                user=user,
                text=text,
                now=now + dt.timedelta(seconds=i),
                policy=user is not None,
            )
            outcomes.append(
                (
                    found.outcome,
                    found.status,
                    found.witness_label,
                    found.cap,
                    found.last_role,
                    found.witness_engine,
                    found.message and (found.message.seq, found.message.hash),
                )
            )
        answers.append([o[:6] for o in outcomes])
        rows.append([(m.seq, m.sender_role, m.text, m.created_at) for m in chain(conversation)])
    assert answers[0] == answers[1]
    assert [a[0] for a in answers[0]] == [
        "not_your_turn",
        "ok",
        "not_your_turn",
        "too_long",
        "ok",
        "sender",
        "sender",
        "not_your_turn",
        "ok",
    ]
    assert rows[0] == rows[1]
    missing = appends_pg.message_append(
        conversation_id=10**9, sender_role="interrogator", user=cast.jude, text="x", now=now, policy=True
    )
    assert missing.outcome == "missing"


def test_two_writers_number_the_messages_one_to_n_without_gaps(human, cast):
    per_writer, barrier, errors = 40, threading.Barrier(2), []

    def write(role, user):
        try:
            barrier.wait()
            for i in range(per_writer):
                services.message_post(conversation_id=human.pk, sender_role=role, text=f"{role} {i}", user=user)
        except Exception as exc:  # asserted on below
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=write, args=args) for args in (("interrogator", cast.jude), ("witness", cast.connie))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    messages = chain(human)
    assert [m.seq for m in messages] == list(range(1, 2 * per_writer + 1))
    for role in ("interrogator", "witness"):  # each writer's messages in its own order
        assert [m.text for m in messages if m.sender_role == role] == [f"{role} {i}" for i in range(per_writer)]


def test_a_writer_that_waited_for_the_lock_links_to_what_its_predecessor_committed(human, cast):
    """The last-link read is a statement of its own after the lock: it sees the holder's commit."""
    services.message_post(conversation_id=human.pk, sender_role="interrogator", text="first", user=cast.jude)
    result = {}
    with transaction.atomic():  # holds the row lock, and stores #2, until the block commits
        services.message_post(conversation_id=human.pk, sender_role="witness", text="second", user=cast.connie)
        writer = in_thread(
            result,
            "third",
            services.message_post,
            conversation_id=human.pk,
            sender_role="witness",
            text="third",
            user=cast.connie,
        )
        lock_waiters(1)
    writer.join(10)
    assert isinstance(result["third"], Message), result
    assert result["third"].seq == 3
    assert [m.text for m in chain(human)] == ["first", "second", "third"]


def test_a_lock_timeout_stores_nothing_and_leaves_the_connection_usable(human, cast):
    """The lock gives up (lock_timeout) while another session holds the row: the statement is rolled
    back, nothing is stored, and the next append goes through."""
    table = type(human)._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '50ms'")
    try:
        with other_session() as other:
            other.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE", [human.pk])
            with pytest.raises(OperationalError):
                services.message_post(conversation_id=human.pk, sender_role="interrogator", text="lost", user=cast.jude)
            assert connection.connection.info.transaction_status == TransactionStatus.IDLE
        idle_and_unlocked(human)
        services.message_post(conversation_id=human.pk, sender_role="interrogator", text="kept", user=cast.jude)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    assert [m.text for m in chain(human)] == ["kept"]


def test_a_session_that_discarded_its_plans_appends_as_before(human, cast):
    services.message_post(conversation_id=human.pk, sender_role="interrogator", text="one", user=cast.jude)
    with connection.cursor() as cursor:
        cursor.execute("DISCARD ALL")
    services.message_post(conversation_id=human.pk, sender_role="witness", text="two", user=cast.connie)
    idle_and_unlocked(human)
    assert [m.text for m in chain(human)] == ["one", "two"]


def test_refusals_store_nothing_and_leave_the_row_unlocked(human, cast):
    with pytest.raises(NotAllowed):
        services.message_post(conversation_id=human.pk, sender_role="witness", text="not mine", user=cast.carl)
    idle_and_unlocked(human)
    services.interrogation_end(interrogation_id=human.interrogation_id, reason="judge", by=cast.jude)
    with pytest.raises(Closed):
        services.message_post(conversation_id=human.pk, sender_role="interrogator", text="late", user=cast.jude)
    idle_and_unlocked(human)
    assert not Message.objects.filter(conversation=human).exists()


def test_nothing_is_pushed_before_the_commit(human, cast, monkeypatch):
    seen = []

    def stored(message, conversation, **kw):  # runs after the commit: another session sees the row
        with other_session() as other:
            seen.append(
                other.execute(f"SELECT text FROM {Message._meta.db_table} WHERE id = %s", [message.pk]).fetchone()
            )

    monkeypatch.setattr("arena.notify.message_stored", stored)
    services.message_post(conversation_id=human.pk, sender_role="interrogator", text="durable", user=cast.jude)
    with transaction.atomic():
        services.message_post(conversation_id=human.pk, sender_role="witness", text="in a block", user=cast.connie)
        assert seen == [("durable",)]  # not yet: the caller has not committed
    assert seen == [("durable",), ("in a block",)]


def test_the_one_statement_append_needs_read_committed():
    assert appends_pg.usable()
    options = connection.settings_dict.setdefault("OPTIONS", {})
    options["isolation_level"] = 3  # repeatable read: one snapshot per transaction, the last-link read would be stale
    try:
        assert not appends_pg.usable()
    finally:
        del options["isolation_level"]


def test_a_message_is_never_timed_before_the_one_it_follows(human, cast):
    """A writer reads the clock before it waits for the lock: a message stored after a later-timed one
    takes that one's time (both paths), and its hash covers the time stored."""
    later = timezone.now() + dt.timedelta(seconds=5)
    for append, role, user in (
        (appends_pg.message_append, "interrogator", cast.jude),
        (appends.message_append, "witness", cast.connie),
    ):
        services.message_post(conversation_id=human.pk, sender_role="interrogator", text="ahead", user=cast.jude)
        Message.objects.filter(conversation=human).update(created_at=later)  # (the chain is mended below)
        found = append(
            conversation_id=human.pk, sender_role=role, user=user, text="behind", now=timezone.now(), policy=True
        )
        assert found.message.created_at == later
        stored = Message.objects.get(pk=found.message.pk)
        assert stored.created_at == later and stored.hash == found.message.hash == hashchain.message_hash(
            prev_hash=stored.prev_hash,
            seq=stored.seq,
            sender_role=stored.sender_role,
            text=stored.text,
            created_at=later,
        )
        Message.objects.filter(conversation=human).delete()
