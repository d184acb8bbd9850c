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
    """One SQL statement and its parameters (see :func:`insert_statement`, :func:`update_where`), for
    :func:`statements_run`."""

    sql: str
    params: tuple = ()


def insert_statement(objs: list, *, returning_pk: bool = False) -> Statement:
    """The INSERT of ``objs`` (new instances of one model, no primary key set), the fields' ``pre_save``
    applied (``auto_now_add``) and their values prepared as the ORM's compiler prepares them
    (``get_db_prep_save``); with ``returning_pk`` it returns their keys, in order (:func:`inserted` sets
    them). Plain values are written in the ``VALUES (...), (...)`` form the compiler writes for one row,
    without its query machinery; for several rows Django 5.2's compiler writes ``UNNEST`` of one array a
    column on PostgreSQL, which for a turn's few rows costs more CPU than it saves (each JSON prompt
    escaped again as an array element). An expression among the values, or a field with a placeholder
    of its own, takes the compiler."""
    model, fields, rows, plain = _insert_rows(objs)
    if not plain:
        return _compiled_insert(model, fields, objs, returning_pk)
    meta, qn = model._meta, connection.ops.quote_name
    placeholders = "(" + ", ".join(["%s"] * len(fields)) + ")"
    text = (
        f"{_insert_into(meta, fields)} VALUES "
        + ", ".join([placeholders] * len(objs))
        + (f" RETURNING {qn(meta.db_table)}.{qn(meta.pk.column)}" if returning_pk else "")
    )
    return Statement(text, _prepared(fields, rows))


def _insert_rows(objs: list) -> tuple:
    """(model, fields, each object's values, whether all are plain values): what an INSERT of ``objs`` writes."""
    model = type(objs[0])
    meta = model._meta
    for obj in objs:  # as bulk_create: a related object saved since it was assigned lends its key now
        obj._prepare_related_fields_for_save(operation_name="insert_statement")
    fields = [f for f in meta.concrete_fields if not f.generated and f is not meta.auto_field]
    rows = [[f.pre_save(obj, True) for f in fields] for obj in objs]
    plain = not (
        any(hasattr(f, "get_placeholder") for f in fields)
        or any(hasattr(v, "resolve_expression") or hasattr(v, "as_sql") for row in rows for v in row)
    )
    return model, fields, rows, plain


def _insert_into(meta, fields) -> str:
    qn = connection.ops.quote_name
    return f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in fields)})"


def _prepared(fields, rows) -> tuple:
    return tuple(f.get_db_prep_save(v, connection=connection) for row in rows for f, v in zip(fields, row))


def _compiled_insert(model, fields, objs, returning_pk) -> Statement:
    query = sql.InsertQuery(model)
    query.insert_values(fields, objs)
    compiler = query.get_compiler(connection=connection)
    if returning_pk:
        compiler.returning_fields = [model._meta.pk]
    (text, params), *more = compiler.as_sql()
    if more:  # a database that cannot insert (and return) many rows in one statement
        raise NotImplementedError(f"{connection.vendor}: no one-statement INSERT of {len(objs)} rows")
    return Statement(text, tuple(params))


@dataclass(frozen=True)
class Add:
    """A column plus ``by``, as a value of :func:`update_where` (``F(name) + by``)."""

    by: int = 1


def update_where(model, where: dict, **values) -> Statement:
    """``model.objects.filter(**where).update(**values)`` for equality filters (None: IS NULL) and plain
    values or :class:`Add`, as one statement, not run: the values prepared by their fields as the ORM
    prepares them, without building a QuerySet (its filters and compiler cost a statement about 1 ms of
    CPU on a slow core, on a path every turn takes). A related object is given by its key or itself."""
    meta, qn = model._meta, connection.ops.quote_name
    sets, conditions, params = [], [], []
    for name, value in values.items():
        field = meta.get_field(name)
        column = qn(field.column)
        if isinstance(value, Add):
            sets.append(f"{column} = {column} + %s")
            params.append(value.by)
        else:
            sets.append(f"{column} = %s")
            params.append(
                field.get_db_prep_save(
                    getattr(value, "pk", value) if field.is_relation else value, connection=connection
                )
            )
    for name, value in where.items():
        field = meta.get_field(name)
        column = qn(field.column)
        if value is None:
            conditions.append(f"{column} IS NULL")
        else:
            value = getattr(value, "pk", value) if field.is_relation else value
            conditions.append(f"{column} = %s")
            params.append(field.get_db_prep_value(field.get_prep_value(value), connection, prepared=True))
    return Statement(
        f"UPDATE {qn(meta.db_table)} SET {', '.join(sets)} WHERE {' AND '.join(conditions)}", tuple(params)
    )


def insert_if_updated(update: Statement, obj) -> Statement:
    """One PostgreSQL statement: ``update`` (an :func:`update_where`), then the INSERT of ``obj`` (as
    :func:`insert_statement` writes it, plain values only) only if the update matched a row: both or
    neither, whatever transaction it runs in. Its row count is the rows inserted (0: nothing changed).
    A data-modifying ``WITH``, so the inserted literals take their columns' types as in ``VALUES``."""
    model, fields, rows, plain = _insert_rows([obj])
    if not plain:
        raise ValueError("insert_if_updated takes an object of plain values (no expression, no placeholder)")
    return Statement(
        f"WITH updated AS ({update.sql} RETURNING 1) {_insert_into(model._meta, fields)} "
        f"SELECT {', '.join(['%s'] * len(fields))} WHERE EXISTS (SELECT 1 FROM updated)",
        update.params + _prepared(fields, rows),
    )


def inserted(objs: list, rows: list) -> None:
    """Mark ``objs`` saved, with the keys an :func:`insert_statement` with ``returning_pk`` returned."""
    for obj, (pk,) in zip(objs, rows, strict=True):
        obj.pk = pk
        obj._state.adding, obj._state.db = False, connection.alias


def batched() -> bool:
    """Whether :func:`statements_run` sends its statements in one query: PostgreSQL with Django's
    client-side binding (psycopg's simple query protocol takes several statements at once)."""
    return connection.vendor == "postgresql" and not connection.settings_dict.get("OPTIONS", {}).get(
        "server_side_binding"
    )


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
                rows = cursor.fetchall() if cursor.description else []  # (SQLite counts returned rows as read)
                out.append((cursor.rowcount, rows))
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
