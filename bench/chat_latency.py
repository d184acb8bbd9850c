"""Live chat latency: N concurrent conversations through daphne and the Redis channel layer.

    .venv/bin/python bench/chat_latency.py [--conversations 50] [--messages 20] [--port 0]

Services mode only: PostgreSQL and Redis must be reachable (DATABASE_URL, default
postgres://root@127.0.0.1:5432/postgres; REDIS_URL, default redis://127.0.0.1:6379/0).  The run
creates its own database `arena_bench_<pid>` on that server (migrated, dropped at the end), uses its
own channel-layer prefix on that Redis (keys deleted at the end), and starts daphne on a free port
(or --port) in a child process.  Nothing outside 127.0.0.1 is touched; cleanup also runs on Ctrl-C.

Each conversation is a one-to-one interrogation whose witness is a human confederate, set up with the
project's own services; the judge and the confederate each hold a websocket (session cookie of a
logged-in user).  The two sides take turns: a message is sent, the other party's socket receives it
(send -> JudgeConsumer/WitnessConsumer -> message_post stores it -> on commit, group_send through
Redis -> the other consumer -> its socket), then after a jittered pause (--pause-ms) the other side
answers.  Each party sends --messages messages, so a conversation makes 2 x --messages deliveries.

Baseline, measured in the same run against the same Redis with the same concurrency and pacing: a
bare channel-layer round trip (group_send to a one-member group, receive on that channel), which is
what a push costs with no websocket, consumer or database in the way.

Also printed: the delivery split at the message's stored `created_at` (send -> stored, stored -> other
socket; same machine, same clock) and, with --typing N, typing signals (the path with no DB write).

Progress goes to stderr, a human-readable summary to stdout, and the LAST line is one JSON object:
{"p50_ms": ..., "p99_ms": ..., "baseline_p99_ms": ..., "ratio": p99_ms / baseline_p99_ms, ...}.

The channel layer is the project's own configuration with two changes: the private prefix, and, with
redis-py >= 8 and a plain host URL, socket_timeout=None (without it every websocket of a daphne that
has no channel traffic for ~5 s is closed with 1011, django/channels_redis#422); --as-configured
keeps the configured timeout.
"""

from __future__ import annotations

import argparse
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
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
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


def log(text: str) -> None:
    print(f"[chat_latency] {text}", file=sys.stderr, flush=True)


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
    if layer["BACKEND"] != "channels_redis.core.RedisChannelLayer":
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
    def __init__(self, port: int, env: dict):
        self.port = port or free_port()
        self.env = env
        self.log = tempfile.NamedTemporaryFile(prefix="chat_latency_daphne_", suffix=".log", delete=False)
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


# --- data, through the project's services ---------------------------------------------------------
def setup_django() -> str | None:
    note = configure_channel_layer()
    import django

    django.setup()
    return note


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def create_conversations(n: int) -> list[dict]:
    """n running one-to-one interrogations, each with its own judge and human confederate."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.test import Client

    from arena import roles, services
    from arena.setup import ensure_role_groups

    ensure_role_groups()
    User = get_user_model()
    judges_group = Group.objects.get(name=roles.JUDGE)
    confederates_group = Group.objects.get(name=roles.CONFEDERATE)

    def cookie(user) -> str:
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value

    plan = []
    for i in range(n):
        judge = User.objects.create_user(username=f"bench-judge-{i}")  # no password: force_login only
        confederate = User.objects.create_user(username=f"bench-confederate-{i}")
        judge.groups.add(judges_group)
        confederate.groups.add(confederates_group)
        interrogation = services.interrogation_create(
            judge=judge, witnesses=[confederate], time_limit_s=24 * 3600, title=f"bench {i}"
        )
        services.interrogation_start(interrogation_id=interrogation.pk, by=judge)
        conversation = interrogation.conversations.get()
        plan.append({
            "judge_path": f"/ws/judge/{interrogation.public_id}/",
            "witness_path": f"/ws/witness/{conversation.public_id}/",
            "judge_cookie": cookie(judge),
            "witness_cookie": cookie(confederate),
            "side": conversation.side,
        })
    return plan


# --- measurement ------------------------------------------------------------------------------------
def parse_at(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value).timestamp()
    except ValueError:
        return None


class Party:
    """One websocket. Conversations take turns, so a party awaits at most one frame at a time."""

    def __init__(self, name: str, ws, errors: list):
        self.name = name
        self.ws = ws
        self.errors = errors
        self.expected: tuple[str, str | None, asyncio.Future] | None = None
        self.closing = False
        self.reader = asyncio.create_task(self.read())

    def expect(self, kind: str, text: str | None = None) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self.expected = (kind, text, future)
        return future

    async def send(self, frame: dict) -> None:
        import websockets

        try:
            await self.ws.send(json.dumps(frame))
        except websockets.ConnectionClosed as exc:
            raise BenchError(f"daphne closed {self.name}'s websocket: {exc}") from None

    async def read(self) -> None:
        import websockets

        reason = "closed"
        try:
            async for raw in self.ws:
                arrived, arrived_wall = time.perf_counter(), time.time()
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "error":
                    self.errors.append(f"{self.name}: {frame.get('code')}: {frame.get('message')}")
                    continue
                if self.expected is None or kind != self.expected[0] or frame.get("from") == "you":
                    continue
                _, text, future = self.expected
                if text is not None and frame.get("text") != text:
                    continue
                self.expected = None
                if not future.done():
                    future.set_result((arrived, arrived_wall, parse_at(frame.get("at"))))
        except websockets.ConnectionClosed as exc:
            reason = str(exc)
        if not self.closing:  # the server closed it in the middle of the run
            self.errors.append(f"{self.name}: websocket {reason}")
            if self.expected is not None and not self.expected[2].done():
                self.expected[2].set_exception(BenchError(f"daphne closed {self.name}'s websocket: {reason}"))

    async def close(self) -> None:
        self.closing = True
        await self.ws.close()
        self.reader.cancel()


async def open_socket(base: str, path: str, cookie: str, name: str, errors: list) -> Party:
    from websockets.asyncio.client import connect

    ws = await connect(base + path, origin=ORIGIN, additional_headers={"Cookie": f"sessionid={cookie}"},
                       compression=None, open_timeout=30, max_size=2**22, ping_interval=None)
    first = json.loads(await asyncio.wait_for(ws.recv(), 30))
    if first.get("type") != "state" or first.get("status") != "running":
        raise BenchError(f"{name}: expected the running state on connect, got {str(first)[:200]}")
    return Party(name, ws, errors)


async def chat_phase(base: str, plan: list[dict], messages: int, pause_s: float, timeout_s: float,
                     typing_rounds: int) -> dict:
    errors: list[str] = []
    gate = asyncio.Semaphore(10)

    async def pair(i: int, item: dict):
        async with gate:
            judge = await open_socket(base, item["judge_path"], item["judge_cookie"], f"judge-{i}", errors)
            witness = await open_socket(base, item["witness_path"], item["witness_cookie"], f"witness-{i}", errors)
        return judge, witness

    started = time.perf_counter()
    pairs = await asyncio.gather(*(pair(i, item) for i, item in enumerate(plan)))
    log(f"{2 * len(pairs)} websockets open in {time.perf_counter() - started:.1f} s")

    latency: list[float] = []
    ingress: list[float] = []  # client send -> the message's created_at (server clock, same machine)
    egress: list[float] = []   # created_at -> the other party's socket
    typing: list[float] = []
    lost = 0
    done = 0
    total = len(plan) * 2 * messages

    async def deliver(sender: Party, receiver: Party, frame: dict, kind: str, text: str | None):
        future = receiver.expect(kind, text)
        sent_wall, sent = time.time(), time.perf_counter()
        await sender.send(frame)
        try:
            arrived, arrived_wall, at = await asyncio.wait_for(future, timeout_s)
        except asyncio.TimeoutError:
            receiver.expected = None
            return None
        return arrived - sent, sent_wall, arrived_wall, at

    async def conversation(i: int, judge: Party, witness: Party, side: str):
        nonlocal lost, done
        await asyncio.sleep(random.uniform(0, pause_s))  # stagger the starts
        for k in range(2 * messages):
            sender, receiver = (judge, witness) if k % 2 == 0 else (witness, judge)
            text = f"bench {i} {k} {sender.name} asks: are you human?"
            frame = {"type": "message", "text": text}
            if sender is judge:
                frame["side"] = side
            result = await deliver(sender, receiver, frame, "message", text)
            if result is None:
                lost += 1
            else:
                elapsed, sent_wall, arrived_wall, at = result
                latency.append(elapsed)
                if at is not None:
                    ingress.append(at - sent_wall)
                    egress.append(arrived_wall - at)
            done += 1
            await asyncio.sleep(pause_s * random.uniform(0.5, 1.5))
        # Typing signals, confederate -> judge: websocket, consumer, thread hop and a push through
        # Redis, but no database write: the path without message_post's transaction.
        for _ in range(typing_rounds):
            result = await deliver(witness, judge, {"type": "typing"}, "typing", None)
            if result is not None:
                typing.append(result[0])
            await asyncio.sleep(pause_s * random.uniform(0.5, 1.5))

    async def progress():
        while True:
            await asyncio.sleep(2)
            log(f"chat: {done}/{total} messages delivered, {lost} lost")

    reporter = asyncio.create_task(progress())
    started = time.perf_counter()
    try:
        await asyncio.gather(*(conversation(i, j, w, item["side"])
                               for i, ((j, w), item) in enumerate(zip(pairs, plan))))
    finally:
        reporter.cancel()
        elapsed = time.perf_counter() - started
        await asyncio.gather(*(party.close() for both in pairs for party in both), return_exceptions=True)
    return {"latency": latency, "ingress": ingress, "egress": egress, "typing": typing, "lost": lost,
            "errors": errors, "elapsed_s": elapsed, "rate": len(latency) / elapsed if elapsed else 0.0}


async def baseline_phase(conversations: int, rounds: int, pause_s: float, timeout_s: float) -> dict:
    """Bare channel layer: group_send to a one-member group, then receive it; same concurrency and pacing."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    samples: list[float] = []
    lost = 0

    async def pair(i: int):
        nonlocal lost
        channel = await layer.new_channel()
        group = f"bench.baseline.{i}"
        await layer.group_add(group, channel)
        await asyncio.sleep(random.uniform(0, pause_s))
        for k in range(rounds):
            started = time.perf_counter()
            await layer.group_send(group, {"type": "arena.event", "payload": {"type": "message", "seq": k}})
            try:
                await asyncio.wait_for(layer.receive(channel), timeout_s)
            except asyncio.TimeoutError:
                lost += 1
                continue
            samples.append(time.perf_counter() - started)
            await asyncio.sleep(pause_s * random.uniform(0.5, 1.5))
        await layer.group_discard(group, channel)

    started = time.perf_counter()
    await asyncio.gather(*(pair(i) for i in range(conversations)))
    return {"latency": samples, "lost": lost, "elapsed_s": time.perf_counter() - started}


async def measure(args, base: str, plan: list[dict]) -> tuple[dict, dict]:
    """Baseline in two halves, before and after the chat, so both see the same (noisy) machine."""
    from channels.layers import get_channel_layer

    pause_s = args.pause_ms / 1000.0
    halves = [(args.messages + 1) // 2, args.messages // 2]
    baseline = {"latency": [], "lost": 0, "elapsed_s": 0.0}

    async def run_baseline(rounds: int, when: str):
        if rounds <= 0:
            return
        log(f"baseline ({when}): {args.conversations} concurrent bare channel-layer round trips x {rounds}")
        half = await baseline_phase(args.conversations, rounds, pause_s, args.message_timeout)
        baseline["latency"] += half["latency"]
        baseline["lost"] += half["lost"]
        baseline["elapsed_s"] += half["elapsed_s"]

    await run_baseline(halves[0], "before")
    log(f"chat: {args.conversations} conversations x {2 * args.messages} messages through {base}")
    chat = await chat_phase(base, plan, args.messages, pause_s, args.message_timeout, args.typing)
    log(f"chat done in {chat['elapsed_s']:.1f} s")
    await run_baseline(halves[1], "after")
    await get_channel_layer().close_pools()
    baseline["rate"] = len(baseline["latency"]) / baseline["elapsed_s"] if baseline["elapsed_s"] else 0.0
    return baseline, chat


def report(args, baseline: dict, chat: dict, note: str | None) -> dict:
    lat, base = summary(chat["latency"]), summary(baseline["latency"])
    print(f"chat latency: {args.conversations} conversations, {args.messages} messages per party, "
          f"pause {args.pause_ms:.0f} ms (x0.5-1.5), {chat['rate']:.0f} msg/s delivered")
    print(f"  message delivery (send -> other party)     {fmt(lat)}")
    if chat["ingress"]:
        print(f"    of which send -> stored (created_at)     {fmt(summary(chat['ingress']))}")
        print(f"    of which stored -> other party's socket  {fmt(summary(chat['egress']))}")
    if chat["typing"]:
        print(f"  typing signal (no DB write)                 {fmt(summary(chat['typing']))}")
    print(f"  baseline: bare group_send -> receive        {fmt(base)}  ({baseline['rate']:.0f}/s)")
    ratio = lat["p99"] / base["p99"] if base["p99"] > 0 else float("inf")
    print(f"  load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())} (1/5/15 min), {os.cpu_count()} CPUs")
    print(f"  p99 ratio {ratio:.2f} (target <= 2); lost {chat['lost']} messages, {baseline['lost']} baseline; "
          f"{len(chat['errors'])} errors")
    for error in chat["errors"][:5]:
        print(f"    error: {error}")
    if note:
        print(f"  note: {note}")
    return {
        "p50_ms": round(lat["p50"], 3),
        "p99_ms": round(lat["p99"], 3),
        "baseline_p99_ms": round(base["p99"], 3),
        "ratio": round(ratio, 3),
        "baseline_p50_ms": round(base["p50"], 3),
        "conversations": args.conversations,
        "messages": len(chat["latency"]),
        "lost": chat["lost"],
        "errors": len(chat["errors"]),
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=50, help="concurrent conversations (default 50)")
    parser.add_argument("--messages", type=int, default=20, help="messages each party sends (default 20)")
    parser.add_argument("--pause-ms", type=float, default=500.0,
                        help="pause after a delivery before the next send in a conversation, jittered x0.5-1.5 "
                             "(default 500): bounds the offered rate to conversations/pause (100 msg/s at 50)")
    parser.add_argument("--typing", type=int, default=0, metavar="N",
                        help="also time N typing signals per conversation (the path without a DB write)")
    parser.add_argument("--port", type=int, default=0, help="daphne's port (default 0: a free one)")
    parser.add_argument("--message-timeout", type=float, default=10.0, help="a message not delivered in this many "
                        "seconds counts as lost (default 10)")
    parser.add_argument("--time-limit", type=float, default=600.0, help="stop the whole run after this many seconds")
    parser.add_argument("--as-configured", action="store_true",
                        help="keep the channel layer's Redis socket timeout exactly as configured (see the note)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the daphne child
    args = parser.parse_args(argv)
    if args.conversations < 1 or args.messages < 1 or args.pause_ms < 0 or args.typing < 0:
        parser.error("--conversations and --messages must be at least 1, --pause-ms and --typing not negative")
    return args


def run(args) -> dict:
    server_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    prefix = f"arena-bench-{os.getpid()}-{secrets.token_hex(3)}:"
    check_redis(redis_url)
    database = Throwaway(server_url)
    daphne = None
    try:
        log(f"database {database.name} on {urlsplit(server_url).hostname}; channel prefix {prefix!r} on {redis_url}")
        database.create()
        os.environ.update(bench_env(database.url, redis_url, prefix))
        if args.as_configured:
            os.environ[AS_CONFIGURED_ENV] = "1"
        else:
            os.environ.pop(AS_CONFIGURED_ENV, None)
        note = setup_django()
        if note:
            log("note: " + note)
        started = time.perf_counter()
        migrate()
        log(f"migrated in {time.perf_counter() - started:.1f} s")
        plan = create_conversations(args.conversations)
        from django.db import connections

        connections.close_all()
        daphne = Daphne(args.port, dict(os.environ))
        daphne.start()
        base = f"ws://127.0.0.1:{daphne.port}"
        log(f"daphne (pid {daphne.process.pid}) listening on 127.0.0.1:{daphne.port}")

        async def bounded():
            return await asyncio.wait_for(measure(args, base, plan), args.time_limit)

        try:
            baseline, chat = asyncio.run(bounded())
        except asyncio.TimeoutError:
            raise BenchError(f"the run passed --time-limit {args.time_limit:.0f} s") from None
        if not chat["latency"]:
            raise BenchError(f"no message was delivered; daphne's log:\n{daphne.tail()}")
        return report(args, baseline, chat, note)
    except BaseException:
        if daphne is not None and daphne.tail():
            log("daphne's log (last lines):\n" + daphne.tail())
        raise
    finally:
        if daphne is not None:
            daphne.stop()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        try:
            database.drop()
            deleted = delete_prefix(redis_url, prefix)
            log(f"cleaned up: dropped {database.name}, deleted {deleted} Redis keys")
        except Exception as exc:  # report, but do not hide the run's own outcome
            log(f"cleanup failed: {exc}")


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.serve:
        serve(args.port)
        return 0

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    try:
        result = run(args)
    except BenchError as exc:
        print(f"chat_latency: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("chat_latency: interrupted", file=sys.stderr)
        return 130
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
