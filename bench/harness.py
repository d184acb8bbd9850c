"""Shared set-up of the benchmarks that need the platform's services (chat_latency, lpp_latency,
markets, lambdastar_celery): run them as modules from the repository's root (`python -m bench.markets`).

PostgreSQL and Redis must be reachable (DATABASE_URL, default postgres://root@127.0.0.1:5432/postgres;
the Redis server and database: BENCH_REDIS_URL, else REDIS_URL, default redis://127.0.0.1:6379/0).
`Services` creates the throwaway database `arena_bench_<pid>` on that server (migrated, dropped at the
end), gives the run its own key prefix on that Redis (the channel layer's, the Celery broker's and its
results': every key deleted at the end, nothing else in the database touched), and starts on request
daphne on a free port (or a given one) and Celery workers, in child processes that die with the
benchmark.  Every process of a run (the benchmark, daphne, the workers, a benchmark's own children)
reads the settings `bench.settings`: the project's own plus the prefix and the bench-only app
`bench.tutorial`.  Nothing outside 127.0.0.1 is touched; cleanup also runs on Ctrl-C and SIGTERM
(`main` turns SIGTERM into KeyboardInterrupt).  `Services(..., redis=False)` runs without Redis (the
in-memory channel layer), `eager=False` sends tasks to the broker for real workers (default: tasks
run in-process, so none reaches a worker that shares the Redis server).

Also here: percentiles and their one-line format, websockets with a logged-in user's session cookie,
and the baseline every live benchmark prints beside its figure: a bare channel-layer round trip
(group_send to a one-member group, receive on that channel) through the same Redis.

The channel layer is the project's own configuration with two changes (bench/settings.py): the
private prefix, and, with redis-py >= 8 and a plain host URL, socket_timeout=None (without it every
websocket of a daphne that has no channel traffic for ~5 s is closed with 1011,
django/channels_redis#422); `as_configured` keeps the configured timeout.

    python -m bench.harness --serve --port N [--app MODULE:APP]    # the daphne child (started by Services)
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
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_DATABASE_URL = "postgres://root@127.0.0.1:5432/postgres"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
SETTINGS = "bench.settings"
ASGI_APPLICATION = "bench.asgi:application"
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
    return (
        f"n={s['n']:5d}  p50 {s['p50']:7.2f} ms  p90 {s['p90']:7.2f} ms  p99 {s['p99']:7.2f} ms  max {s['max']:7.2f} ms"
    )


def load_line() -> str:
    return f"load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())} (1/5/15 min), {os.cpu_count()} CPUs"


# --- environment: a throwaway database, a private Redis key prefix --------------------------------
def redis_url_from_env() -> str:
    return os.environ.get("BENCH_REDIS_URL") or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def bench_env(database_url: str, redis_url: str | None, prefix: str, *, eager: bool = True) -> dict:
    """The environment of every process of the run (bench/settings.py reads the prefix)."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE=SETTINGS,
        DATABASE_URL=database_url,
        # Eager (the default): no task may reach a Celery worker that shares this Redis (the start's
        # close timer would); they stay in-process, on timers far beyond the run.
        CELERY_TASK_ALWAYS_EAGER="true" if eager else "false",
        DEBUG="false",  # as deployed: no per-query logging
        SECRET_KEY=secrets.token_urlsafe(40),
        LOG_LEVEL=os.environ.get("LOG_LEVEL", "WARNING"),
        PYTHONUNBUFFERED="1",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:  # the in-memory channel layer
        env.pop("REDIS_URL", None)
    env[PREFIX_ENV] = prefix
    env[PARENT_ENV] = str(os.getpid())
    return env


def pg_conninfo(url: str) -> dict:
    from config.env import database

    db = database(url)
    if db["ENGINE"] != "django.db.backends.postgresql":
        raise BenchError(f"DATABASE_URL must name a PostgreSQL server, not {url!r}")
    info = {
        "dbname": db["NAME"],
        "user": db["USER"] or None,
        "password": db["PASSWORD"] or None,
        "host": db["HOST"] or None,
        "port": db["PORT"] or None,
        "connect_timeout": 5,
        **db["OPTIONS"],
    }
    return {k: v for k, v in info.items() if v is not None}


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


TEMPLATE_ENV = "ARENA_BENCH_TEMPLATE"
TEMPLATE_PREFIX = "arena_bench_template_"
TEMPLATE_LOCK = 0x6172656E61  # the advisory lock that orders building and cloning the template


def migrations_digest() -> str:
    """A digest of every migration file of the project and the bench app: the template's name changes
    whenever the schema a fresh database migrates to could."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("**/migrations/*.py")):
        if ".venv" in path.parts or "site-packages" in path.parts:
            continue
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


class Throwaway:
    """The database `arena_bench_<pid>` on the server of DATABASE_URL; dropped by drop().

    With ARENA_BENCH_TEMPLATE=1 (the test suite's smoke runs set it) the database is cloned from a
    migrated template, `arena_bench_template_<digest of the migrations>`, kept on the server for the next
    run; the first run that finds none saves its own freshly migrated database as the template (save_template)
    and drops templates of other migrations. Without it nothing is left on the server."""

    def __init__(self, server_url: str):
        self.server_url = server_url
        self.name = f"arena_bench_{os.getpid()}"
        self.url = with_database(server_url, self.name)
        self.created = False
        self.template = TEMPLATE_PREFIX + migrations_digest() if os.environ.get(TEMPLATE_ENV) == "1" else None
        self.cloned = False

    def _admin(self):
        import psycopg

        try:
            return psycopg.connect(**pg_conninfo(self.server_url), autocommit=True)
        except psycopg.OperationalError as exc:
            raise BenchError(f"PostgreSQL is unreachable at {self.server_url}: {str(exc).strip()}") from None

    @staticmethod
    def _exists(conn, name: str) -> bool:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is not None

    def create(self) -> None:
        import psycopg

        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            try:
                if self.template:
                    conn.execute("SELECT pg_advisory_lock(%s)", (TEMPLATE_LOCK,))
                    self.cloned = self._exists(conn, self.template)
                source = f' TEMPLATE "{self.template}"' if self.cloned else ""
                conn.execute(f'CREATE DATABASE "{self.name}"{source}')
            except psycopg.Error as exc:
                raise BenchError(f"cannot create database {self.name}: {str(exc).strip()}") from None
            finally:
                if self.template:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (TEMPLATE_LOCK,))
        self.created = True

    def save_template(self) -> bool:
        """After a fresh database's migrations (its connections closed): keep a copy as the template."""
        if not self.template or self.cloned:
            return False
        with self._admin() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (TEMPLATE_LOCK,))
            try:
                if self._exists(conn, self.template):
                    return False
                stale = conn.execute(
                    "SELECT datname FROM pg_database WHERE datname LIKE %s", (TEMPLATE_PREFIX + "%",)
                ).fetchall()
                for (name,) in stale:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                conn.execute(f'CREATE DATABASE "{self.template}" TEMPLATE "{self.name}"')
                return True
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (TEMPLATE_LOCK,))

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


# --- daphne and Celery workers in child processes ---------------------------------------------------
def module_command(module: str, *args: str) -> list[str]:
    """A child process running one of the project's modules (cwd: ROOT, so the checkout's code)."""
    return [sys.executable, "-m", module, *args]


def stop_process(process: subprocess.Popen | None, grace_s: float) -> None:
    """SIGTERM, then SIGKILL if it is still there after grace_s seconds."""
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(grace_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def kill_process(process: subprocess.Popen | None) -> None:
    """SIGKILL and reap."""
    if process is not None and process.poll() is None:
        process.kill()
        process.wait(10)


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


def serve(port: int, application: str = ASGI_APPLICATION) -> None:
    """Child entry point: daphne's own command line serving bench.asgi (the platform, plus the
    tutorial's chat; or `application`), with the settings, and so the Redis prefix, of this run."""
    _die_with_parent()
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(["-b", "127.0.0.1", "-p", str(port), "-v", "1", application])


class Daphne:
    """daphne in a child process on 127.0.0.1:`port` (a free one when 0) serving `application`
    (bench.asgi's by default; the fault tests serve config.asgi's with the test settings)."""

    def __init__(self, port: int, env: dict, tag: str = "bench", application: str = ASGI_APPLICATION):
        self.port = port or free_port()
        self.env = env
        self.application = application
        self.log = tempfile.NamedTemporaryFile(prefix=f"{tag}_daphne_", suffix=".log", delete=False)
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> None:
        command = module_command("bench.harness", "--serve", "--port", str(self.port))
        if self.application != ASGI_APPLICATION:
            command += ["--app", self.application]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT
        )
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

    def kill(self) -> None:
        """SIGKILL, as a crash would: no shutdown, sockets closed by the kernel (the log is kept)."""
        kill_process(self.process)

    def stop(self) -> None:
        stop_process(self.process, 10)
        self.log.close()
        try:
            os.unlink(self.log.name)
        except OSError:
            pass


class CeleryWorker:
    """`celery -A config worker` in a child process with this run's environment (its broker keys
    under the run's prefix); it dies with the benchmark."""

    def __init__(self, name: str, env: dict, *, queues: str = "celery", concurrency: int = 1, pool: str = "prefork"):
        self.name = f"{name}@{os.uname().nodename}"
        self.env = env
        self.command = module_command(
            "celery",
            "-q",
            "-A",
            "config",
            "worker",
            "-Q",
            queues,
            "-c",
            str(concurrency),
            "--pool",
            pool,
            "-n",
            self.name,
            "--loglevel",
            "WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        )
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )

    def kill(self) -> None:
        """SIGKILL, as a crash would (the prefork pool's children, if any, are left to notice)."""
        kill_process(self.process)

    def stop(self) -> None:
        stop_process(self.process, 30)


# --- Django in the benchmark process ----------------------------------------------------------------
def setup_django(redis: bool = True) -> str | None:
    """django.setup() with the run's settings (bench.settings, from the environment); returns
    bench.settings' note when the redis-py 8 socket timeout had to be lifted."""
    import django

    django.setup()
    from django.conf import settings

    if redis and not settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith(".RedisChannelLayer"):
        raise BenchError("REDIS_URL did not select the Redis channel layer")
    return getattr(settings, "BENCH_NOTE", None)


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
    """The run's database, Redis prefix and (on start_daphne, start_celery) servers; everything goes
    on exit.

        with Services("chat_latency", port=args.port, as_configured=args.as_configured) as services:
            ...create data with the ORM...
            base = services.start_daphne()      # ws://127.0.0.1:<port>
            worker = services.start_celery("bench1", queues="lambdastar")   # with eager=False
    """

    def __init__(self, tag: str, *, port: int = 0, as_configured: bool = False, redis: bool = True, eager: bool = True):
        self.tag, self.port, self.as_configured, self.eager = tag, port, as_configured, eager
        self.log = logger(tag)
        self.server_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
        self.redis_url = redis_url_from_env() if redis else None
        self.prefix = f"arena-bench-{os.getpid()}-{secrets.token_hex(3)}:"
        self.database = Throwaway(self.server_url)
        self.daphne: Daphne | None = None
        self.workers: list[CeleryWorker] = []
        self.note: str | None = None

    def __enter__(self) -> Services:
        if self.redis_url:
            check_redis(self.redis_url)
        try:
            where = f"key prefix {self.prefix!r} on {self.redis_url}" if self.redis_url else "no Redis"
            self.log(f"database {self.database.name} on {urlsplit(self.server_url).hostname}; {where}")
            self.database.create()
            os.environ.update(bench_env(self.database.url, self.redis_url, self.prefix, eager=self.eager))
            if not self.redis_url:
                os.environ.pop("REDIS_URL", None)
            if self.as_configured:
                os.environ[AS_CONFIGURED_ENV] = "1"
            else:
                os.environ.pop(AS_CONFIGURED_ENV, None)
            self.note = setup_django(redis=bool(self.redis_url))
            if self.note:
                self.log("note: " + self.note)
            started = time.perf_counter()
            migrate()
            cloned = f" (cloned from {self.database.template})" if self.database.cloned else ""
            self.log(f"migrated in {time.perf_counter() - started:.1f} s{cloned}")
            if self.database.template and not self.database.cloned:
                from django.db import connections

                connections.close_all()
                if self.database.save_template():
                    self.log(f"kept the migrated database as the template {self.database.template}")
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

    def start_celery(self, name: str, *, queues: str = "celery", concurrency: int = 1) -> CeleryWorker:
        """A Celery worker of this run (tasks reach it only with Services(..., eager=False))."""
        worker = CeleryWorker(name, dict(os.environ), queues=queues, concurrency=concurrency)
        self.workers.append(worker)
        worker.start()
        return worker

    def tail(self) -> str:
        return self.daphne.tail() if self.daphne is not None else ""

    def daphne_cpu_s(self) -> float | None:
        """CPU seconds (user + system) daphne has used so far: a figure the machine's noise barely moves."""
        return process_cpu_s(self.daphne.process.pid) if self.daphne is not None else None

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is not None and self.tail():
            self.log("daphne's log (last lines):\n" + self.tail())
        for worker in self.workers:
            worker.stop()
        if self.daphne is not None:
            self.daphne.stop()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        try:
            self.database.drop()
            deleted = delete_prefix(self.redis_url, self.prefix) if self.redis_url else 0
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


def machine_busy_s() -> float | None:
    """CPU seconds the whole machine has spent busy (every core: user, nice, system, irq, softirq,
    steal) since boot; the difference over a phase / its wall time = the cores it kept busy."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def named_cpu_s(name: str) -> float:
    """CPU seconds of every live process whose command name is `name` (postgres, redis-server)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    total += process_cpu_s(int(entry.name)) or 0.0
            except OSError:
                continue
    return total


# --- websockets and the bare channel-layer baseline -------------------------------------------------
async def open_websocket(base: str, path: str, cookie: str | None, name: str, *, greeted: bool = True):
    """A websocket (of a logged-in user, with a session cookie); returns it once the first frame, the
    running state, arrived (greeted=False: at once, for a consumer that sends nothing on connect)."""
    from websockets.asyncio.client import connect

    headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
    ws = await connect(
        base + path,
        origin=ORIGIN,
        additional_headers=headers,
        compression=None,
        open_timeout=30,
        max_size=2**22,
        ping_interval=None,
    )
    if not greeted:
        return ws
    first = json.loads(await asyncio.wait_for(ws.recv(), 30))
    if first.get("type") != "state" or first.get("status") != "running":
        raise BenchError(f"{name}: expected the running state on connect, got {str(first)[:200]}")
    return ws


async def baseline_phase(
    concurrency: int,
    rounds: int,
    pause: Callable[[], float],
    stagger_s: float,
    timeout_s: float,
    write: Callable[[int, int], Awaitable[None]] | None = None,
) -> dict:
    """Bare channel layer: group_send to a one-member group, then receive it; `concurrency` pairs,
    each starting after uniform(0, stagger_s) and pausing pause() seconds after each round trip.
    With `write`, `await write(pair, round)` (a durable write, say) comes first, inside the timing.
    Also returned: this process's CPU seconds over the phase (`cpu_s`)."""
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
            if write is not None:
                await write(i, k)
            await layer.group_send(group, {"type": "arena.event", "payload": {"type": "message", "seq": k}})
            try:
                await asyncio.wait_for(layer.receive(channel), timeout_s)
            except TimeoutError:
                lost += 1
                continue
            samples.append(time.perf_counter() - started)
            await asyncio.sleep(pause())
        await layer.group_discard(group, channel)

    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(pair(i) for i in range(concurrency)))
    return {
        "latency": samples,
        "lost": lost,
        "elapsed_s": time.perf_counter() - started,
        "cpu_s": time.process_time() - cpu,
    }


# --- the command line -------------------------------------------------------------------------------
async def close_layer_pools() -> None:
    """Close this event loop's Redis connections of the channel layer, and only this loop's: other
    loops (the platform's background pusher, a bridge thread) close their own."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    loop_layer = getattr(layer, "_layers", {}).pop(asyncio.get_running_loop(), None)
    if loop_layer is not None:
        await loop_layer.flush()


def main(tag: str, run: Callable[[], dict], args=None, argv: list[str] | None = None) -> int:
    """Run a benchmark: SIGTERM as Ctrl-C, a BenchError as one line (exit 2), the result's JSON last;
    then, when `args` asks for it (--record, --record-to), the run recorded (bench/results.py; `argv`:
    the command line's arguments, sys.argv's by default)."""

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
    if args is not None:
        from bench import results

        results.record_if_asked(tag, result, args, argv)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--serve" and sys.argv[2] == "--port":
        serve(int(sys.argv[3]))
    elif len(sys.argv) == 6 and sys.argv[1] == "--serve" and sys.argv[2] == "--port" and sys.argv[4] == "--app":
        serve(int(sys.argv[3]), sys.argv[5])
    else:
        sys.exit(__doc__.rstrip().rsplit("\n", 1)[-1].strip())
