"""After Redis or PostgreSQL closed the platform's connections (a restart), the first requests succeed: a
pooled Redis connection found closed is replaced and the command retried, a persistent database connection
is checked before use; /healthz checks the cache through the pool the requests use."""

import socket

import pytest
import redis
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import close_old_connections, connection

from tests.arena.helpers import three_party
from tests.arena.wsclient import connect


def redis_only(settings):
    if not isinstance(caches["default"], RedisCache):
        pytest.skip("services mode: the cache is Redis")


def _own_ports() -> set[int]:
    """The local ports of this process's TCP sockets: the clients of its own that Redis lists."""
    import os

    from bench._soak_sampling import socket_inodes, tcp_table

    _, inodes = socket_inodes([os.getpid()])
    return {local for inode, (local, _, _) in tcp_table().items() if inode in inodes}


def close_redis_clients(url: str) -> int:
    """What a Redis restart does to the platform's pooled connections: every client of this process on
    this database is disconnected (found closed at its next command); the other test processes sharing
    the server keep theirs. Returns how many."""
    admin = redis.Redis.from_url(url)
    db = admin.connection_pool.connection_kwargs.get("db", 0)
    me, mine = admin.client_id(), _own_ports()
    killed = 0
    for client in admin.client_list():
        port = int(client["addr"].rsplit(":", 1)[1])
        if int(client["db"]) == db and int(client["id"]) != me and port in mine:
            killed += admin.client_kill_filter(_id=client["id"])
    admin.close()
    return killed


def test_a_cache_connection_redis_closed_is_replaced_before_the_request_fails(settings):
    redis_only(settings)
    cache = caches["default"]
    cache.set("kept", 41)
    assert close_redis_clients(settings.REDIS_URL) >= 1
    assert cache.get("kept") == 41  # on a fresh connection, not a ConnectionError


@pytest.mark.django_db(transaction=True)
async def test_a_console_connects_at_once_after_redis_closed_the_layers_connections(cast, settings, end_stray_sessions):
    redis_only(settings)
    from asgiref.sync import sync_to_async

    interrogation = await sync_to_async(three_party)(cast)
    judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    assert ok
    await judge.expect("state")
    await judge.close()
    assert await sync_to_async(close_redis_clients)(settings.REDIS_URL) >= 1
    judge, ok, code = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    assert ok, code  # not closed with 1011
    await judge.expect("state")
    await judge.close()


@pytest.mark.django_db(transaction=True)
def test_a_database_connection_postgresql_closed_is_replaced_before_use():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL")
    import psycopg

    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    with psycopg.connect(**{k: v for k, v in params.items() if k in ("dbname", "user", "host", "port")}) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    close_old_connections()  # as at the start of every request and every consumer's database call
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.django_db(transaction=True)
def test_healthz_is_red_when_the_cache_the_requests_use_is_unreachable(client, settings):
    redis_only(settings)
    settings.CACHES = {
        "default": {**settings.CACHES["default"], "LOCATION": f"redis://127.0.0.1:{closed_port()}/0"},
    }
    answer = client.get("/healthz")
    assert answer.status_code == 503 and answer.json()["checks"]["cache"]["ok"] is False
