"""Live chat latency: N concurrent conversations through daphne and the Redis channel layer.

    .venv/bin/python bench/chat_latency.py [--conversations 50] [--messages 20] [--port 0]

Services mode only: PostgreSQL and Redis must be reachable (DATABASE_URL, default
postgres://root@127.0.0.1:5432/postgres; REDIS_URL, default redis://127.0.0.1:6379/0).  The run
creates its own database `arena_bench_<pid>` on that server (migrated, dropped at the end), uses its
own channel-layer prefix on that Redis (keys deleted at the end), and starts daphne on a free port
(or --port) in a child process.  Nothing outside 127.0.0.1 is touched; cleanup also runs on Ctrl-C.
That set-up is bench/harness.py's, shared with bench/lpp_latency.py.

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
import random
import sys
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import harness  # noqa: E402
from bench.harness import BenchError, fmt, summary  # noqa: E402

log = harness.logger("chat_latency")


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
        plan.append({
            "judge_path": f"/ws/judge/{interrogation.public_id}/",
            "witness_path": f"/ws/witness/{conversation.public_id}/",
            "judge_cookie": harness.session_cookie(judge),
            "witness_cookie": harness.session_cookie(confederate),
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
    return Party(name, await harness.open_websocket(base, path, cookie, name), errors)


async def chat_phase(base: str, plan: list[dict], messages: int, pause_s: float, timeout_s: float,
                     typing_rounds: int, cpu_s=lambda: None) -> dict:
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
    cpu_started = cpu_s()  # daphne's CPU from here on: the exchange, not the sockets' opening
    started = time.perf_counter()
    try:
        await asyncio.gather(*(conversation(i, j, w, item["side"])
                               for i, ((j, w), item) in enumerate(zip(pairs, plan))))
    finally:
        reporter.cancel()
        elapsed = time.perf_counter() - started
        cpu_ended = cpu_s()
        await asyncio.gather(*(party.close() for both in pairs for party in both), return_exceptions=True)
    deliveries = len(latency) + len(typing)
    if cpu_started is not None and cpu_ended is not None and deliveries:
        daphne_cpu_ms = (cpu_ended - cpu_started) * 1000.0 / deliveries
    else:
        daphne_cpu_ms = None
    return {"daphne_cpu_ms": daphne_cpu_ms, "latency": latency, "ingress": ingress, "egress": egress,
            "typing": typing, "lost": lost,
            "errors": errors, "elapsed_s": elapsed, "rate": len(latency) / elapsed if elapsed else 0.0}


async def baseline_phase(conversations: int, rounds: int, pause_s: float, timeout_s: float) -> dict:
    """Bare channel layer: group_send to a one-member group, then receive it; same concurrency and pacing."""
    return await harness.baseline_phase(conversations, rounds, lambda: pause_s * random.uniform(0.5, 1.5),
                                        pause_s, timeout_s)


async def measure(args, base: str, plan: list[dict], services) -> tuple[dict, dict]:
    """Baseline in two halves, before and after the chat, so both see the same (noisy) machine."""
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
    chat = await chat_phase(base, plan, args.messages, pause_s, args.message_timeout, args.typing,
                            cpu_s=services.daphne_cpu_s)
    log(f"chat done in {chat['elapsed_s']:.1f} s")
    await run_baseline(halves[1], "after")
    await harness.close_layer_pools()
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
    if chat["daphne_cpu_ms"] is not None:
        print(f"  daphne CPU per delivery: {chat['daphne_cpu_ms']:.2f} ms (user + system, all its threads)")
    ratio = lat["p99"] / base["p99"] if base["p99"] > 0 else float("inf")
    print(f"  {harness.load_line()}")
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
        "daphne_cpu_ms_per_delivery": round(chat["daphne_cpu_ms"], 3) if chat["daphne_cpu_ms"] is not None else None,
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
    with harness.Services("chat_latency", port=args.port, as_configured=args.as_configured) as services:
        plan = create_conversations(args.conversations)
        base = services.start_daphne()

        async def bounded():
            return await asyncio.wait_for(measure(args, base, plan, services), args.time_limit)

        try:
            baseline, chat = asyncio.run(bounded())
        except asyncio.TimeoutError:
            raise BenchError(f"the run passed --time-limit {args.time_limit:.0f} s") from None
        if not chat["latency"]:
            raise BenchError(f"no message was delivered; daphne's log:\n{services.tail()}")
        return report(args, baseline, chat, services.note)


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.serve:
        harness.serve(args.port)
        return 0
    return harness.main("chat_latency", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
