"""Turing Trade trading throughput on PostgreSQL, beside a single-row-update baseline.

    .venv/bin/python bench/markets.py [--seconds 8] [--workers 16] [--no-python-path]

Needs a PostgreSQL server (DATABASE_URL, default postgres://root@127.0.0.1:5432/postgres). The run
creates its own database `markets_bench_<pid>` there (migrated, dropped at the end). Pushes go to
the in-memory channel layer (no Redis needed; a push costs the same call either way for the trader).

Phases, each with --workers processes (as with several daphne workers; threads in one process would
measure the GIL) started together for --seconds, each process with its own persistent connection:
- baseline: each worker commits `UPDATE ... SET n = n + 1` on ONE shared row, one statement in
  autocommit per transaction (one round trip: the shape of a trade, which is one statement,
  `SELECT * FROM markets_trade_place(...)`, in autocommit; the hot-row cost with nothing else in it);
- baseline in BEGIN/UPDATE/COMMIT (three round trips, Django's atomic block), for reference;
- one game: each worker is a bettor of the same game, trading through `trade_place` (locks the
  market and bettor rows, ledger legs, trade log; a buy then a sell of one human security, so
  the price and points stay in range);
- 8 games: the same number of workers spread over 8 games;
- one game through the ORM path (`path="python"`, what SQLite and the LMSR treatment use), the
  figure before the database function.
Afterwards every game is audited (zero-sum legs, cached balances = ledger sums, no negative
balance, gap-free sequence numbers); `violations` counts the problems found. Also reported: one
bettor trading alone on each path (wall and client CPU ms per trade), the CPU count and the load
average (on a small shared machine, client CPU per trade limits throughput as much as the row lock).
The LAST line is JSON: {"trades_per_s", "baseline_tps", "ratio", "violations", "trades_per_s_8_games", ...}.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
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
            with connection.cursor() as cursor:
                cursor.execute("UPDATE bench_counter SET n = n + 1 WHERE id = 1")
            done += 1
            continue
        if kind == "baseline_atomic":
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("UPDATE bench_counter SET n = n + 1 WHERE id = 1")
            done += 1
            continue
        from markets import services

        game_id, user_id = payload
        action = "buy" if n % 2 == 0 else "sell"
        try:
            services.trade_place(game_id=game_id, user=_User(user_id), action=action, security="H",
                                 key=f"{index}-{n}", path=kind)
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


def baseline(seconds, workers, kind="baseline") -> float:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS bench_counter (id int PRIMARY KEY, n bigint NOT NULL)")
        cursor.execute("INSERT INTO bench_counter VALUES (1, 0) ON CONFLICT DO NOTHING")
    return run_for(seconds, kind, [None] * workers)[0]


def trading(seconds, workers, n_games, path="sql") -> tuple[float, list, int]:
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
    rate, refused = run_for(seconds, path, [(games[i % n_games].pk, u.pk) for i, u in enumerate(users)])
    return rate, [Game.objects.get(pk=g.pk) for g in games], refused


def serial(path: str, n: int = 100) -> tuple[float, float]:
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
        services.trade_place(game_id=game.pk, user=user, action="buy" if i % 2 == 0 else "sell", security="H",
                               key=f"s{i}", path=path)
    return (time.perf_counter() - wall) * 1000 / n, (time.process_time() - cpu) * 1000 / n


def _entry():
    from arena.models import Entry

    return Entry.objects.get_or_create(display_name="Bench Simple", defaults={"engine": "simple", "settings": {}})[0]


def _terminate(signum, frame):
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--workers", type=int, default=16, help="concurrent bettors (processes)")
    parser.add_argument("--no-python-path", dest="python_path", action="store_false",
                        help="skip the ORM path's one-game phase (the figure before the database function)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _terminate)  # the throwaway database is dropped on SIGTERM too

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

        log(f"baseline: {args.workers} workers x single-row UPDATE transactions (autocommit) for {args.seconds} s")
        base = baseline(args.seconds, args.workers)
        log(f"baseline in BEGIN/UPDATE/COMMIT: {args.workers} workers for {args.seconds} s")
        base_atomic = baseline(args.seconds, args.workers, "baseline_atomic")
        log(f"one game: {args.workers} bettors for {args.seconds} s")
        one, one_games, refused = trading(args.seconds, args.workers, 1)
        log(f"8 games: {args.workers} bettors for {args.seconds} s")
        eight, eight_games, refused8 = trading(args.seconds, args.workers, 8)
        audited, refused = one_games + eight_games, refused + refused8
        orm = orm_serial_ms = orm_serial_cpu_ms = None
        if args.python_path:
            log(f"one game, ORM path: {args.workers} bettors for {args.seconds} s")
            orm, orm_games, refused_orm = trading(args.seconds, args.workers, 1, path="python")
            audited, refused = audited + orm_games, refused + refused_orm
            orm_serial_ms, orm_serial_cpu_ms = serial("python")
        serial_ms, serial_cpu_ms = serial("sql")
        violations = sum(len(ledger_audit(game=g)) for g in audited)
        result = {
            "trades_per_s": round(one, 1), "baseline_tps": round(base, 1), "ratio": round(one / base, 3),
            "violations": violations, "trades_per_s_8_games": round(eight, 1),
            "ratio_8_games": round(eight / base, 3), "refused": refused,
            "baseline_atomic_tps": round(base_atomic, 1),
            "serial_trade_ms": round(serial_ms, 2), "serial_trade_cpu_ms": round(serial_cpu_ms, 2),
            "orm_path_trades_per_s": None if orm is None else round(orm, 1),
            "orm_path_ratio": None if orm is None else round(orm / base, 3),
            "orm_path_serial_trade_ms": None if orm is None else round(orm_serial_ms, 2),
            "orm_path_serial_trade_cpu_ms": None if orm is None else round(orm_serial_cpu_ms, 2),
            "workers": args.workers, "seconds": args.seconds, "cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 1),
        }
        print(f"baseline {base:.0f} tx/s (BEGIN/UPDATE/COMMIT {base_atomic:.0f}); one game {one:.0f} trades/s "
              f"(ratio {one / base:.2f}); 8 games {eight:.0f} trades/s (ratio {eight / base:.2f})"
              + ("" if orm is None else f"; ORM path, one game {orm:.0f} trades/s (ratio {orm / base:.2f})")
              + f"; violations {violations}; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        connections.close_all()
    finally:
        admin_sql(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(json.dumps(result))


if __name__ == "__main__":
    main()
