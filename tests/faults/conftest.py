"""Fault tests: the platform's own processes killed, restarted or cut off from Redis while
people chat, each test asserting what a user would notice.

Services mode only (DATABASE_URL and REDIS_URL set; skipped otherwise). Unlike the `live_daphne` and
`task_worker` fixtures (a spawned daphne, a worker in a thread), the servers here are real child
processes that can be SIGKILLed and started again on the same port: daphne (`bench.harness.Daphne`
serving config.asgi) and `celery -A config worker` (`bench.harness.CeleryWorker`), with this test
run's settings (config.test_settings: its database, its Redis key prefix), so they share the test
process's database, channel layer and broker. They die with the test run.
"""

import asyncio
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from bench.harness import free_port, with_database
from tests.e2e.conftest import browser  # noqa: F401  the module-scoped Chromium fixture, for the page tests here

services_only = [
    pytest.mark.slow,
    pytest.mark.redis,
    pytest.mark.skipif(
        not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        reason="fault tests need DATABASE_URL and REDIS_URL (services mode)",
    ),
    pytest.mark.django_db(transaction=True),
]

ORIGIN = "http://127.0.0.1"
ASGI = "config.asgi:application"


class Platform:
    """This test's daphne and Celery worker processes (started, killed, restarted at will)."""

    def __init__(self, env: dict):
        self.env = env
        self.servers = []
        self.workers = []

    def daphne(self, port: int = 0, **env):
        from bench.harness import Daphne

        server = Daphne(port, {**self.env, **env}, "faults", application=ASGI)
        server.start(timeout=60)
        self.servers.append(server)
        return server

    def worker(self, name: str, *, pool: str = "solo", wait: bool = True, **env):
        from bench.harness import CeleryWorker

        worker = CeleryWorker(name, {**self.env, **env}, queues="celery,bots", pool=pool)
        worker.start()
        self.workers.append(worker)
        if wait:
            worker_ready(worker, broker=env.get("REDIS_URL"))
        return worker

    def stop(self):
        for process in self.workers + self.servers:
            process.stop()


def worker_ready(worker, timeout: float = 60.0, broker: str | None = None) -> None:
    """Wait until the worker answers a ping through its broker (this run's, or `broker`): it then
    consumes its queues."""
    from celery import Celery

    from config.celery_app import app

    if broker:  # another broker: a throwaway app to ask through it, with this run's key prefix
        app = Celery("faults-probe", broker=broker, set_as_current=False)
        app.conf.broker_transport_options = dict(app.conf.broker_transport_options or {}, **_run_transport_options())
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            if worker.process.poll() is not None:
                raise RuntimeError(f"celery worker exited with status {worker.process.returncode}")
            if app.control.ping(destination=[worker.name], timeout=1.0):
                return
    finally:
        if broker:
            app.close()
    raise RuntimeError(f"celery worker {worker.name} did not answer a ping within {timeout:.0f} s")


def _run_transport_options() -> dict:
    from django.conf import settings

    return dict(getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}))


@pytest.fixture
def platform(transactional_db, end_stray_sessions, monkeypatch):
    """Start servers with `platform.daphne()` and `platform.worker(name)`; all are stopped at the end."""
    from django.db import connection

    from bench.harness import PARENT_ENV

    monkeypatch.setenv(PARENT_ENV, str(os.getpid()))  # children die with this process (bench.harness)
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.test_settings",
        DATABASE_URL=with_database(os.environ["DATABASE_URL"], connection.settings_dict["NAME"]),
        CELERY_TASK_ALWAYS_EAGER="false",
        DEBUG="false",
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="WARNING",
    )
    platform = Platform(env)
    yield platform
    platform.stop()


# --- a private Redis server ------------------------------------------------------------------------
class RedisServer:
    """`redis-server` on a free port, nothing saved: stopped and started again at will."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server"),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_listening(self.port, 10)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # gone at once, as a crashed server is
            self.process.wait(10)


@pytest.fixture
def redis_server():
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed")
    server = RedisServer()
    server.start()
    yield server
    server.stop()


# --- helpers ---------------------------------------------------------------------------------------
def wait_listening(port: int, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout:.0f} s")


def healthz(port: int) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


class Console:
    """A console's websocket as the pages hold it (static/arena/live.js): when the connection drops it
    reconnects with backoff (0.5 s doubling to 8 s), and the server sends the full state again. It
    keeps every message it has seen by (side, seq), as the page does."""

    def __init__(self, port: int, path: str, cookie: str, name: str):
        self.url = f"ws://127.0.0.1:{port}{path}"
        self.cookie, self.name = cookie, name
        self.messages: dict[tuple[str, int], dict] = {}
        self.states: list[dict] = []
        self.errors: list[dict] = []
        self.connects = 0
        self.closed_codes: list[int | None] = []
        self._ws = None
        self._open = asyncio.Event()
        self._task = None
        self._stop = False
        self._changed = asyncio.Event()

    async def start(self):
        self._task = asyncio.create_task(self._run())
        await self.connected(30)

    async def _run(self):
        from websockets.asyncio.client import connect

        delay = 0.5
        while not self._stop:
            try:
                ws = await connect(
                    self.url,
                    origin=ORIGIN,
                    additional_headers={"Cookie": f"sessionid={self.cookie}"},
                    open_timeout=10,
                    ping_interval=None,
                    compression=None,
                )
            except (TimeoutError, OSError, Exception):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 8.0)
                continue
            delay = 0.5
            self._ws = ws
            self.connects += 1
            try:
                async for raw in ws:
                    self._take(json.loads(raw))
            except Exception:
                pass
            finally:
                self._ws = None
                self._open.clear()
                self.closed_codes.append(ws.close_code)
            if not self._stop:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 8.0)

    def _take(self, payload: dict):
        kind = payload.get("type")
        if kind == "state":
            self.states.append(payload)
            messages = payload.get("messages") or []
            if isinstance(messages, dict):  # the judge's: per side
                for side, rows in messages.items():
                    for m in rows:
                        self.messages[(side, m["seq"])] = m
            else:
                for m in messages:
                    self.messages[(m.get("side", ""), m["seq"])] = m
            self._open.set()
        elif kind == "message":
            self.messages[(payload.get("side", ""), payload["seq"])] = payload
        elif kind == "error":
            self.errors.append(payload)
        self._changed.set()

    async def connected(self, timeout: float):
        await asyncio.wait_for(self._open.wait(), timeout)

    @property
    def is_open(self) -> bool:
        return self._open.is_set()

    async def send(self, frame: dict) -> bool:
        """Like the page's send(): False when the socket is not open."""
        ws = self._ws
        if ws is None or not self._open.is_set():
            return False
        try:
            await ws.send(json.dumps(frame))
            return True
        except Exception:
            return False

    async def wait_for(self, predicate, timeout: float):
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not predicate():
            left = end - loop.time()
            if left <= 0:
                raise AssertionError(f"{self.name}: condition not met within {timeout} s")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), min(left, 0.2))
            except TimeoutError:
                pass
        return True

    def texts(self, side: str = "", sender: str | None = None) -> list[str]:
        rows = sorted((seq, m) for (s, seq), m in self.messages.items() if s == side)
        return [m["text"] for _, m in rows if sender is None or m.get("from") == sender]

    async def close(self):
        self._stop = True
        if self._ws is not None:
            await self._ws.close()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except BaseException:
                pass
