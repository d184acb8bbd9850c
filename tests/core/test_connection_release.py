"""Page loads under ASGI leave no PostgreSQL connection open behind them (CONN_MAX_AGE is for the
consoles' long-lived database threads; each HTTP request runs in a thread of its own)."""

import httpx
import pytest
from asgiref.sync import sync_to_async
from django.core.asgi import get_asgi_application
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("counts PostgreSQL's connections (set DATABASE_URL)")


@sync_to_async(thread_sensitive=False)
def open_connections() -> int:
    from django.db import connection as own

    with own.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0]


async def test_sequential_page_loads_hold_no_connection_each(end_stray_sessions):
    before = await open_connections()
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=get_asgi_application()), base_url="http://testserver"
    ) as client:
        for _ in range(20):
            assert (await client.get("/")).status_code == 200
    assert await open_connections() <= before + 1
