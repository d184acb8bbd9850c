"""Database connections held no longer than needed."""
from django.db import connection


def connection_release() -> None:
    """Close this thread's database connection now, unless a transaction is open on it (a caller's, a
    test's). A persistent connection (CONN_MAX_AGE) would otherwise stay open on an idle worker thread,
    one per thread: what a long poll must not keep while it waits."""
    if not connection.in_atomic_block:
        connection.close()
