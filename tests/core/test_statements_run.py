"""core.db's statements in one round trip: the ORM's own SQL and values, several statements in one query
where the database takes that (PostgreSQL), each one's row count and rows back."""

import pytest
from django.db import connection, transaction
from django.db.models.sql import InsertQuery

from arena.models import EngineCall, Entry
from core.db import Add, batched, insert_statement, inserted, statements_run, update_where

pytestmark = pytest.mark.django_db


def plain(params):
    return [getattr(p, "obj", p) for p in params]  # psycopg's Jsonb wrapper compared by what it wraps


def compiled(obj, returning_pk):
    query = InsertQuery(type(obj))
    fields = [f for f in obj._meta.concrete_fields if not f.generated and f is not obj._meta.auto_field]
    query.insert_values(fields, [obj])
    compiler = query.get_compiler(connection=connection)
    if returning_pk:
        compiler.returning_fields = [obj._meta.pk]
    return compiler.as_sql()[0]


def test_a_one_row_insert_gives_the_compilers_text_and_values(monkeypatch):
    from django.utils import timezone

    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # auto_now_add: the same stamp in both
    entry = Entry.objects.create(display_name="e", engine="llm", settings={"model": "m", "k": [1, 2]})
    for returning_pk in (False, True):
        for subject in ("first", "second"):
            row = EngineCall(entry=entry, subject=subject, outcome=EngineCall.Outcome.OK, latency_ms=3)
            statement = insert_statement([row], returning_pk=returning_pk)
            text, params = compiled(row, returning_pk)
            assert statement.sql == text and plain(statement.params) == plain(params)
    copy = Entry(display_name="copy", engine="llm", settings={"nested": {"a": [1, "x"]}})
    statement = insert_statement([copy], returning_pk=True)
    assert plain(statement.params) == plain(compiled(copy, True)[1])


def test_statements_run_in_order_with_their_row_counts_and_returned_rows():
    entry = Entry.objects.create(display_name="e", engine="simple", settings={})
    rows = [EngineCall(entry=entry, subject=f"s{i}", outcome=EngineCall.Outcome.OK, latency_ms=i) for i in range(3)]
    with transaction.atomic():
        done = statements_run(
            [
                insert_statement(rows, returning_pk=True),
                update_where(EngineCall, {"entry": entry, "subject": "s1"}, latency_ms=Add(10)),
                update_where(EngineCall, {"entry": entry.pk, "subject": "none"}, latency_ms=0),
            ]
        )
    inserted(rows, done[0][1])
    assert [count for count, _ in done] == [3, 1, 0]
    assert [row.pk for row in rows] == list(
        EngineCall.objects.filter(entry=entry).order_by("subject").values_list("pk", flat=True)
    )
    assert not rows[0]._state.adding
    assert list(EngineCall.objects.filter(entry=entry).order_by("subject").values_list("latency_ms", flat=True)) == [
        0,
        11,
        2,
    ]


def test_update_where_prepares_values_as_the_orm_does():
    from django.utils import timezone

    from arena.models import EntryHealth

    entry = Entry.objects.create(display_name="e", engine="simple", settings={})
    health = EntryHealth.objects.create(entry=entry)
    now = timezone.now()
    ((count, _),) = statements_run(
        [
            update_where(
                EntryHealth, {"entry": entry, "consecutive_failures": 0, "unhealthy_since": None}, last_ok_at=now
            )
        ]
    )
    assert count == 1 and EntryHealth.objects.get(pk=health.pk).last_ok_at == now
    assert EntryHealth.objects.filter(last_ok_at=now).count() == 1  # stored as the ORM stores it
    ((count, _),) = statements_run(
        [update_where(EntryHealth, {"entry": entry, "unhealthy_since": now}, consecutive_failures=Add(2))]
    )
    assert count == 0 and EntryHealth.objects.get(pk=health.pk).consecutive_failures == 0


def test_several_statements_go_in_one_query_where_the_database_takes_that():
    from django.test.utils import CaptureQueriesContext

    entry = Entry.objects.create(display_name="e", engine="simple", settings={})
    statements = [
        insert_statement([EngineCall(entry=entry, subject="a", outcome=EngineCall.Outcome.OK)]),
        update_where(EngineCall, {"entry": entry}, latency_ms=5),
    ]
    with CaptureQueriesContext(connection) as ctx:
        statements_run(statements)
    assert len(ctx.captured_queries) == (1 if batched() else 2)
    assert EngineCall.objects.get(entry=entry).latency_ms == 5
