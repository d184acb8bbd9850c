"""The two-round-trip append on PostgreSQL (arena/services/appends_pg.py): concurrent writers still
number a conversation's messages 1..n under its row lock, each linked to the one before; a writer
that waited for the lock reads the link its predecessor committed; an error or a refusal in either
combined query stores nothing and leaves the connection idle, usable and the row unlocked."""
import contextlib
import threading
import time

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from psycopg.pq import TransactionStatus

from arena import services
from arena.models import Message
from arena.services import appends_pg
from core import hashchain
from core.errors import Closed, NotAllowed

from .helpers import sides, three_party

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("the two-round-trip append is PostgreSQL's (set DATABASE_URL); SQLite takes the atomic block")


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


def test_outside_a_transaction_an_append_is_two_queries(human, cast):
    assert appends_pg.usable()
    with CaptureQueriesContext(connection) as queries:
        message = services.message_post(conversation_id=human.pk, sender_role="interrogator", text="hi",
                                        user=cast.jude)
    trips = [q["sql"] for q in queries if "pg_prepared_statements" not in q["sql"] and "PREPARE " not in q["sql"]]
    assert len(trips) == 2, [q["sql"][:80] for q in queries]  # (the statements are prepared once per connection)
    assert trips[0].startswith("BEGIN;") and trips[1].rstrip().endswith("COMMIT")
    with CaptureQueriesContext(connection) as queries:
        services.message_post(conversation_id=human.pk, sender_role="witness", text="hello", user=cast.connie)
    assert len(queries) == 2, [q["sql"][:80] for q in queries]
    assert message.seq == 1 and message.pk == Message.objects.order_by("seq").first().pk
    idle_and_unlocked(human)


def test_inside_a_callers_transaction_the_atomic_block_is_kept(human, cast):
    with transaction.atomic():
        assert not appends_pg.usable()
        services.message_post(conversation_id=human.pk, sender_role="interrogator", text="hi", user=cast.jude)
    assert [m.seq for m in chain(human)] == [1]


def test_two_writers_number_the_messages_one_to_n_without_gaps(human, cast):
    per_writer, barrier, errors = 40, threading.Barrier(2), []

    def write(role, user):
        try:
            barrier.wait()
            for i in range(per_writer):
                services.message_post(conversation_id=human.pk, sender_role=role, text=f"{role} {i}", user=user)
        except Exception as exc:  # noqa: BLE001 (asserted on below)
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=args)
               for args in (("interrogator", cast.jude), ("witness", cast.connie))]
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
    result, waiting = {}, threading.Event()

    def second_writer():
        try:
            waiting.set()
            result["message"] = services.message_post(conversation_id=human.pk, sender_role="witness",
                                                      text="third", user=cast.connie)
        except Exception as exc:  # noqa: BLE001
            result["error"] = repr(exc)
        finally:
            connections.close_all()

    writer = threading.Thread(target=second_writer)
    with transaction.atomic():  # holds the row lock, and stores #2, until the block commits
        services.message_post(conversation_id=human.pk, sender_role="witness", text="second", user=cast.connie)
        writer.start()
        waiting.wait(5)
        deadline = time.monotonic() + 5
        with other_session() as other:
            other.autocommit = True  # a fresh snapshot per query
            while time.monotonic() < deadline:  # until the other writer blocks on the row lock
                if other.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                 "AND datname = current_database()").fetchone()[0]:
                    break
                time.sleep(0.01)
            else:
                pytest.fail("the second writer never waited for the row lock")
    writer.join(10)
    assert "error" not in result, result
    assert result["message"].seq == 3
    assert [m.text for m in chain(human)] == ["first", "second", "third"]


def test_an_error_in_the_insert_and_commit_query_stores_nothing(human, cast, monkeypatch):
    services.message_post(conversation_id=human.pk, sender_role="interrogator", text="kept", user=cast.jude)
    # a digest too long for its column: the INSERT fails, the COMMIT after it in the query is skipped
    monkeypatch.setattr(hashchain, "message_hash", lambda **kw: "x" * 65)
    with pytest.raises(Exception):
        services.message_post(conversation_id=human.pk, sender_role="witness", text="lost", user=cast.connie)
    idle_and_unlocked(human)
    monkeypatch.undo()
    assert [m.text for m in chain(human)] == ["kept"]
    services.message_post(conversation_id=human.pk, sender_role="witness", text="next", user=cast.connie)
    assert [(m.seq, m.text) for m in chain(human)] == [(1, "kept"), (2, "next")]


def test_an_error_in_the_lock_query_leaves_the_connection_usable(human, cast):
    """The lock gives up (lock_timeout) while another session holds the row: the BEGIN of the same
    query is rolled back, nothing is stored, and the next append goes through."""
    table = type(human)._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '50ms'")
    try:
        with other_session() as other:
            other.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE", [human.pk])
            with pytest.raises(OperationalError):
                services.message_post(conversation_id=human.pk, sender_role="interrogator", text="lost",
                                      user=cast.jude)
            assert connection.connection.info.transaction_status == TransactionStatus.IDLE
        idle_and_unlocked(human)
        services.message_post(conversation_id=human.pk, sender_role="interrogator", text="kept", user=cast.jude)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    assert [m.text for m in chain(human)] == ["kept"]


def test_a_session_that_lost_its_prepared_statements_prepares_them_again(human, cast):
    services.message_post(conversation_id=human.pk, sender_role="interrogator", text="one", user=cast.jude)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    services.message_post(conversation_id=human.pk, sender_role="witness", text="two", user=cast.connie)
    idle_and_unlocked(human)
    assert [m.text for m in chain(human)] == ["one", "two"]


def test_refusals_after_the_lock_roll_back(human, cast):
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

    def stored(message, conversation, **kw):  # runs after the COMMIT: another session sees the row
        with other_session() as other:
            seen.append(other.execute(f"SELECT text FROM {Message._meta.db_table} WHERE id = %s",
                                      [message.pk]).fetchone())

    monkeypatch.setattr("arena.notify.message_stored", stored)
    services.message_post(conversation_id=human.pk, sender_role="interrogator", text="durable", user=cast.jude)
    assert seen == [("durable",)]
