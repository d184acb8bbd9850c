"""Database connections held no longer than needed; several statements in one round trip."""
from dataclasses import dataclass

from django.db import connection
from django.db.models import sql


def connection_release() -> None:
    """Close this thread's database connection now, unless a transaction is open on it (a caller's, a
    test's). A persistent connection (CONN_MAX_AGE) would otherwise stay open on an idle worker thread,
    one per thread: what a long poll must not keep while it waits."""
    if not connection.in_atomic_block:
        connection.close()


class ConnectionReleaseMiddleware:
    """Release the request's database connection when its response is ready (the outermost middleware).

    Under ASGI each HTTP request's sync code runs in a thread of its own (asgiref's
    ThreadSensitiveContext), so a persistent connection (CONN_MAX_AGE) opened there is never reused:
    it stayed open until that thread's objects were garbage-collected (30 sequential page loads through
    daphne's application left up to 8 connections open; a burst, many more, against PostgreSQL's
    limit of 100). The consoles' database threads live as long as the process and keep theirs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            connection_release()


# --- several statements, one round trip ------------------------------------------------------------


@dataclass(frozen=True)
class Statement:
    """One SQL statement and its parameters, as the ORM compiles it (see :func:`insert_statement`,
    :func:`update_statement`), for :func:`statements_run`."""

    sql: str
    params: tuple = ()


def insert_statement(objs: list, *, returning_pk: bool = False) -> Statement:
    """The INSERT of ``objs`` (new instances of one model, no primary key set) as ``bulk_create`` writes
    it, the fields' ``pre_save`` applied (``auto_now_add``); with ``returning_pk`` it returns their keys,
    in order (:func:`inserted` sets them)."""
    model = type(objs[0])
    meta = model._meta
    for obj in objs:  # as bulk_create: a related object saved since it was assigned lends its key now
        obj._prepare_related_fields_for_save(operation_name="insert_statement")
    fields = [f for f in meta.concrete_fields if not f.generated and f is not meta.auto_field]
    query = sql.InsertQuery(model)
    query.insert_values(fields, objs)
    compiler = query.get_compiler(connection=connection)
    if returning_pk:
        compiler.returning_fields = [meta.pk]
    (text, params), *more = compiler.as_sql()
    if more:  # a database that cannot insert (and return) many rows in one statement
        raise NotImplementedError(f"{connection.vendor}: no one-statement INSERT of {len(objs)} rows")
    return Statement(text, tuple(params))


def update_statement(queryset, **values) -> Statement:
    """``queryset.update(**values)`` as one statement, not run (no ordering, annotations or slices)."""
    query = queryset.query.chain(sql.UpdateQuery)
    query.add_update_values(values)
    text, params = query.get_compiler(queryset.db).as_sql()
    return Statement(text, tuple(params))


def inserted(objs: list, rows: list) -> None:
    """Mark ``objs`` saved, with the keys an :func:`insert_statement` with ``returning_pk`` returned."""
    for obj, (pk,) in zip(objs, rows, strict=True):
        obj.pk = pk
        obj._state.adding, obj._state.db = False, connection.alias


def batched() -> bool:
    """Whether :func:`statements_run` sends its statements in one query: PostgreSQL with Django's
    client-side binding (psycopg's simple query protocol takes several statements at once)."""
    return (connection.vendor == "postgresql"
            and not connection.settings_dict.get("OPTIONS", {}).get("server_side_binding"))


def statements_run(statements: list[Statement]) -> list[tuple[int, list]]:
    """Run ``statements`` in order: in one round trip where :func:`batched`, else one by one. Returns each
    one's (row count, rows returned). Run together, they are one implicit transaction (all or nothing)
    outside a transaction, part of the caller's inside one; run one by one, only the caller's transaction
    makes them atomic: a caller that needs that runs them in ``transaction.atomic()``. An error raises
    after the statements before it ran (and, in one query, skips the rest)."""
    if not statements:
        return []
    with connection.cursor() as cursor:
        if not batched():
            out = []
            for statement in statements:
                cursor.execute(statement.sql, statement.params)
                out.append((cursor.rowcount, cursor.fetchall() if cursor.description else []))
            return out
        cursor.execute("; ".join(s.sql for s in statements), [p for s in statements for p in s.params])
        raw, out = cursor.cursor, []
        while True:
            out.append((raw.rowcount, raw.fetchall() if raw.description else []))
            if not raw.nextset():
                break
    if len(out) != len(statements):
        raise AssertionError(f"{len(statements)} statements gave {len(out)} results")
    return out
