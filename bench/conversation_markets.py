"""Crowd markets on conversations: spectators trading on the 8 simultaneous conversations of one round,
beside bench/markets.py's baselines measured in the same run.

    .venv/bin/python -m bench.conversation_markets [--seconds 6] [--rounds 2] [--spectators 200]
                                                   [--conversations 8] [--workers 16] [--watchers 3]

Services mode (PostgreSQL and Redis, bench/harness.py's throwaway database and key prefix; daphne in
a child process). One round: --conversations three-party interrogations running at once (a judge, a
human confederate and a machine each), each with its crowd market ("the left witness is human",
spectator feed 60 s behind). --spectators users trade on them (spectator i on conversation i mod 8)
through `xmarket_trade`, the path of the page, the websocket and the API (the conflict-of-interest
check, the market's sync with its interrogation, the trade), a buy then a sell of one human security
each; every spectator joins its market before the phases (what its first trade would do: timed
apart, `join_ms`, so the windows measure trading, as bench/markets.py's pre-joined bettors do); --workers
threads (each with its own database connection, over one process per CPU: bench.markets.run_phases) place
them on the spectators' behalf, as daphne's thread pool would. --watchers websockets per conversation
(the spectators' pages) receive the price pushes: push latency = arrival - the trade's stored time.

The phases take turns in --rounds windows (bench.markets.run_phases): `baseline` (bench/markets.py's:
one-row UPDATE in autocommit, the hot-row cost of a trade's one statement), `eight` (bench/markets.py's
8 Turing Trade games, the same workers as bettors, the same number of watchers per game on
/ws/markets/<game>/watch/: the latency baseline) and `xmarkets`. Afterwards every conversation is
ended and judged, its market settled, and every game's ledger audited (`violations`: 0 expected).
The LAST line is JSON: {"trades_per_s", "baseline_tps", "tt_8_games_tps", "push_p50_ms", "push_p99_ms",
"tt_push_p50_ms", "tt_push_p99_ms", "violations", ...}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import threading
import time

from bench import harness, results
from bench.harness import BenchError, fmt, summary

log = harness.logger("conversation_markets")
_users: dict = {}


def trade_until(assignment, index, made, stop_at) -> tuple[int, int]:
    """A worker's trades on behalf of its spectators until the window closes: (done, refused).
    `assignment`: [(market id, spectator user id), ...]; each spectator buys, then sells, in turn."""
    from django.contrib.auth import get_user_model

    from core.errors import ArenaError
    from markets import services

    done = refused = 0
    n = made.get("xmarkets", 0)
    while time.time() < stop_at.value:
        market_id, user_id = assignment[n % len(assignment)]
        user = _users.get(user_id) or _users.setdefault(user_id, get_user_model().objects.get(pk=user_id))
        action = "buy" if (n // len(assignment)) % 2 == 0 else "sell"
        n += 1
        try:
            services.xmarket_trade(market_id=market_id, user=user, action=action, security="H", key=f"x{index}-{n}")
        except ArenaError:
            refused += 1
            continue
        done += 1
    made["xmarkets"] = n
    return done, refused


def _round(n: int, spectators: int):
    """n running three-party interrogations with a market each, and the spectators (plain users)."""
    from django.contrib.auth import get_user_model

    from arena import services as arena
    from arena.models import Entry
    from markets import services

    User = get_user_model()
    entry = Entry.objects.create(display_name="Bench machine", engine="simple", settings={})
    markets = []
    for i in range(n):
        judge, human = User.objects.create_user(f"judge-{i}"), User.objects.create_user(f"confederate-{i}")
        interrogation = arena.interrogation_create(
            judge=judge, witnesses=[human, entry], time_limit_s=3600, title=f"Bench round, meeting {i + 1}"
        )
        market = services.xmarket_open(interrogation_id=interrogation.pk, delay_s=60)
        arena.interrogation_start(interrogation_id=interrogation.pk)
        services.xmarket_sync(market_id=market.pk)
        markets.append(market)
    users = User.objects.bulk_create([User(username=f"spectator-{i}") for i in range(spectators)])
    return markets, users


def _join(markets, users) -> float:
    """Every spectator joins its market (what its first trade does), one after another: ms per join."""
    from markets.conversation.services import trade_refusal
    from markets.services.games import game_join

    started = time.perf_counter()
    for i, user in enumerate(users):
        market = markets[i % len(markets)]
        game_join(game_id=market.game_id, user=user, refusal=lambda game, u, m=market: trade_refusal(m, u))
    return (time.perf_counter() - started) * 1000 / max(1, len(users))


def _serial(market, user, n: int = 100) -> tuple[float, float, float]:
    """One spectator alone, in this process: wall ms, CPU ms and database round trips per trade."""
    from django.db import connection

    from core import notify
    from markets import services

    trips = []
    with connection.execute_wrapper(
        lambda execute, sql, params, many, context: (trips.append(1), execute(sql, params, many, context))[1]
    ):
        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(n):
            services.xmarket_trade(
                market_id=market.pk, user=user, action="buy" if i % 2 == 0 else "sell", security="H", key=f"serial-{i}"
            )
        notify.flush()
    return (time.perf_counter() - wall) * 1000 / n, (time.process_time() - cpu) * 1000 / n, len(trips) / n


def _settle(markets) -> None:
    """End and judge every conversation (sealed with a throwaway key: the run's own), settle its market."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from django.conf import settings

    from arena import services as arena
    from core.signing import private_key_text
    from markets import services

    if not settings.ARENA_SIGNING_KEY:
        settings.ARENA_SIGNING_KEY = private_key_text(Ed25519PrivateKey.generate())
    for market in markets:
        interrogation = market.interrogation
        arena.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
        arena.verdict_submit(interrogation_id=interrogation.pk, judge=interrogation.judge, choice="left", confidence=60)
        if services.xmarket_sync(market_id=market.pk).status != "settled":
            raise BenchError(f"market {market.pk} did not settle")


class Watchers:
    """Websockets on their own event loop (a thread of this process), recording each price push's
    latency (arrival - the trade's stored time) under the page's kind ("xmarkets" or "eight")."""

    def __init__(self, base: str, paths: list[tuple[str, str]]):
        self.base, self.paths = base, paths
        self.latency = {"xmarkets": [], "eight": []}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.sockets = []

    def start(self) -> None:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._open(), self.loop).result(timeout=300)

    async def _open(self):
        for kind, path in self.paths:
            ws = await harness.open_websocket(self.base, path, None, path, greeted=False)
            self.sockets.append(ws)
            asyncio.ensure_future(self._read(kind, ws))

    async def _read(self, kind, ws):
        from datetime import datetime

        try:
            async for raw in ws:
                now = time.time()
                payload = json.loads(raw)
                if payload.get("type") == "price":
                    at = datetime.fromisoformat(payload["trade"]["at"]).timestamp()
                    self.latency[kind].append(now - at)
        except Exception:
            pass

    def drain(self, quiet_s: float = 1.0, limit_s: float = 30.0) -> None:
        """Wait until no push has arrived for `quiet_s` (the last pushes of the last window)."""
        end, last = time.monotonic() + limit_s, -1
        while time.monotonic() < end:
            count = sum(len(v) for v in self.latency.values())
            if count == last:
                return
            last = count
            time.sleep(quiet_s)

    def stop(self) -> None:
        async def close():
            for ws in self.sockets:
                await ws.close()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(timeout=60)
        self.loop.call_soon_threadsafe(self.loop.stop)


def measure(args, services_) -> dict:
    from django.db import connection, connections

    from bench import markets as tt
    from markets.selectors import ledger_audit

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_counter (id int PRIMARY KEY, n bigint NOT NULL)")
        cursor.execute("INSERT INTO bench_counter VALUES (1, 0)")
    markets, spectators = _round(args.conversations, args.spectators)
    join_ms = _join(markets, spectators)
    log(f"{len(spectators)} spectators joined their markets, {join_ms:.1f} ms each (one at a time)")
    bettors = [tt._bettor(f"bettor-{i}") for i in range(args.workers)]
    eight = tt.running_games(8, bettors, tt._entry())
    assignments = [[] for _ in range(args.workers)]
    for i, user in enumerate(spectators):
        assignments[i % args.workers].append((markets[i % len(markets)].pk, user.pk))
    workers = [({"eight": eight[i % 8].pk, "xmarkets": assignments[i]}, bettor.pk) for i, bettor in enumerate(bettors)]
    base = services_.start_daphne()
    paths = [
        ("xmarkets", f"/ws/markets/conversations/{m.game.public_id}/") for m in markets for _ in range(args.watchers)
    ]
    paths += [("eight", f"/ws/markets/{g.public_id}/watch/") for g in eight for _ in range(args.watchers)]
    watchers = Watchers(base, paths)
    started = time.perf_counter()
    watchers.start()
    log(f"{len(paths)} websockets open in {time.perf_counter() - started:.1f} s")
    connections.close_all()
    processes = max(1, min(args.processes, args.workers))
    phases = ["baseline", "eight", "xmarkets"]
    log(
        f"{args.spectators} spectators on {args.conversations} conversations, {args.workers} workers in {processes} "
        f"processes; phases {', '.join(phases)} in turn, {args.rounds} rounds, {args.seconds / args.rounds:.1f} s each"
    )
    rates = tt.run_phases(phases, workers, processes, args.seconds, args.rounds)
    watchers.drain()
    watchers.stop()
    serial_ms, serial_cpu_ms, trips = _serial(markets[0], spectators[0])
    tt_serial_ms, tt_serial_cpu_ms = tt.serial("sql")
    _settle(markets)
    games = [m.game for m in markets] + eight
    violations = sum(len(ledger_audit(game=g)) for g in games)
    joined = sum(m.game.participants.count() for m in markets)
    push, tt_push = summary(watchers.latency["xmarkets"]), summary(watchers.latency["eight"])
    base_tps, tt_tps, x_tps = rates["baseline"][0], rates["eight"][0], rates["xmarkets"][0]
    print(
        f"baseline {base_tps:.0f} tx/s; Turing Trade 8 games {tt_tps:.0f} trades/s; conversation markets "
        f"{x_tps:.0f} trades/s (ratio to baseline {x_tps / base_tps:.2f}, to Turing Trade {x_tps / tt_tps:.2f}); "
        f"{joined} spectators joined; violations {violations}"
    )
    print(f"push latency, conversation markets: {fmt(push)}")
    print(f"push latency, Turing Trade (same run): {fmt(tt_push)}")
    print(
        f"one spectator alone: {serial_ms:.2f} ms ({serial_cpu_ms:.2f} ms CPU, {trips:.1f} round trips) per trade; "
        f"a Turing Trade bettor alone: {tt_serial_ms:.2f} ms ({tt_serial_cpu_ms:.2f} ms CPU, 1 round trip)"
    )
    print(harness.load_line())
    return {
        "trades_per_s": round(x_tps, 1),
        "baseline_tps": round(base_tps, 1),
        "tt_8_games_tps": round(tt_tps, 1),
        "ratio": round(x_tps / base_tps, 3),
        "ratio_to_tt": round(x_tps / tt_tps, 3),
        "push_p50_ms": round(push["p50"], 2),
        "push_p99_ms": round(push["p99"], 2),
        "pushes": push["n"],
        "tt_push_p50_ms": round(tt_push["p50"], 2),
        "tt_push_p99_ms": round(tt_push["p99"], 2),
        "tt_pushes": tt_push["n"],
        "violations": violations,
        "refused": sum(r for _, r in rates.values()),
        "spectators_joined": joined,
        "join_ms": round(join_ms, 2),
        "serial_trade_ms": round(serial_ms, 2),
        "serial_trade_cpu_ms": round(serial_cpu_ms, 2),
        "round_trips_per_trade": round(trips, 2),
        "tt_serial_trade_ms": round(tt_serial_ms, 2),
        "tt_serial_trade_cpu_ms": round(tt_serial_cpu_ms, 2),
        "spectators": args.spectators,
        "conversations": args.conversations,
        "workers": args.workers,
        "processes": processes,
        "watchers": len(paths),
        "seconds": args.seconds,
        "rounds": args.rounds,
        "cpus": os.cpu_count(),
        "load_1min": round(os.getloadavg()[0], 1),
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per phase, over all rounds")
    parser.add_argument("--rounds", type=int, default=2, help="windows per phase, the phases taking turns")
    parser.add_argument("--spectators", type=int, default=200, help="spectators trading (users)")
    parser.add_argument("--conversations", type=int, default=8, help="simultaneous conversations of the round")
    parser.add_argument("--workers", type=int, default=16, help="threads placing the spectators' trades")
    parser.add_argument("--processes", type=int, default=os.cpu_count(), help="worker processes (default: one per CPU)")
    parser.add_argument(
        "--watchers",
        type=int,
        default=3,
        help="websockets per conversation (and per Turing Trade game): the pages receiving the pushes",
    )
    return results.add_options(parser).parse_args(argv)


def run(args) -> dict:
    with harness.Services("conversation_markets") as services_:
        return measure(args, services_)


def main(argv=None) -> int:
    args = parse_args(argv)
    return harness.main("conversation_markets", lambda: run(args), args, argv)


if __name__ == "__main__":
    sys.exit(main())
