"""Live chat latency: N concurrent conversations through daphne and the Redis channel layer.

    .venv/bin/python -m bench.chat_latency [--conversations 50] [--messages 20] [--pause-ms 500] [--port 0]

Services mode only: PostgreSQL and Redis must be reachable (DATABASE_URL, default
postgres://root@127.0.0.1:5432/postgres; REDIS_URL, default redis://127.0.0.1:6379/0).  The run
creates its own database `arena_bench_<pid>` on that server (migrated, dropped at the end), uses its
own channel-layer prefix on that Redis (keys deleted at the end), and starts daphne on a free port
(or --port) in a child process.  Nothing outside 127.0.0.1 is touched; cleanup also runs on Ctrl-C.
That set-up is bench/harness.py's, shared with the other benchmarks.

Each conversation is a one-to-one interrogation whose witness is a human confederate, set up with the
project's own services; the judge and the confederate each hold a websocket (session cookie of a
logged-in user).  The two sides take turns: a message is sent, the other party's socket receives it
(send -> JudgeConsumer/WitnessConsumer -> message_post stores it -> on commit, group_send through
Redis -> the other consumer -> its socket), then after a jittered pause (--pause-ms) the other side
answers.  Each party sends --messages messages, so a conversation makes 2 x --messages deliveries.

Baselines, measured in the same run against the same PostgreSQL and Redis with the same concurrency
and pacing (each in two halves, before and after the platform's chat, so all see the same machine):
- bare: a channel-layer round trip (group_send to a one-member group, receive on that channel), what
  a push costs with no websocket, consumer or database in the way;
- floor: the same round trip preceded by the durable write every chat message needs, one single-row
  INSERT committed (autocommit: one round trip, PostgreSQL's commit as configured) into a one-table
  scratch table of the run's database, through a persistent psycopg connection per conversation, run
  on the event loop's thread pool as a consumer's database call is (no ORM, no websocket, no
  consumer): the least any chat that stores its messages can cost.  Target: p99 <= 1.5 x floor;
- tutorial: what most people would build, the Channels tutorial's async chat consumer
  (bench/tutorial: group_send to the room on receive, chat_message to the socket) with one ORM save()
  per message, served by the same daphne at /ws/chat/<room>/ and driven exactly like the platform's
  conversations (two sockets per room taking turns).  Target: p99 <= 0.5 x tutorial.
CPU per delivery beside each: daphne's for the platform and the tutorial (user + system of all its
threads), this process's for the bare round trip and the floor (they run here, both ends included).
The targets are printed, never enforced.

Also printed: the delivery split at the message's stored `created_at` (send -> stored, stored -> other
socket; same machine, same clock) and, with --typing N, typing signals (the path with no DB write).

Progress goes to stderr, a human-readable summary to stdout, and the LAST line is one JSON object:
{"p50_ms": ..., "p99_ms": ..., "baseline_p99_ms": ..., "ratio": p99_ms / baseline_p99_ms,
 "floor_p99_ms": ..., "floor_ratio": p99_ms / floor_p99_ms, "tutorial_p99_ms": ...,
 "tutorial_ratio": p99_ms / tutorial_p99_ms, "daphne_cpu_ms_per_delivery": ...,
 "floor_cpu_ms_per_delivery": ..., "tutorial_daphne_cpu_ms_per_delivery": ..., ...}.

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
import sys
import time
from datetime import datetime
from pathlib import Path

from bench import harness, results
from bench import tracing as trace
from bench.harness import BenchError, fmt, summary

log = harness.logger("chat_latency")
FLOOR_TARGET = 1.5  # platform p99 <= 1.5 x the floor's
TUTORIAL_TARGET = 0.5  # platform p99 <= 0.5 x the tutorial's
FLOOR_TABLE = "bench_floor"


# --- data, through the project's services ---------------------------------------------------------
def create_conversations(n: int) -> list[dict]:
    """n running one-to-one interrogations, each with its own judge and human confederate."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from arena import roles, services
    from arena.setup import ensure_role_groups

    ensure_role_groups()
    User = get_user_model()
    judges_group = Group.objects.get(name=roles.JUDGE)
    confederates_group = Group.objects.get(name=roles.CONFEDERATE)

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
        plan.append(
            {
                "judge_path": f"/ws/judge/{interrogation.public_id}/",
                "witness_path": f"/ws/witness/{conversation.public_id}/",
                "judge_cookie": harness.session_cookie(judge),
                "witness_cookie": harness.session_cookie(confederate),
                "side": conversation.side,
            }
        )
    return plan


def tutorial_rooms(n: int) -> list[dict]:
    """n rooms of the tutorial's chat, two anonymous sockets each (the tutorial asks no login)."""
    return [
        {
            "judge_path": f"/ws/chat/bench{i}/",
            "witness_path": f"/ws/chat/bench{i}/",
            "judge_cookie": None,
            "witness_cookie": None,
            "side": None,
        }
        for i in range(n)
    ]


class Platform:
    """The platform's consoles: the running state on connect, `{"type": "message", "text"}` frames."""

    greeted = True

    @staticmethod
    def frame(text: str, side: str | None) -> dict:
        return {"type": "message", "text": text, **({"side": side} if side else {})}


class Tutorial:
    """The tutorial's chat: nothing on connect, `{"message"}` frames both ways (echoed to the sender too)."""

    greeted = False

    @staticmethod
    def frame(text: str, side: str | None) -> dict:
        return {"message": text}


class Floor:
    """The floor's durable write: one single-row INSERT committed, through a persistent psycopg
    connection per conversation (autocommit: one round trip), run on the event loop's default
    thread pool, where database_sync_to_async(thread_sensitive=False) runs a consumer's calls."""

    INSERT = f"INSERT INTO {FLOOR_TABLE} (room, seq, text) VALUES (%s, %s, %s)"

    def __init__(self, conninfo: dict):
        self.conninfo = conninfo
        self.connections: dict = {}

    @staticmethod
    def create_table() -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                f"CREATE TABLE {FLOOR_TABLE} (id bigserial PRIMARY KEY, room integer NOT NULL, "
                "seq integer NOT NULL, text text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"
            )

    def open(self, n: int) -> None:
        import psycopg

        for i in range(n):
            self.connections[i] = psycopg.connect(**self.conninfo, autocommit=True)

    def close(self) -> None:
        for conn in self.connections.values():
            conn.close()
        self.connections.clear()

    async def write(self, pair: int, k: int) -> None:
        await asyncio.to_thread(
            self.connections[pair].execute, self.INSERT, (pair, k, f"bench {pair} {k}: are you human?")
        )


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
                kind = frame.get("type", "message")  # the tutorial's frames: {"message": text}
                if kind == "error":
                    self.errors.append(f"{self.name}: {frame.get('code')}: {frame.get('message')}")
                    continue
                if self.expected is None or kind != self.expected[0] or frame.get("from") == "you":
                    continue
                _, text, future = self.expected
                if text is not None and frame.get("text", frame.get("message")) != text:
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


def per_delivery_ms(cpu_s: float | None, deliveries: int) -> float | None:
    return round(cpu_s * 1000.0 / deliveries, 3) if cpu_s is not None and deliveries else None


async def open_socket(base: str, path: str, cookie: str | None, name: str, errors: list, protocol=Platform) -> Party:
    return Party(name, await harness.open_websocket(base, path, cookie, name, greeted=protocol.greeted), errors)


async def chat_phase(
    base: str,
    plan: list[dict],
    messages: int,
    pause_s: float,
    timeout_s: float,
    typing_rounds: int,
    cpu_s=lambda: None,
    protocol=Platform,
    label: str = "chat",
    stamps: dict | None = None,
) -> dict:
    """Each conversation's two sockets take turns, `messages` each, pausing after each delivery."""
    errors: list[str] = []
    gate = asyncio.Semaphore(10)

    async def pair(i: int, item: dict):
        async with gate:
            judge = await open_socket(
                base, item["judge_path"], item["judge_cookie"], f"{label} judge-{i}", errors, protocol
            )
            witness = await open_socket(
                base, item["witness_path"], item["witness_cookie"], f"{label} witness-{i}", errors, protocol
            )
        return judge, witness

    started = time.perf_counter()
    pairs = await asyncio.gather(*(pair(i, item) for i, item in enumerate(plan)))
    log(f"{label}: {2 * len(pairs)} websockets open in {time.perf_counter() - started:.1f} s")

    latency: list[float] = []
    ingress: list[float] = []  # client send -> the message's created_at (server clock, same machine)
    egress: list[float] = []  # created_at -> the other party's socket
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
        except TimeoutError:
            receiver.expected = None
            return None
        if stamps is not None and text is not None:
            stamps[text] = {"client_sent": sent, "client_arrived": arrived}
        return arrived - sent, sent_wall, arrived_wall, at

    async def conversation(i: int, judge: Party, witness: Party, side: str):
        nonlocal lost, done
        await asyncio.sleep(random.uniform(0, pause_s))  # stagger the starts
        for k in range(2 * messages):
            sender, receiver = (judge, witness) if k % 2 == 0 else (witness, judge)
            text = f"bench {i} {k} {sender.name} asks: are you human?"
            frame = protocol.frame(text, side if sender is judge else None)
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
            log(f"{label}: {done}/{total} messages delivered, {lost} lost")

    reporter = asyncio.create_task(progress())
    cpu_started = cpu_s()  # daphne's CPU from here on: the exchange, not the sockets' opening
    started = time.perf_counter()
    try:
        await asyncio.gather(
            *(conversation(i, j, w, item["side"]) for i, ((j, w), item) in enumerate(zip(pairs, plan)))
        )
    finally:
        reporter.cancel()
        elapsed = time.perf_counter() - started
        cpu_ended = cpu_s()
        await asyncio.gather(*(party.close() for both in pairs for party in both), return_exceptions=True)
    deliveries = len(latency) + len(typing)
    daphne_cpu_s = cpu_ended - cpu_started if cpu_started is not None and cpu_ended is not None else None
    daphne_cpu_ms = per_delivery_ms(daphne_cpu_s, deliveries)
    return {
        "daphne_cpu_ms": daphne_cpu_ms,
        "daphne_cpu_s": daphne_cpu_s,
        "latency": latency,
        "ingress": ingress,
        "egress": egress,
        "typing": typing,
        "lost": lost,
        "errors": errors,
        "elapsed_s": elapsed,
        "rate": len(latency) / elapsed if elapsed else 0.0,
        "stamps": stamps,
    }


def merge(total: dict, part: dict) -> None:
    """Add a phase's half to its total: samples, losses, time, CPU, errors."""
    for key, value in part.items():
        if isinstance(value, (list, int, float)) and not isinstance(value, bool):
            total[key] = total.get(key, type(value)()) + value


async def measure(args, base: str, plan: list[dict], services, floor: Floor) -> dict:
    """The platform's chat between the baselines' two halves (bare, floor, tutorial before it, the
    same in reverse after it), so that all see the same (noisy) machine, at the same pacing."""
    pause_s = args.pause_ms / 1000.0

    def jitter() -> float:
        return pause_s * random.uniform(0.5, 1.5)

    rooms = tutorial_rooms(args.conversations)
    phases = {"bare": {}, "floor": {}, "tutorial": {}}

    async def bare(rounds: int):
        merge(
            phases["bare"],
            await harness.baseline_phase(args.conversations, rounds, jitter, pause_s, args.message_timeout),
        )

    async def durable(rounds: int):
        await asyncio.to_thread(floor.open, args.conversations)
        try:
            merge(
                phases["floor"],
                await harness.baseline_phase(
                    args.conversations, rounds, jitter, pause_s, args.message_timeout, write=floor.write
                ),
            )
        finally:
            floor.close()

    async def tutorial(rounds: int):
        merge(
            phases["tutorial"],
            await chat_phase(
                base,
                rooms,
                rounds,
                pause_s,
                args.message_timeout,
                0,
                cpu_s=services.daphne_cpu_s,
                protocol=Tutorial,
                label="tutorial",
            ),
        )

    baselines = (
        ("bare channel-layer round trips", bare),
        ("floor: INSERT + round trip", durable),
        ("tutorial chat", tutorial),
    )

    async def half(rounds: int, when: str, order):
        if rounds <= 0:
            return
        for name, phase in order:
            log(f"baseline ({when}): {args.conversations} concurrent {name} x {rounds}")
            await phase(rounds)

    halves = [(args.messages + 1) // 2, args.messages // 2]
    await half(halves[0], "before", baselines)
    log(f"chat: {args.conversations} conversations x {2 * args.messages} messages through {base}")
    chat = await chat_phase(
        base,
        plan,
        args.messages,
        pause_s,
        args.message_timeout,
        args.typing,
        cpu_s=services.daphne_cpu_s,
        stamps={} if args.trace else None,
    )
    log(f"chat done in {chat['elapsed_s']:.1f} s")
    await half(halves[1], "after", baselines[::-1])
    await harness.close_layer_pools()
    for phase in phases.values():
        phase["rate"] = len(phase["latency"]) / phase["elapsed_s"] if phase["elapsed_s"] else 0.0
    return {"chat": chat, **phases}


def report(args, figures: dict, note: str | None) -> dict:
    chat, bare, floor, tutorial = figures["chat"], figures["bare"], figures["floor"], figures["tutorial"]
    lat, base = summary(chat["latency"]), summary(bare["latency"])
    low, tut = summary(floor["latency"]), summary(tutorial["latency"])
    # daphne's CPU per delivery: chat_phase's, typing signals included; the tutorial's over its halves
    tutorial_cpu_ms = per_delivery_ms(tutorial.get("daphne_cpu_s"), len(tutorial["latency"]))
    floor_cpu_ms = per_delivery_ms(floor["cpu_s"], len(floor["latency"]))
    bare_cpu_ms = per_delivery_ms(bare["cpu_s"], len(bare["latency"]))

    def ratio(over: dict) -> float:
        return lat["p99"] / over["p99"] if over["p99"] > 0 else float("inf")

    print(
        f"chat latency: {args.conversations} conversations, {args.messages} messages per party, "
        f"pause {args.pause_ms:.0f} ms (x0.5-1.5), {chat['rate']:.0f} msg/s delivered"
    )
    print(f"  message delivery (send -> other party)     {fmt(lat)}")
    if chat["ingress"]:
        print(f"    of which send -> stored (created_at)     {fmt(summary(chat['ingress']))}")
        print(f"    of which stored -> other party's socket  {fmt(summary(chat['egress']))}")
    if chat["typing"]:
        print(f"  typing signal (no DB write)                 {fmt(summary(chat['typing']))}")
    print(f"  baseline: bare group_send -> receive        {fmt(base)}  ({bare['rate']:.0f}/s)")
    print(f"  floor: INSERT + commit, group_send -> recv  {fmt(low)}  ({floor['rate']:.0f}/s)")
    print(f"  tutorial chat, one ORM save() per message   {fmt(tut)}  ({tutorial['rate']:.0f}/s)")
    cpu = [
        ("platform, daphne", chat["daphne_cpu_ms"]),
        ("tutorial, daphne", tutorial_cpu_ms),
        ("floor, this process", floor_cpu_ms),
        ("bare, this process", bare_cpu_ms),
    ]
    print(
        "  CPU per delivery (user + system, all threads): "
        + "; ".join(f"{name} {value:.2f} ms" for name, value in cpu if value is not None)
    )
    print(f"  {harness.load_line()}")
    print(
        f"  p99 ratios: {ratio(low):.2f} x floor (target <= {FLOOR_TARGET:g}), {ratio(tut):.2f} x tutorial "
        f"(target <= {TUTORIAL_TARGET:g}), {ratio(base):.2f} x bare round trip"
    )
    errors = chat["errors"] + tutorial["errors"]
    print(
        f"  lost {chat['lost']} messages; baselines lost {bare['lost']} bare, {floor['lost']} floor, "
        f"{tutorial['lost']} tutorial; {len(errors)} errors"
    )
    for error in errors[:5]:
        print(f"    error: {error}")
    if note:
        print(f"  note: {note}")
    return {
        "p50_ms": round(lat["p50"], 3),
        "p99_ms": round(lat["p99"], 3),
        "baseline_p99_ms": round(base["p99"], 3),
        "ratio": round(ratio(base), 3),
        "baseline_p50_ms": round(base["p50"], 3),
        "floor_p50_ms": round(low["p50"], 3),
        "floor_p99_ms": round(low["p99"], 3),
        "floor_ratio": round(ratio(low), 3),
        "floor_target": FLOOR_TARGET,
        "tutorial_p50_ms": round(tut["p50"], 3),
        "tutorial_p99_ms": round(tut["p99"], 3),
        "tutorial_ratio": round(ratio(tut), 3),
        "tutorial_target": TUTORIAL_TARGET,
        "conversations": args.conversations,
        "messages": len(chat["latency"]),
        "lost": chat["lost"],
        "errors": len(chat["errors"]),
        "floor_messages": len(floor["latency"]),
        "floor_lost": floor["lost"],
        "tutorial_messages": len(tutorial["latency"]),
        "tutorial_lost": tutorial["lost"],
        "tutorial_errors": len(tutorial["errors"]),
        "daphne_cpu_ms_per_delivery": chat["daphne_cpu_ms"],
        "tutorial_daphne_cpu_ms_per_delivery": tutorial_cpu_ms,
        "floor_cpu_ms_per_delivery": floor_cpu_ms,
        "baseline_cpu_ms_per_delivery": bare_cpu_ms,
        "rows_stored": figures["rows"],
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=50, help="concurrent conversations (default 50)")
    parser.add_argument("--messages", type=int, default=20, help="messages each party sends (default 20)")
    parser.add_argument(
        "--pause-ms",
        type=float,
        default=500.0,
        help="pause after a delivery before the next send in a conversation, jittered x0.5-1.5 "
        "(default 500): bounds the offered rate to conversations/pause (100 msg/s at 50)",
    )
    parser.add_argument(
        "--typing",
        type=int,
        default=0,
        metavar="N",
        help="also time N typing signals per conversation (the path without a DB write)",
    )
    parser.add_argument("--port", type=int, default=0, help="daphne's port (default 0: a free one)")
    parser.add_argument(
        "--message-timeout",
        type=float,
        default=10.0,
        help="a message not delivered in this many seconds counts as lost (default 10)",
    )
    parser.add_argument("--time-limit", type=float, default=600.0, help="stop the whole run after this many seconds")
    parser.add_argument(
        "--as-configured",
        action="store_true",
        help="keep the channel layer's Redis socket timeout exactly as configured (see the note)",
    )
    parser.add_argument(
        "--trace",
        type=Path,
        default=None,
        metavar="FILE",
        help="time-stamp each platform message along its path in daphne (bench/tracing) and "
        "print where the time goes; daphne's stamps are written to FILE",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="FILE",
        help="a CPU profile (cProfile, thread CPU time) of every daphne thread, written to FILE",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the daphne child
    args = results.add_options(parser).parse_args(argv)
    if args.conversations < 1 or args.messages < 1 or args.pause_ms < 0 or args.typing < 0:
        parser.error("--conversations and --messages must be at least 1, --pause-ms and --typing not negative")
    return args


def stored_rows() -> dict:
    """Rows each durable path wrote (the proof that its write was measured, not skipped)."""
    from django.db import connection

    from arena.models import Message
    from bench.tutorial.models import ChatMessage

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {FLOOR_TABLE}")
        floor = cursor.fetchone()[0]
    return {"platform": Message.objects.count(), "floor": floor, "tutorial": ChatMessage.objects.count()}


def run(args) -> dict:
    for switch, value in ((trace.TRACE_ENV, args.trace), (trace.PROFILE_ENV, args.profile)):
        if value:  # read by bench/asgi.py in the daphne child
            os.environ[switch] = str(value.resolve())
    with harness.Services("chat_latency", port=args.port, as_configured=args.as_configured) as services:
        plan = create_conversations(args.conversations)
        Floor.create_table()
        floor = Floor(harness.pg_conninfo(services.database.url))
        base = services.start_daphne()

        async def bounded():
            return await asyncio.wait_for(measure(args, base, plan, services, floor), args.time_limit)

        try:
            figures = asyncio.run(bounded())
        except TimeoutError:
            raise BenchError(f"the run passed --time-limit {args.time_limit:.0f} s") from None
        finally:
            floor.close()
        figures["rows"] = stored_rows()
        for name, phase in (
            ("the platform's chat", figures["chat"]),
            ("the floor", figures["floor"]),
            ("the tutorial's chat", figures["tutorial"]),
        ):
            if not phase["latency"]:
                raise BenchError(f"no message was delivered in {name}; daphne's log:\n{services.tail()}")
        result = report(args, figures, services.note)
    if args.trace:  # daphne wrote its stamps when it exited
        print("  where a message's time goes (consecutive stamps, ms; bench/tracing):")
        for line in trace.stages(json.loads(args.trace.read_text()), figures["chat"]["stamps"]):
            print(line)
    return result


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.serve:
        harness.serve(args.port)
        return 0
    return harness.main("chat_latency", lambda: run(args), args, argv)


if __name__ == "__main__":
    sys.exit(main())
