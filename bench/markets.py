"""Turing Trade trading throughput on PostgreSQL, beside a single-row-update baseline.

    .venv/bin/python bench/markets.py [--seconds 8] [--workers 16]

Needs a PostgreSQL server (DATABASE_URL, default postgres://root@127.0.0.1:5432/postgres). The run
creates its own database `markets_bench_<pid>` there (migrated, dropped at the end). Pushes go to
the in-memory channel layer (no Redis needed; a push costs the same call either way for the trader).

Three phases, each with --workers processes (as with several daphne workers; threads in one process
would measure the GIL) started together for --seconds:
- baseline: each worker commits `UPDATE ... SET n = n + 1` on ONE shared row, one transaction each
  (the hot-row cost a game's market row pays, with nothing else in the transaction);
- one game: each worker is a bettor of the same game, trading through `trade_place` (locks the
  market and bettor rows, ledger legs, trade log; a buy then a sell of one human security, so
  the price and points stay in range);
- 8 games: the same number of workers spread over 8 games.
Afterwards every game is audited (zero-sum legs, cached balances = ledger sums, no negative
balance, gap-free sequence numbers); `violations` counts the problems found. Also reported: one
bettor trading alone (wall and client CPU ms per trade), the CPU count and the load average, since on
a small shared machine the Python (ORM) work per trade, not the row lock, is what limits throughput
(compare one game with 8 games: if they are close, the lock is not the bottleneck).
The LAST line is JSON: {"trades_per_s", "baseline_tps", "ratio", "violations", "trades_per_s_8_games", ...}.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_DATABASE_URL = "postgres://root@127.0.0.1:5432/postgres"


def log(text: str) -> None:
    print(f"[markets] {text}", file=sys.stderr, flush=True)


def admin_sql(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def _child(kind, index, payload, barrier, stop_at, results):
    """One worker process (spawned: its own interpreter, its own database connection)."""
    import django

    django.setup()
    from arena.errors import ArenaError
    from django.db import connection, transaction

    barrier.wait()
    done = refused = n = 0
    while time.time() < stop_at.value:
        if kind == "baseline":
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("UPDATE bench_counter SET n = n + 1 WHERE id = 1")
            done += 1
            continue
        from markets import services

        game_id, user_id = payload
        action = "buy" if n % 2 == 0 else "sell"
        try:
            services.trade_place(game_id=game_id, user=_User(user_id), action=action, security="H", key=f"{index}-{n}")
            done += 1
        except ArenaError:
            refused += 1
        n += 1
    results.put((done, refused))


class _User:
    """Enough of a user for trade_place (it only reads pk)."""

    is_authenticated = True

    def __init__(self, pk):
        self.pk = pk


def run_for(seconds: float, kind: str, payloads: list) -> tuple[float, int]:
    """Run one process per payload for `seconds` after all have started; operations per second."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(len(payloads) + 1), ctx.Queue()
    stop_at = ctx.Value("d", 0.0)
    procs = [ctx.Process(target=_child, args=(kind, i, p, barrier, stop_at, results)) for i, p in enumerate(payloads)]
    for proc in procs:
        proc.start()
    stop_at.value = time.time() + 3600
    barrier.wait()
    started = time.time()
    stop_at.value = started + seconds
    totals = [results.get(timeout=seconds + 120) for _ in procs]
    elapsed = time.time() - started
    for proc in procs:
        proc.join(30)
    return sum(d for d, _ in totals) / elapsed, sum(r for _, r in totals)


def baseline(seconds, workers) -> float:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS bench_counter (id int PRIMARY KEY, n bigint NOT NULL)")
        cursor.execute("INSERT INTO bench_counter VALUES (1, 0) ON CONFLICT DO NOTHING")
    return run_for(seconds, "baseline", [None] * workers)[0]


def trading(seconds, workers, n_games) -> tuple[float, list, int]:
    from django.contrib.auth import get_user_model
    from django.db import connections

    from markets import services
    from markets.models import Game

    users = [get_user_model().objects.create_user(f"b{n_games}-{i}-{time.time_ns()}") for i in range(workers)]
    entry = _entry()
    games = []
    for g in range(n_games):
        game = services.game_create(title=f"bench {g}", entries=[entry], max_bettors=workers + 1,
                                    starting_points=10**9, duration_s=3600)
        services.game_open(game_id=game.pk)
        games.append(game)
    for i, user in enumerate(users):
        services.game_join(game_id=games[i % n_games].pk, user=user)
    for game in games:
        services.game_start(game_id=game.pk)
    connections.close_all()
    rate, refused = run_for(seconds, "trade", [(games[i % n_games].pk, u.pk) for i, u in enumerate(users)])
    return rate, [Game.objects.get(pk=g.pk) for g in games], refused


def serial(n: int = 100) -> tuple[float, float]:
    """One bettor alone, in this process: wall and CPU milliseconds per trade (no contention)."""
    from django.contrib.auth import get_user_model

    from markets import services

    user = get_user_model().objects.create_user(f"serial-{time.time_ns()}")
    game = services.game_create(title="serial", entries=[_entry()], starting_points=10**9, duration_s=3600)
    services.game_open(game_id=game.pk)
    services.game_join(game_id=game.pk, user=user)
    services.game_start(game_id=game.pk)
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(n):
        services.trade_place(game_id=game.pk, user=user, action="buy" if i % 2 == 0 else "sell", security="H", key=f"s{i}")
    return (time.perf_counter() - wall) * 1000 / n, (time.process_time() - cpu) * 1000 / n


def _entry():
    from arena.models import Entry

    return Entry.objects.get_or_create(display_name="Bench Simple", defaults={"engine": "simple", "settings": {}})[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--workers", type=int, default=16, help="concurrent bettors (processes)")
    args = parser.parse_args()

    server = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    parts = urlsplit(server)
    if not parts.scheme.startswith("postgres"):
        raise SystemExit("bench/markets.py needs PostgreSQL (DATABASE_URL=postgres://...)")
    name = f"markets_bench_{os.getpid()}"
    admin_sql(server, f'CREATE DATABASE "{name}"')
    try:
        os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
        os.environ.pop("REDIS_URL", None)
        os.environ["DEBUG"] = "false"  # as deployed: no per-query bookkeeping
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        from django.db import connections

        from markets.selectors import ledger_audit

        log(f"baseline: {args.workers} workers x single-row UPDATE transactions for {args.seconds} s")
        base = baseline(args.seconds, args.workers)
        log(f"one game: {args.workers} bettors for {args.seconds} s")
        one, one_games, refused1 = trading(args.seconds, args.workers, 1)
        log(f"8 games: {args.workers} bettors for {args.seconds} s")
        eight, eight_games, refused8 = trading(args.seconds, args.workers, 8)
        serial_ms, serial_cpu_ms = serial()
        violations = sum(len(ledger_audit(game=g)) for g in one_games + eight_games)
        result = {
            "trades_per_s": round(one, 1), "baseline_tps": round(base, 1), "ratio": round(one / base, 3),
            "violations": violations, "trades_per_s_8_games": round(eight, 1),
            "ratio_8_games": round(eight / base, 3), "refused": refused1 + refused8,
            "serial_trade_ms": round(serial_ms, 2), "serial_trade_cpu_ms": round(serial_cpu_ms, 2),
            "workers": args.workers, "seconds": args.seconds, "cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 1),
        }
        print(f"baseline {base:.0f} tx/s; one game {one:.0f} trades/s; 8 games {eight:.0f} trades/s; violations {violations}")
        connections.close_all()
    finally:
        admin_sql(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(json.dumps(result))


if __name__ == "__main__":
    main()
