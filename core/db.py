"""Database connections held no longer than needed."""
from django.db import connection


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
