"""Soak: mixed traffic for a long time, resources sampled every minute; they must stay flat.

    .venv/bin/python -m bench.soak [--minutes 30] [--conversations 8] [--machines 4] [--bettors 4]
                                   [--pause-ms 1000] [--trade-pause-ms 500] [--reconnect-every 20]
                                   [--sample-s 60] [--port 0] [--round-minutes 0]
                                   [--memdiag PATH [--memdiag-s 60] [--tracemalloc]] [--malloc-arena-max N]

Services mode only (PostgreSQL and Redis, as bench/harness.py finds them: the run's own database
`arena_bench_<pid>`, its own Redis key prefix, both removed at the end).  The harness starts daphne and
one Celery worker (prefork, `-Q celery,bots`, tasks sent to the broker for real); this process drives
them over websockets, as people's pages would, for --minutes:
- --conversations one-to-one interrogations of a human confederate: the judge and the confederate
  take turns, each message awaited on the other party's socket, --pause-ms between turns;
- --machines one-to-one interrogations of a machine witness (the `simple` engine, no typing delay):
  each judge message is answered by the bot through the Celery worker (bot_reply, then bot_deliver);
- --bettors Turing Trade bettors in one running game, each buying then selling the human security, one
  trade at a time, each awaited as its price push (or an error frame), --trade-pause-ms between;
- every socket is closed and opened again (a page reload) every --reconnect-every turns, so that
  connecting and disconnecting are soaked too;
- with --round-minutes M, each conversation moves on to a new one (a contest's next round: same judge,
  same witness) at its first reload after M minutes; without it a conversation lasts the whole run, and
  the state a reloading page is sent (its whole transcript) grows with it.

--memdiag PATH makes daphne sample its own memory into PATH (bench._memdiag: RSS, malloc's and pymalloc's
accounting, live objects by type, per-channel state; --tracemalloc adds the source lines that allocated)
and prints a summary of it at the end; --malloc-arena-max N runs daphne with MALLOC_ARENA_MAX=N.

Every --sample-s seconds (shorter for short runs: at least 6 samples) it records
- `pg`: PostgreSQL backends on the run's database (pg_stat_activity; the sampler's own included);
- `redis`: the Redis connections of daphne and the worker (their TCP sockets to the Redis port), and
  `redis_all`, the Redis server's `connected_clients` (every client of that server: shared, noisy);
- `ws`: daphne's open client sockets (established TCP connections on its port);
- `daphne_mb`, `worker_mb`: resident memory (the worker's pool processes included);
- `daphne_fds`, `worker_fds`: open file descriptors.
At the end it prints the samples as a table, the least-squares slope of each (per minute, over the
samples after the first) and its drift over the run, and checks that nothing was lost: every message
sent was delivered to the other party and stored, every bot reply arrived once per judge message and
was stored, every trade acknowledged is in the ledger, and the ledger audits clean.  A resource is
`flat` when its drift over the run stays within max(absolute, relative x mean) (printed beside it);
the verdict is printed, not enforced.  The LAST line is JSON:
{"minutes", "samples", "messages_sent", "messages_delivered", "messages_stored", "bot_replies",
 "trades", "trades_stored", "lost", "violations", "errors", "slopes_per_min", "drift", "flat", ...}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

from bench import harness, results
from bench._soak_sampling import TOLERANCE, Sampler, flatness, table
from bench.harness import BenchError

log = harness.logger("soak")


# --- data, through the project's services ----------------------------------------------------------
def create_machine_conversations(n: int) -> list[dict]:
    """n running one-to-one interrogations of a `simple` machine witness that answers at once."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from arena import roles, services
    from arena.models import Entry
    from arena.setup import ensure_role_groups

    ensure_role_groups()
    entry = Entry.objects.create(
        display_name="Soak Simple", engine="simple", settings={"think_s": 0, "per_char_s": 0, "jitter": 0}
    )
    judges = Group.objects.get(name=roles.JUDGE)
    plan = []
    for i in range(n):
        judge = get_user_model().objects.create_user(username=f"soak-machine-judge-{i}")
        judge.groups.add(judges)
        interrogation = services.interrogation_create(
            judge=judge, witnesses=[entry], time_limit_s=24 * 3600, title=f"soak machine {i}"
        )
        services.interrogation_start(interrogation_id=interrogation.pk, by=judge)
        conversation = interrogation.conversations.get()
        plan.append(
            {
                "judge_path": f"/ws/judge/{interrogation.public_id}/",
                "judge_cookie": harness.session_cookie(judge),
                "side": conversation.side,
                "conversation": conversation.pk,
            }
        )
    return plan


def next_round(judge_path: str) -> dict:
    """A contest's next round: a new one-to-one interrogation of the same judge and witness, started
    (the one before is left idle). Its judge's path, its witness's path, its side and conversation."""
    from arena import services
    from arena.models import Interrogation

    before = Interrogation.objects.select_related("judge").get(public_id=judge_path.rstrip("/").rsplit("/", 1)[1])
    witnesses = [
        c.witness_human or c.witness_entry
        for c in before.conversations.select_related("witness_human", "witness_entry")
    ]
    interrogation = services.interrogation_create(
        judge=before.judge, witnesses=witnesses, time_limit_s=24 * 3600, title=before.title
    )
    services.interrogation_start(interrogation_id=interrogation.pk, by=before.judge)
    conversation = interrogation.conversations.get()
    return {
        "judge_path": f"/ws/judge/{interrogation.public_id}/",
        "witness_path": f"/ws/witness/{conversation.public_id}/",
        "side": conversation.side,
        "conversation": conversation.pk,
    }


async def round_over(item: dict, args, started: float, tally: dict) -> float:
    """With --round-minutes: once the round has lasted that long, `item` moves to the next round (a new
    conversation); returns when the current round started."""
    if not args.round_minutes or time.monotonic() - started < args.round_minutes * 60:
        return started
    item.update(await asyncio.to_thread(next_round, item["judge_path"]))
    tally["rounds"] += 1
    if "conversation" in item and "witness_cookie" not in item:
        tally["machine_conversations"].append(item["conversation"])
    return time.monotonic()


def create_bettors(n: int, minutes: float) -> tuple[int, list[dict]]:
    """One running Turing Trade game and n bettors in it: (game id, [{path, cookie}])."""
    from bench.markets import _bettor, _entry
    from markets import services

    users = [_bettor(f"soak-bettor-{i}") for i in range(n)]
    game = services.game_create(
        title="soak", entries=[_entry()], max_bettors=n + 1, starting_points=10**9, duration_s=int(minutes * 60) + 3600
    )
    services.game_open(game_id=game.pk)
    for user in users:
        services.game_join(game_id=game.pk, user=user)
    services.game_start(game_id=game.pk)
    return game.pk, [
        {"path": f"/ws/markets/{game.public_id}/bettor/", "cookie": harness.session_cookie(u)} for u in users
    ]


# --- websockets --------------------------------------------------------------------------------------
class Sock:
    """One websocket of a page; frames are matched against the one awaited at a time, the rest dropped
    (error frames are counted)."""

    def __init__(self, base: str, path: str, cookie: str, name: str, tally: dict):
        self.base, self.path, self.cookie, self.name, self.tally = base, path, cookie, name, tally
        self.ws = None
        self.state: dict = {}
        self.waiting: tuple | None = None
        self.reader = None

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            self.base + self.path,
            origin=harness.ORIGIN,
            additional_headers={"Cookie": f"sessionid={self.cookie}"},
            compression=None,
            open_timeout=30,
            ping_interval=None,
        )
        self.state = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
        if self.state.get("type") != "state":
            raise BenchError(f"{self.name}: expected the state on connect, got {str(self.state)[:200]}")
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                if frame.get("type") == "error":
                    self.tally["errors"].append(f"{self.name}: {frame.get('code')}: {frame.get('message')}")
                    if self.waiting and self.waiting[1] and not self.waiting[2].done():
                        self.waiting[2].set_result(frame)
                    continue
                if self.waiting and self.waiting[0](frame) and not self.waiting[2].done():
                    self.waiting[2].set_result(frame)
        except Exception:
            pass

    def expect(self, predicate, *, errors_too: bool = False) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self.waiting = (predicate, errors_too, future)
        return future

    async def send(self, frame: dict) -> None:
        await self.ws.send(json.dumps(frame))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
        self.ws = self.reader = None

    async def reopen(self, attempts: int = 3) -> None:
        """A page reload; one whose handshake fails (daphne drops a websocket not accepted within 5 s) is
        tried again, as a page's script does, after a second; each failure is counted."""
        from websockets.exceptions import InvalidHandshake

        await self.close()
        for attempt in range(attempts):
            try:
                await self.open()
                break
            except (TimeoutError, OSError, InvalidHandshake) as exc:
                self.tally["reconnect_failures"].append(f"{self.name}: {exc!r}")
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(1)
        self.tally["reconnects"] += 1


async def awaited(future: asyncio.Future, timeout: float):
    try:
        return await asyncio.wait_for(future, timeout)
    except TimeoutError:
        return None


async def counted(future: asyncio.Future, args, tally: dict, key: str, lost: str):
    """The awaited frame, counted under `key`; None (and `lost` noted) when it did not come in time."""
    frame = await awaited(future, args.timeout)
    if frame is None:
        tally["lost"].append(f"{lost} within {args.timeout:.0f} s")
    else:
        tally[key] += 1
    return frame


async def pause(ms: float) -> None:
    await asyncio.sleep(ms / 1000 * random.uniform(0.5, 1.5))


# --- the traffic -------------------------------------------------------------------------------------
async def human_chat(base, item, i, args, tally, stop):
    judge = Sock(base, item["judge_path"], item["judge_cookie"], f"judge {i}", tally)
    witness = Sock(base, item["witness_path"], item["witness_cookie"], f"confederate {i}", tally)
    await judge.open()
    await witness.open()
    turn, started = 0, time.monotonic()
    try:
        while not stop.is_set():
            turn += 1
            for sender, receiver, frame in ((judge, witness, {"side": item["side"]}), (witness, judge, {})):
                text = f"{sender.name} turn {turn} {random.random():.6f}"
                arrived = receiver.expect(lambda f, text=text: f.get("type") == "message" and f.get("text") == text)
                await sender.send({"type": "message", "text": text, **frame})
                tally["messages_sent"] += 1
                await counted(arrived, args, tally, "messages_delivered", f"{sender.name}: {text!r} not delivered")
                await pause(args.pause_ms)
            if args.reconnect_every and turn % args.reconnect_every == 0:
                started = await round_over(item, args, started, tally)
                judge.path, witness.path = item["judge_path"], item["witness_path"]
                await judge.reopen()
                await witness.reopen()
    finally:
        await judge.close()
        await witness.close()


async def machine_chat(base, item, i, args, tally, stop):
    judge = Sock(base, item["judge_path"], item["judge_cookie"], f"machine judge {i}", tally)
    await judge.open()
    turn, started = 0, time.monotonic()
    try:
        while not stop.is_set():
            turn += 1
            text = f"question {turn} to machine {i}?"
            reply = judge.expect(lambda f: f.get("type") == "message" and f.get("from") == "witness")
            await judge.send({"type": "message", "side": item["side"], "text": text})
            tally["judge_to_machine"] += 1
            await counted(reply, args, tally, "bot_replies", f"{judge.name}: no bot reply to {text!r}")
            await pause(args.pause_ms)
            if args.reconnect_every and turn % args.reconnect_every == 0:
                started = await round_over(item, args, started, tally)
                judge.path = item["judge_path"]
                await judge.reopen()
    finally:
        await judge.close()


async def bettor(base, item, i, args, tally, stop):
    sock = Sock(base, item["path"], item["cookie"], f"bettor {i}", tally)
    await sock.open()
    number = sock.state["me"]["number"]
    n = 0
    try:
        while not stop.is_set():
            action = "buy" if n % 2 == 0 else "sell"
            done = sock.expect(
                lambda f, number=number: f.get("type") == "price" and (f.get("trade") or {}).get("bettor") == number,
                errors_too=True,
            )
            await sock.send({"type": "trade", "action": action, "security": "H", "key": f"soak-{i}-{n}"})
            n += 1
            tally["trades_sent"] += 1
            frame = await awaited(done, args.timeout)
            if frame is None:
                tally["lost"].append(f"{sock.name}: trade {n} not acknowledged within {args.timeout:.0f} s")
            else:
                tally["trades_refused" if frame.get("type") == "error" else "trades"] += 1
            await pause(args.trade_pause_ms)
            if args.reconnect_every and n % args.reconnect_every == 0:
                await sock.reopen()
                number = sock.state["me"]["number"]
    finally:
        await sock.close()


async def soak(args, services, worker, base, humans, machines, bettors) -> dict:
    tally = {
        "messages_sent": 0,
        "messages_delivered": 0,
        "judge_to_machine": 0,
        "bot_replies": 0,
        "trades_sent": 0,
        "trades": 0,
        "trades_refused": 0,
        "reconnects": 0,
        "reconnect_failures": [],
        "lost": [],
        "errors": [],
        "rounds": 0,
        "machine_conversations": [m["conversation"] for m in machines],
    }
    stop = asyncio.Event()
    duration = args.minutes * 60
    interval = min(args.sample_s, max(2.0, duration / 6))
    sampler = Sampler(services, services.database.name, worker, tally)
    actors = (
        [human_chat(base, item, i, args, tally, stop) for i, item in enumerate(humans)]
        + [machine_chat(base, item, i, args, tally, stop) for i, item in enumerate(machines)]
        + [bettor(base, item, i, args, tally, stop) for i, item in enumerate(bettors)]
    )
    tasks = [asyncio.create_task(actor) for actor in actors]
    try:
        await asyncio.sleep(min(5.0, interval))  # every page connected, the first rounds made
        end = time.monotonic() + duration
        sampler.started = time.monotonic()
        await asyncio.to_thread(sampler.sample)
        sampler.samples[0]["min"] = 0.0
        while True:
            left = end - time.monotonic()
            if left <= 0:
                break
            await asyncio.sleep(min(interval, left))
            failed = [t for t in tasks if t.done() and t.exception() is not None]
            if failed:
                raise BenchError(f"a page's traffic failed: {failed[0].exception()!r}")
            await asyncio.to_thread(sampler.sample)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks), args.timeout + 60)
        await asyncio.sleep(2)  # the last pushes and writes settle
        await asyncio.to_thread(sampler.sample)  # every page closed (not one of the samples under load)
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        sampler.close()
    *tally["samples"], tally["after_close"] = sampler.samples
    return tally


def stored(machine_ids: list[int], game_id) -> dict:
    from django.db.models import Count, Q

    from arena.models import Conversation, Message
    from markets.models import Game, Trade
    from markets.selectors import ledger_audit

    human_ids = [c.pk for c in Conversation.objects.filter(witness_human__isnull=False)]
    per_machine = Conversation.objects.filter(pk__in=machine_ids).annotate(
        asked=Count("messages", filter=Q(messages__sender_role=Message.Role.INTERROGATOR)),
        answered=Count("messages", filter=Q(messages__sender_role=Message.Role.WITNESS)),
    )
    return {
        "messages_stored": Message.objects.filter(conversation_id__in=human_ids).count(),
        "judge_to_machine_stored": sum(c.asked for c in per_machine),
        "bot_replies_stored": sum(c.answered for c in per_machine),
        "unanswered_or_doubled": sum(abs(c.asked - c.answered) for c in per_machine),
        "trades_stored": Trade.objects.filter(game_id=game_id).count() if game_id else 0,
        "violations": ledger_audit(game=Game.objects.get(pk=game_id)) if game_id else [],
    }


def report(args, tally: dict, db: dict, note: str | None) -> dict:
    samples = tally["samples"]
    flat = flatness(samples)
    print(
        f"soak: {args.minutes:g} min; {args.conversations} human conversations, {args.machines} machine "
        f"conversations, {args.bettors} bettors; {harness.load_line()}"
    )
    if note:
        print("note: " + note)
    print(table(samples + [{**tally["after_close"], "min": "closed"}]))
    print("slope per minute (samples after the first) and drift over the run:")
    for metric, f in flat.items():
        print(
            f"  {metric:11s} {f['slope_per_min']:+9.3f}/min  drift {f['drift']:+8.2f}  allowed ±{f['allowed']:.2f}  "
            f"{'flat' if f['flat'] else 'NOT FLAT'}"
        )
    lost = list(tally["lost"])
    if db["messages_stored"] != tally["messages_sent"]:
        lost.append(f"{tally['messages_sent']} human messages sent, {db['messages_stored']} stored")
    if db["judge_to_machine_stored"] != tally["judge_to_machine"]:
        lost.append(f"{tally['judge_to_machine']} messages to machines sent, {db['judge_to_machine_stored']} stored")
    if db["bot_replies_stored"] != tally["bot_replies"] or db["unanswered_or_doubled"]:
        lost.append(
            f"{tally['bot_replies']} bot replies received, {db['bot_replies_stored']} stored, "
            f"{db['unanswered_or_doubled']} judge messages unanswered or answered twice"
        )
    if db["trades_stored"] != tally["trades"]:
        lost.append(f"{tally['trades']} trades acknowledged, {db['trades_stored']} in the ledger")
    for line in lost[:20]:
        print("LOST: " + line)
    for line in tally["errors"][:20]:
        print("ERROR: " + line)
    for line in tally["reconnect_failures"][:20]:
        print("RECONNECT FAILED (tried again): " + line)
    not_flat = [m for m, f in flat.items() if not f["flat"]]
    flat_line = "NOT flat: " + ", ".join(not_flat) if not_flat else "all flat"
    print(
        f"messages: {tally['messages_sent']} sent, {tally['messages_delivered']} delivered, "
        f"{db['messages_stored']} stored; machines: {tally['judge_to_machine']} asked, {tally['bot_replies']} "
        f"answered, {db['bot_replies_stored']} replies stored; trades: {tally['trades']} acknowledged "
        f"({tally['trades_refused']} refused), {db['trades_stored']} stored, {len(db['violations'])} ledger "
        f"violations; {tally['reconnects']} reconnects ({len(tally['reconnect_failures'])} handshakes failed and "
        f"were tried again); {flat_line}"
    )
    first, last = samples[0], samples[-1]
    return {
        "minutes": args.minutes,
        "samples": len(samples),
        "sample_s": round(min(args.sample_s, max(2.0, args.minutes * 60 / 6)), 1),
        "conversations": args.conversations,
        "machines": args.machines,
        "bettors": args.bettors,
        "messages_sent": tally["messages_sent"],
        "messages_delivered": tally["messages_delivered"],
        "messages_stored": db["messages_stored"],
        "judge_to_machine": tally["judge_to_machine"],
        "bot_replies": tally["bot_replies"],
        "bot_replies_stored": db["bot_replies_stored"],
        "trades": tally["trades"],
        "trades_refused": tally["trades_refused"],
        "trades_stored": db["trades_stored"],
        "rounds": tally["rounds"],
        "round_minutes": args.round_minutes,
        "reconnects": tally["reconnects"],
        "reconnect_failures": len(tally["reconnect_failures"]),
        "lost": len(lost),
        "violations": len(db["violations"]),
        "errors": len(tally["errors"]),
        "slopes_per_min": {m: f["slope_per_min"] for m, f in flat.items()},
        "drift": {m: f["drift"] for m, f in flat.items()},
        "flat": all(f["flat"] for f in flat.values()),
        "not_flat": [m for m, f in flat.items() if not f["flat"]],
        "first": {m: first[m] for m in TOLERANCE},
        "last_under_load": {m: last[m] for m in TOLERANCE},
        "after_close": {m: tally["after_close"][m] for m in ("pg", "redis", "ws")},
        "cpus": os.cpu_count(),
        "load_1min": round(os.getloadavg()[0], 1),
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long the traffic runs")
    parser.add_argument("--conversations", type=int, default=8, help="judge/confederate conversations")
    parser.add_argument("--machines", type=int, default=4, help="judge/machine conversations (bot replies via Celery)")
    parser.add_argument("--bettors", type=int, default=4, help="Turing Trade bettors in one game (0: no trading)")
    parser.add_argument("--pause-ms", type=float, default=1000, help="mean pause between a conversation's turns")
    parser.add_argument("--trade-pause-ms", type=float, default=500, help="mean pause between a bettor's trades")
    parser.add_argument("--reconnect-every", type=int, default=20, help="turns between page reloads (0: never)")
    parser.add_argument("--sample-s", type=float, default=60, help="seconds between samples (fewer for short runs)")
    parser.add_argument(
        "--timeout", type=float, default=30, help="seconds a delivery may take before it counts as lost"
    )
    parser.add_argument("--port", type=int, default=0, help="daphne's port (default: a free one)")
    parser.add_argument(
        "--round-minutes",
        type=float,
        default=0,
        help="each conversation moves to a new one (a "
        "contest's next round, same judge and witness) after this long, at its next reload (0: never)",
    )
    parser.add_argument(
        "--memdiag",
        metavar="PATH",
        help="daphne samples its memory into PATH (bench._memdiag: "
        "object counts by type, malloc, per-channel state), summarised at the end",
    )
    parser.add_argument("--memdiag-s", type=float, default=60, help="seconds between memdiag samples")
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="with --memdiag: also the source lines whose allocations grew (tracemalloc, depth 1; slows daphne)",
    )
    parser.add_argument(
        "--malloc-arena-max",
        type=int,
        default=0,
        help="daphne's MALLOC_ARENA_MAX (glibc's malloc arenas; 0: glibc's default, 8 per core)",
    )
    return results.add_options(parser).parse_args(argv)


def daphne_environ(args) -> dict[str, str]:
    """The variables daphne gets beside the run's own: the memory diagnostic, malloc's arenas."""
    extra = {}
    if args.memdiag:
        extra |= {
            "ARENA_MEMDIAG": str(Path(args.memdiag).resolve()),
            "ARENA_MEMDIAG_S": str(args.memdiag_s),
            "ARENA_MEMDIAG_TRACEMALLOC": "true" if args.tracemalloc else "false",
        }
    if args.malloc_arena_max:
        extra["MALLOC_ARENA_MAX"] = str(args.malloc_arena_max)
    return extra


def start_daphne(services, args) -> str:
    """daphne with daphne_environ(args) (the worker, already started, does not get them)."""
    extra = daphne_environ(args)
    if args.memdiag:
        Path(args.memdiag).unlink(missing_ok=True)
    saved = {name: os.environ.get(name) for name in extra}
    os.environ.update(extra)
    try:
        return services.start_daphne()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run(args) -> dict:
    if args.minutes <= 0:
        raise BenchError("--minutes must be positive")
    with harness.Services("soak", port=args.port, eager=False) as services:
        from bench.chat_latency import create_conversations

        humans = create_conversations(args.conversations)
        machines = create_machine_conversations(args.machines)
        game_id, bettors = create_bettors(args.bettors, args.minutes) if args.bettors else (None, [])
        worker = services.start_celery("soak", queues="celery,bots")
        base = start_daphne(services, args)
        log(
            f"{len(humans)} human and {len(machines)} machine conversations, {len(bettors)} bettors, "
            f"{args.minutes:g} min; worker pid {worker.process.pid}"
        )
        tally = asyncio.run(soak(args, services, worker, base, humans, machines, bettors))
        result = report(args, tally, stored(tally["machine_conversations"], game_id), services.note)
    if args.memdiag:
        from bench._memdiag import summary

        print(summary(args.memdiag))
        result["memdiag"] = str(Path(args.memdiag).resolve())
    if args.malloc_arena_max:
        result["malloc_arena_max"] = args.malloc_arena_max
    return result


def main(argv=None) -> int:
    args = parse_args(argv)
    return harness.main("soak", lambda: run(args), args, argv)


if __name__ == "__main__":
    sys.exit(main())
