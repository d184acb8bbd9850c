"""Pull mode's long poll against a real daphne: a bad ``wait`` is refused at once, a waiting poll holds no
server thread, and a poll whose client goes away stops: it leaves no database connection behind."""

import multiprocessing
import os
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import httpx
import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from arena import roles
from arena.models import Entry

from ..conftest import make_user


@pytest.fixture
def fast_poll(monkeypatch):
    """The daphne process reads its settings from this environment: a poll checks every 50 ms, so a
    poll that kept running after its client left would show at once."""
    monkeypatch.setenv("ARENA_PULL_POLL_S", "0.05")


@pytest.fixture
def short_max_wait(monkeypatch):
    """The server's longest long poll: 1 s."""
    monkeypatch.setenv("ARENA_PULL_MAX_WAIT_S", "1")


@pytest.fixture
def entrant(cast):
    ada = make_user("ada", roles.ENTRANT)
    entry = Entry.objects.create(display_name="Ada pull", engine="pull", owner=ada, settings={})
    return entry, Token.objects.create(user=ada).key


def other_backends() -> int:
    """Sessions of the test database other than this one (PostgreSQL), those of the server included."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


@pytest.mark.slow
def test_a_bad_wait_is_refused_at_once(fast_poll, short_max_wait, live_daphne, entrant):
    entry, key = entrant
    headers = {"Authorization": f"Token {key}"}
    with httpx.Client(base_url=live_daphne, headers=headers, timeout=5) as client:
        for raw in ["nan", "inf", "-inf", "1e309", "-1", "abc", ""]:
            start = time.monotonic()
            answer = client.get(f"/api/v1/entries/{entry.pk}/pending/", params={"wait": raw})
            assert answer.status_code == 400, raw
            assert answer.json()["error"] == "wait must be a number from 0 to 1."
            assert time.monotonic() - start < 2
        # a wait longer than the server's longest is capped, as it always was (ARENA_PULL_MAX_WAIT_S)
        start = time.monotonic()
        capped = client.get(f"/api/v1/entries/{entry.pk}/pending/", params={"wait": "1e9"})
        assert capped.status_code == 200 and capped.json() == {"pending": []}
        assert 0.9 < time.monotonic() - start < 3  # waited the server's longest (1 s here), no more
        # the same JSON as before for good requests, and the API's own refusals
        assert client.get(f"/api/v1/entries/{entry.pk}/pending/", params={"wait": "0.1"}).json() == {"pending": []}
        assert client.get(f"/api/v1/entries/{entry.pk + 1}/pending/").status_code == 404
        anonymous = httpx.get(f"{live_daphne}/api/v1/entries/{entry.pk}/pending/?wait=nan")
        assert anonymous.status_code == 401 and anonymous.headers["WWW-Authenticate"] == "Token"
        wrong = httpx.get(f"{live_daphne}/api/v1/entries/{entry.pk}/pending/", headers={"Authorization": "Token nope"})
        assert wrong.status_code == 401 and wrong.json() == {
            "error": "Invalid token.",
            "code": "authentication_failed",
            "detail": "Invalid token.",
        }


def server_threads(base_url: str) -> int:
    """Threads of the live daphne process serving `base_url` (Linux: /proc)."""
    port = urlsplit(base_url).port
    daphne = next(
        p for p in multiprocessing.active_children() if type(p).__name__ == "DaphneProcess" and p.port.value == port
    )
    return len(os.listdir(f"/proc/{daphne.pid}/task"))


@pytest.mark.slow
def test_waiting_polls_hold_no_thread_and_disconnected_ones_stop(fast_poll, live_daphne, entrant):
    entry, key = entrant
    headers = {"Authorization": f"Token {key}"}
    postgres = connection.vendor == "postgresql"
    polls_url = f"/api/v1/entries/{entry.pk}/pending/"
    with httpx.Client(base_url=live_daphne, headers=headers, timeout=5) as client:
        # warm up: whatever threads sixteen quick polls start and keep. (No sync view here: under ASGI
        # each runs on a thread of its own request, whose persistent connection outlives it until
        # garbage-collected, Django #33497; the polls' own connections are what is counted.)
        # They wait a moment each, so the process's pool of poll threads grows to what sixteen polls at once
        # take before the count (idle pool threads are kept; a waiting poll holds none).
        with ThreadPoolExecutor(16) as pool:
            warm = pool.map(lambda _: client.get(polls_url, params={"wait": "1"}), range(16))
            assert all(a.status_code == 200 for a in warm)
        time.sleep(0.5)
        threads = server_threads(live_daphne)
        backends = other_backends() if postgres else 0

        address = urlsplit(live_daphne)
        polls = []
        for _ in range(16):
            sock = socket.create_connection((address.hostname, address.port), timeout=5)
            sock.sendall(
                f"GET {polls_url}?wait=20 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {key}\r\n\r\n".encode()
            )
            polls.append(sock)
        time.sleep(1.0)
        # while sixteen polls wait, other requests are answered at once
        for _ in range(3):
            started = time.monotonic()
            assert client.get(f"{polls_url}?wait=0").json() == {"pending": []}
            assert (
                time.monotonic() - started < 5.0
            )  # not queued behind the polls' 20 s (1 s missed on a loaded machine)

        for sock in polls:  # the clients give up mid-poll
            sock.close()
        time.sleep(1.0)
        # a poll that kept running would keep its thread: +16; the poll threads' pool may have grown by a few
        # as sixteen polls arrived at once (seen: +6), idle threads it keeps
        assert server_threads(live_daphne) <= threads + 8
        if postgres:
            # a poll still running would open a connection every 50 ms: sample for a second
            samples = []
            for _ in range(50):
                samples.append(other_backends())
                time.sleep(0.02)
            assert max(samples) <= backends
        started = time.monotonic()
        assert client.get(f"{polls_url}?wait=0").json() == {"pending": []}
        assert time.monotonic() - started < 1.0
