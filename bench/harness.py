"""Shared set-up of the live benchmarks (bench/chat_latency.py, bench/lpp_latency.py).

Services mode only: PostgreSQL and Redis must be reachable (DATABASE_URL, default
postgres://root@127.0.0.1:5432/postgres; REDIS_URL, default redis://127.0.0.1:6379/0).  `Services`
creates the throwaway database `arena_bench_<pid>` on that server (migrated, dropped at the end), gives
the run its own channel-layer prefix on that Redis (keys deleted at the end), and starts daphne on a
free port (or a given one) in a child process.  Nothing outside 127.0.0.1 is touched; cleanup also runs
on Ctrl-C and SIGTERM (`main` turns SIGTERM into KeyboardInterrupt).

Also here: percentiles and their one-line format, websockets with a logged-in user's session cookie,
and the baseline every live benchmark prints beside its figure: a bare channel-layer round trip
(group_send to a one-member group, receive on that channel) through the same Redis.

The channel layer is the project's own configuration with two changes: the private prefix, and, with
redis-py >= 8 and a plain host URL, socket_timeout=None (without it every websocket of a daphne that
has no channel traffic for ~5 s is closed with 1011, django/channels_redis#422); `as_configured`
keeps the configured timeout.

    python bench/harness.py --serve --port N     # the daphne child (started by Services)
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://root@127.0.0.1:5432/postgres"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
ORIGIN = "http://127.0.0.1"
PREFIX_ENV = "ARENA_BENCH_CHANNEL_PREFIX"
AS_CONFIGURED_ENV = "ARENA_BENCH_AS_CONFIGURED"
PARENT_ENV = "ARENA_BENCH_PARENT_PID"
ACCESS_LINE = re.compile(r'\] "(WSCONNECTING|WSCONNECT|WSDISCONNECT|WSREJECT|GET|POST|HEAD) ')


class BenchError(Exception):
    """A failure with a message for the person running the benchmark (no traceback)."""


def logger(tag: str) -> Callable[[str], None]:
    def log(text: str) -> None:
        print(f"[{tag}] {text}", file=sys.stderr, flush=True)

    return log


# --- figures ----------------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (NumPy's default)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def summary(values_s: list[float]) -> dict:
    ms = [v * 1000.0 for v in values_s]
    return {
        "n": len(ms),
        "p50": percentile(ms, 50),
        "p90": percentile(ms, 90),
        "p99": percentile(ms, 99),
        "max": max(ms) if ms else float("nan"),
    }


def fmt(s: dict) -> str:
    return (f"n={s['n']:5d}  p50 {s['p50']:7.2f} ms  p90 {s['p90']:7.2f} ms  p99 {s['p99']:7.2f} ms  "
            f"max {s['max']:7.2f} ms")


def load_line() -> str:
    return f"load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())} (1/5/15 min), {os.cpu_count()} CPUs"


# --- environment: a throwaway database, a private channel prefix ----------------------------------
def bench_env(database_url: str, redis_url: str, prefix: str) -> dict:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        # No task may reach a Celery worker that shares this Redis (the start's close timer would):
        # with eager tasks they stay in-process, on timers far beyond the run.
        CELERY_TASK_ALWAYS_EAGER="true",
        DEBUG="false",  # as deployed: no per-query logging
        SECRET_KEY=secrets.token_urlsafe(40),
        LOG_LEVEL=os.environ.get("LOG_LEVEL", "WARNING"),
        PYTHONUNBUFFERED="1",
    )
    env[PREFIX_ENV] = prefix
    env[PARENT_ENV] = str(os.getpid())
    return env


def configure_channel_layer() -> str | None:
    """The project's channel layer as configured, with this run's private prefix (set before Django
    reads its settings).  Returns a note when the redis-py 8 socket timeout had to be lifted."""
    import redis

    import config.settings as project_settings

    layer = project_settings.CHANNEL_LAYERS["default"]
    if not layer["BACKEND"].endswith(".RedisChannelLayer"):
        raise BenchError("REDIS_URL did not select the Redis channel layer")
    config = layer.setdefault("CONFIG", {})
    config["prefix"] = os.environ[PREFIX_ENV]
    # redis-py >= 8 reads with a 5 s socket timeout by default, as long as channels_redis's blocking
    # BZPOPMIN (5 s): a daphne with no channel message for ~5 s raises TimeoutError in a consumer and
    # the websocket is closed with 1011 (django/channels_redis#422).  Lifting it changes no latency.
    hosts = config.get("hosts", [])
    plain = all(isinstance(h, str) and "socket_timeout" not in h for h in hosts)
    if hosts and plain and int(redis.__version__.split(".")[0]) >= 8 and not os.environ.get(AS_CONFIGURED_ENV):
        config["hosts"] = [{"address": h, "socket_timeout": None} for h in hosts]
        return ("the project's channel layer keeps redis-py 8's 5 s socket timeout, which closes idle "
                "websockets after ~5 s (1011, django/channels_redis#422); lifted for this run "
                "(--as-configured to keep it)")
    return None


def pg_conninfo(url: str) -> dict:
    from config.env import parse_database_url

    db = parse_database_url(url)
    if db["ENGINE"] != "django.db.backends.postgresql":
        raise BenchError(f"DATABASE_URL must name a PostgreSQL server, not {url!r}")
    info = {"dbname": db["NAME"], "user": db["USER"] or None, "password": db["PASSWORD"] or None,
            "host": db["HOST"] or None, "port": db["PORT"] or None, "connect_timeout": 5, **db["OPTIONS"]}
    return {k: v for k, v in info.items() if v is not None}


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


class Throwaway:
    """The database `arena_bench_<pid>` on the server of DATABASE_URL; dropped by drop()."""

    def __init__(self, server_url: str):
        self.server_url = server_url
        self.name = f"arena_bench_{os.getpid()}"
        self.url = with_database(server_url, self.name)
        self.created = False

    def _admin(self):
        import psycopg

        try:
            return psycopg.connect(**pg_conninfo(self.server_url), autocommit=True)
        except psycopg.OperationalError as exc:
            raise BenchError(f"PostgreSQL is unreachable at {self.server_url}: {str(exc).strip()}") from None

    def create(self) -> None:
        import psycopg

        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            try:
                conn.execute(f'CREATE DATABASE "{self.name}"')
            except psycopg.Error as exc:
                raise BenchError(f"cannot create database {self.name}: {str(exc).strip()}") from None
        self.created = True

    def drop(self) -> None:
        if not self.created:
            return
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        self.created = False


def check_redis(url: str) -> None:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except redis.RedisError as exc:
        raise BenchError(f"Redis is unreachable at {url}: {exc}") from None


def delete_prefix(url: str, prefix: str) -> int:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=5)
    keys = list(client.scan_iter(match=prefix + "*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()
    return len(keys)


# --- daphne in a child process ---------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    """Linux: the server goes when the benchmark goes, even when the benchmark is killed."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if str(os.getppid()) != os.environ.get(PARENT_ENV):  # it went before prctl took effect
        sys.exit(1)


def serve(port: int) -> None:
    """Child entry point: daphne's own command line, with the channel prefix of this run."""
    _die_with_parent()
    configure_channel_layer()
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(["-b", "127.0.0.1", "-p", str(port), "-v", "1", "config.asgi:application"])


class Daphne:
    def __init__(self, port: int, env: dict, tag: str = "bench"):
        self.port = port or free_port()
        self.env = env
        self.log = tempfile.NamedTemporaryFile(prefix=f"{tag}_daphne_", suffix=".log", delete=False)
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> None:
        command = [sys.executable, str(Path(__file__).resolve()), "--serve", "--port", str(self.port)]
        self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdin=subprocess.DEVNULL,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise BenchError(f"daphne exited with status {self.process.returncode}:\n{self.tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.1)
        raise BenchError(f"daphne did not listen on 127.0.0.1:{self.port} within {timeout:.0f} s:\n{self.tail()}")

    def tail(self, lines: int = 30) -> str:
        try:
            text = Path(self.log.name).read_text(errors="replace")
        except OSError:
            return ""
        kept = [line for line in text.splitlines() if not ACCESS_LINE.search(line)]  # errors, not the access log
        return "\n".join(kept[-lines:])

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()
        try:
            os.unlink(self.log.name)
        except OSError:
            pass


# --- Django in the benchmark process ----------------------------------------------------------------
def setup_django() -> str | None:
    note = configure_channel_layer()
    import django

    django.setup()
    return note


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def session_cookie(user) -> str:
    """The session id of a logged-in user (force_login: users need no password)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Services:
    """The run's database, channel prefix and (on start_daphne) server; everything goes on exit.

        with Services("chat_latency", port=args.port, as_configured=args.as_configured) as services:
            ...create data with the ORM...
            base = services.start_daphne()      # ws://127.0.0.1:<port>
    """

    def __init__(self, tag: str, *, port: int = 0, as_configured: bool = False):
        self.tag, self.port, self.as_configured = tag, port, as_configured
        self.log = logger(tag)
        self.server_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
        self.redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
        self.prefix = f"arena-bench-{os.getpid()}-{secrets.token_hex(3)}:"
        self.database = Throwaway(self.server_url)
        self.daphne: Daphne | None = None
        self.note: str | None = None

    def __enter__(self) -> Services:
        check_redis(self.redis_url)
        try:
            self.log(f"database {self.database.name} on {urlsplit(self.server_url).hostname}; "
                     f"channel prefix {self.prefix!r} on {self.redis_url}")
            self.database.create()
            os.environ.update(bench_env(self.database.url, self.redis_url, self.prefix))
            if self.as_configured:
                os.environ[AS_CONFIGURED_ENV] = "1"
            else:
                os.environ.pop(AS_CONFIGURED_ENV, None)
            self.note = setup_django()
            if self.note:
                self.log("note: " + self.note)
            started = time.perf_counter()
            migrate()
            self.log(f"migrated in {time.perf_counter() - started:.1f} s")
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise
        return self

    def start_daphne(self) -> str:
        from django.db import connections

        connections.close_all()
        self.daphne = Daphne(self.port, dict(os.environ), self.tag)
        self.daphne.start()
        self.log(f"daphne (pid {self.daphne.process.pid}) listening on 127.0.0.1:{self.daphne.port}")
        return f"ws://127.0.0.1:{self.daphne.port}"

    def tail(self) -> str:
        return self.daphne.tail() if self.daphne is not None else ""

    def daphne_cpu_s(self) -> float | None:
        """CPU seconds (user + system) daphne has used so far: a figure the machine's noise barely moves."""
        return process_cpu_s(self.daphne.process.pid) if self.daphne is not None else None

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is not None and self.tail():
            self.log("daphne's log (last lines):\n" + self.tail())
        if self.daphne is not None:
            self.daphne.stop()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        try:
            self.database.drop()
            deleted = delete_prefix(self.redis_url, self.prefix)
            self.log(f"cleaned up: dropped {self.database.name}, deleted {deleted} Redis keys")
        except Exception as exc:  # report, but do not hide the run's own outcome
            self.log(f"cleanup failed: {exc}")
        return False


def process_cpu_s(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


# --- websockets and the bare channel-layer baseline -------------------------------------------------
async def open_websocket(base: str, path: str, cookie: str, name: str):
    """A websocket of a logged-in user; returns it once the first frame, the running state, arrived."""
    from websockets.asyncio.client import connect

    ws = await connect(base + path, origin=ORIGIN, additional_headers={"Cookie": f"sessionid={cookie}"},
                       compression=None, open_timeout=30, max_size=2**22, ping_interval=None)
    first = json.loads(await asyncio.wait_for(ws.recv(), 30))
    if first.get("type") != "state" or first.get("status") != "running":
        raise BenchError(f"{name}: expected the running state on connect, got {str(first)[:200]}")
    return ws


async def baseline_phase(concurrency: int, rounds: int, pause: Callable[[], float], stagger_s: float,
                         timeout_s: float) -> dict:
    """Bare channel layer: group_send to a one-member group, then receive it; `concurrency` pairs,
    each starting after uniform(0, stagger_s) and pausing pause() seconds after each round trip."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    samples: list[float] = []
    lost = 0

    async def pair(i: int):
        nonlocal lost
        channel = await layer.new_channel()
        group = f"bench.baseline.{i}"
        await layer.group_add(group, channel)
        await asyncio.sleep(random.uniform(0, stagger_s))
        for k in range(rounds):
            started = time.perf_counter()
            await layer.group_send(group, {"type": "arena.event", "payload": {"type": "message", "seq": k}})
            try:
                await asyncio.wait_for(layer.receive(channel), timeout_s)
            except asyncio.TimeoutError:
                lost += 1
                continue
            samples.append(time.perf_counter() - started)
            await asyncio.sleep(pause())
        await layer.group_discard(group, channel)

    started = time.perf_counter()
    await asyncio.gather(*(pair(i) for i in range(concurrency)))
    return {"latency": samples, "lost": lost, "elapsed_s": time.perf_counter() - started}


# --- the command line -------------------------------------------------------------------------------
async def close_layer_pools() -> None:
    """Close this event loop's Redis connections of the channel layer, and only this loop's: other
    loops (the platform's background pusher, a bridge thread) close their own."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    loop_layer = getattr(layer, "_layers", {}).pop(asyncio.get_running_loop(), None)
    if loop_layer is not None:
        await loop_layer.flush()


def main(tag: str, run: Callable[[], dict]) -> int:
    """Run a benchmark: SIGTERM as Ctrl-C, a BenchError as one line (exit 2), the result's JSON last."""

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    try:
        result = run()
    except BenchError as exc:
        print(f"{tag}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{tag}: interrupted", file=sys.stderr)
        return 130
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--serve" and sys.argv[2] == "--port":
        serve(int(sys.argv[3]))
    else:
        sys.exit(__doc__.rstrip().rsplit("\n", 1)[-1].strip())
