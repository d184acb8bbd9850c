"""Turing Trade trading throughput on PostgreSQL, beside a single-row-update baseline.

    .venv/bin/python -m bench.markets [--seconds 8] [--rounds 4] [--workers 16] [--processes N]
                                      [--no-python-path] [--pushes redis|memory]

Needs a PostgreSQL server (DATABASE_URL, default postgres://root@127.0.0.1:5432/postgres). The run
creates its own database `arena_bench_<pid>` there (migrated, dropped at the end, on SIGTERM too:
bench/harness.py's set-up, shared with the other benchmarks).  Every trade pushes its price point as
in production: through the Redis channel layer (`--pushes redis`, the default: BENCH_REDIS_URL, else
REDIS_URL, default redis://127.0.0.1:6379/0, under the run's own key prefix, its keys deleted at the
end; a push costs the trader ~3x more CPU there than in memory) or, on a machine without Redis, the
in-memory layer (`--pushes memory`).  Tasks (the games' close timers) run in-process, far beyond the run.

--workers bettors (default 16), each a thread with its own persistent database connection, spread
over --processes processes (default: one per CPU, as daphne is deployed, one process per core whose
consumers run their database calls on a thread pool; the GIL counts as it would there;
`--processes 16` gives every bettor a process of its own, 16 Python processes on the cores), run
every phase together; the phases take turns in --rounds short windows (--seconds per phase in all),
so that each phase and its baseline see the same load on a shared machine:
- baseline: each bettor commits `UPDATE ... SET n = n + 1` on ONE shared row, one statement in
  autocommit per transaction: one round trip, the shape of a trade (one statement,
  `SELECT ... FROM markets_trade_place(...)`, in autocommit); the hot-row cost with nothing else in it;
- baseline in BEGIN/UPDATE/COMMIT (three round trips, Django's atomic block), for reference;
- one game: every bettor trades in the same game, trading through `trade_place` (market and
  bettor row locks, ledger legs, balances, trade log, the push after commit; a buy then a sell of one
  human security, so the price and points stay in range);
- 8 games: the same bettors spread over 8 games;
- one game through the ORM path (`path="python"`, what SQLite and the LMSR treatment use): the
  figure before the database function.
Afterwards every game is audited (zero-sum legs, cached balances = ledger sums, no negative
balance, gap-free sequence numbers); `violations` counts the problems found. Also reported: one
bettor trading alone on each path (wall and client CPU ms per trade), the CPU count and the load
average. The LAST line is JSON:
{"trades_per_s", "baseline_tps", "ratio", "violations", "trades_per_s_8_games", "ratio_8_games", ...}.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time

from bench import harness, results

BASELINES = ("baseline", "baseline_atomic")
# trading phases of other benchmarks run by `run_phases` (kind -> "module:function(assignment, index, made, stop_at)")
EXTERNAL_PHASES = {"xmarkets": "bench.conversation_markets:trade_until"}
COUNTER = "UPDATE bench_counter SET n = n + 1 WHERE id = 1"
log = harness.logger("markets")


def _child(bettors, phases, barrier, phase, stop_at, results):
    """One worker process (spawned: its own interpreter) running its bettors as threads, each with its
    own database connection. `bettors` lists (games, user_id, index): `games` maps a trading phase to
    the game the bettor trades in. Phase -1 ends the process."""
    import threading

    import django

    django.setup()
    from django.db import connection

    ready = threading.Barrier(len(bettors) + 1)  # the process's threads and its main thread
    tallies, lock = [], threading.Lock()

    def bettor(games, user_id, index):
        user, made = _User(user_id), {kind: 0 for kind in games}  # clicks per game: buy, sell, buy, ...
        while True:
            ready.wait()
            if phase.value < 0:
                connection.close()
                return
            tally = _trade_until(phases[phase.value], games, user, index, made, stop_at)
            with lock:
                tallies.append(tally)
            ready.wait()

    threads = [threading.Thread(target=bettor, args=args) for args in bettors]
    for thread in threads:
        thread.start()
    while True:
        barrier.wait()
        ready.wait()  # the threads start the phase (or end)
        if phase.value < 0:
            for thread in threads:
                thread.join()
            return
        ready.wait()  # every thread has finished the window
        kind = phases[phase.value]
        results.put((kind, sum(done for done, _ in tallies), sum(refused for _, refused in tallies)))
        tallies.clear()


def _trade_until(kind, games, user, index, made, stop_at) -> tuple[int, int]:
    """One bettor's operations of one phase until the window closes: (done, refused)."""
    from django.db import connection, transaction

    from core.errors import ArenaError
    from markets import services

    if kind in EXTERNAL_PHASES:  # another benchmark's trading phase, on these same workers
        module, name = EXTERNAL_PHASES[kind].split(":")
        return getattr(importlib.import_module(module), name)(games[kind], index, made, stop_at)
    done = refused = 0
    while time.time() < stop_at.value:
        if kind == "baseline":
            with connection.cursor() as cursor:
                cursor.execute(COUNTER)
        elif kind == "baseline_atomic":
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(COUNTER)
        else:
            n = made[kind]
            made[kind] += 1
            try:
                services.trade_place(
                    game_id=games[kind],
                    user=user,
                    action="buy" if n % 2 == 0 else "sell",
                    security="H",
                    key=f"{index}-{n}",
                    path="python" if kind == "orm" else "sql",
                )
            except ArenaError:
                refused += 1
                continue
        done += 1
    return done, refused


class _User:
    """Enough of a user for trade_place (it only reads pk)."""

    is_authenticated = True

    def __init__(self, pk):
        self.pk = pk


def run_phases(phases: list[str], bettors: list[tuple[dict, int]], processes: int, seconds: float, rounds: int) -> dict:
    """Run the phases in turn, `rounds` times, `seconds / rounds` each time, all bettors together
    (bettor i in process i mod `processes`); operations per second of each phase (over its windows)
    and the refused trades."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    groups = [
        [(games, user_id, i) for i, (games, user_id) in enumerate(bettors) if i % processes == p]
        for p in range(processes)
    ]
    groups = [group for group in groups if group]
    barrier, results = ctx.Barrier(len(groups) + 1), ctx.Queue()
    phase, stop_at = ctx.Value("i", 0), ctx.Value("d", 0.0)
    procs = [ctx.Process(target=_child, args=(group, phases, barrier, phase, stop_at, results)) for group in groups]
    for proc in procs:
        proc.start()
    totals = {kind: {"done": 0, "refused": 0, "elapsed": 0.0} for kind in phases}
    window = seconds / rounds
    try:
        for _ in range(rounds):
            for number, kind in enumerate(phases):
                phase.value, stop_at.value = number, time.time() + 3600
                barrier.wait(timeout=600)  # every worker has started (the first time) and is ready
                started = time.time()
                stop_at.value = started + window
                for _ in procs:
                    _, done, refused = results.get(timeout=window + 120)
                    totals[kind]["done"] += done
                    totals[kind]["refused"] += refused
                totals[kind]["elapsed"] += time.time() - started
        phase.value = -1
        barrier.wait(timeout=60)
    finally:
        for proc in procs:
            proc.join(30)
            if proc.is_alive():
                proc.terminate()
    return {kind: (t["done"] / t["elapsed"], t["refused"]) for kind, t in totals.items()}


def running_games(n: int, users: list, entry) -> list:
    from markets import services

    games = []
    for g in range(n):
        game = services.game_create(
            title=f"bench {g}", entries=[entry], max_bettors=len(users) + 1, starting_points=10**9, duration_s=3600
        )
        services.game_open(game_id=game.pk)
        games.append(game)
    for i, user in enumerate(users):
        services.game_join(game_id=games[i % n].pk, user=user)
    for game in games:
        services.game_start(game_id=game.pk)
    return games


def serial(path: str, n: int = 100) -> tuple[float, float]:
    """One bettor alone, in this process: wall and CPU milliseconds per trade (no contention)."""
    from core import notify
    from markets import services

    user = _bettor(f"serial-{path}")
    game = running_games(1, [user], _entry())[0]
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(n):
        services.trade_place(
            game_id=game.pk, user=user, action="buy" if i % 2 == 0 else "sell", security="H", key=f"s{i}", path=path
        )
    notify.flush()  # the pushes' CPU counts too
    return (time.perf_counter() - wall) * 1000 / n, (time.process_time() - cpu) * 1000 / n


def _bettor(username: str):
    """A user with the bettor role (joining a game needs it)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from arena import roles
    from arena.setup import ensure_role_groups

    ensure_role_groups()
    user = get_user_model().objects.create_user(username)
    user.groups.add(Group.objects.get(name=roles.BETTOR))
    return user


def _entry():
    from arena.models import Entry

    return Entry.objects.get_or_create(display_name="Bench Simple", defaults={"engine": "simple", "settings": {}})[0]


def measure(args) -> dict:
    from django.db import connection, connections

    from markets.selectors import ledger_audit

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_counter (id int PRIMARY KEY, n bigint NOT NULL)")
        cursor.execute("INSERT INTO bench_counter VALUES (1, 0)")
    users = [_bettor(f"bettor-{i}") for i in range(args.workers)]
    entry = _entry()
    one, eight = running_games(1, users, entry), running_games(8, users, entry)
    orm = running_games(1, users, entry) if args.python_path else []
    phases = [*BASELINES, "one", "eight"] + (["orm"] if args.python_path else [])
    bettors = [
        ({"one": one[0].pk, "eight": eight[i % 8].pk, "orm": orm[0].pk if orm else None}, user.pk)
        for i, user in enumerate(users)
    ]
    connections.close_all()
    processes = max(1, min(args.processes, args.workers))
    log(
        f"{args.workers} bettors in {processes} processes; phases {', '.join(phases)} in turn, "
        f"{args.rounds} rounds, {args.seconds / args.rounds:.1f} s each"
    )
    rates = run_phases(phases, bettors, processes, args.seconds, args.rounds)
    base, one_rate, eight_rate = rates["baseline"][0], rates["one"][0], rates["eight"][0]
    result = {
        "trades_per_s": round(one_rate, 1),
        "baseline_tps": round(base, 1),
        "ratio": round(one_rate / base, 3),
        "violations": sum(len(ledger_audit(game=g)) for g in one + eight + orm),
        "trades_per_s_8_games": round(eight_rate, 1),
        "ratio_8_games": round(eight_rate / base, 3),
        "refused": sum(refused for _, refused in rates.values()),
        "baseline_atomic_tps": round(rates["baseline_atomic"][0], 1),
        "ratio_vs_atomic_baseline": round(one_rate / rates["baseline_atomic"][0], 3),
    }
    serial_ms, serial_cpu_ms = serial("sql")
    result.update(serial_trade_ms=round(serial_ms, 2), serial_trade_cpu_ms=round(serial_cpu_ms, 2))
    if args.python_path:
        orm_rate = rates["orm"][0]
        orm_ms, orm_cpu_ms = serial("python")
        result.update(
            orm_path_trades_per_s=round(orm_rate, 1),
            orm_path_ratio=round(orm_rate / base, 3),
            orm_path_serial_trade_ms=round(orm_ms, 2),
            orm_path_serial_trade_cpu_ms=round(orm_cpu_ms, 2),
        )
    result.update(
        pushes=args.pushes,
        workers=args.workers,
        processes=processes,
        seconds=args.seconds,
        rounds=args.rounds,
        cpus=os.cpu_count(),
        load_1min=round(os.getloadavg()[0], 1),
    )
    print(
        f"baseline {base:.0f} tx/s (BEGIN/UPDATE/COMMIT {result['baseline_atomic_tps']:.0f}); one game "
        f"{one_rate:.0f} trades/s (ratio {one_rate / base:.2f}); 8 games {eight_rate:.0f} trades/s "
        f"(ratio {eight_rate / base:.2f})"
        + (f"; ORM path, one game {result['orm_path_trades_per_s']:.0f} trades/s" if args.python_path else "")
        + f"; violations {result['violations']}; {args.workers} bettors in {processes} processes, pushes via "
        f"{result['pushes']}; load {result['load_1min']} on {os.cpu_count()} CPUs"
    )
    connections.close_all()
    return result


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="per phase, over all rounds")
    parser.add_argument("--rounds", type=int, default=4, help="windows per phase, the phases taking turns")
    parser.add_argument("--workers", type=int, default=16, help="concurrent bettors (threads)")
    parser.add_argument(
        "--processes",
        type=int,
        default=os.cpu_count(),
        help="worker processes the bettors are spread over (default: one per CPU)",
    )
    parser.add_argument(
        "--no-python-path",
        dest="python_path",
        action="store_false",
        help="skip the ORM path's one-game phase (the figure before the database function)",
    )
    parser.add_argument(
        "--pushes",
        choices=("redis", "memory"),
        default="redis",
        help="the channel layer each trade's push goes through (default: Redis, as deployed)",
    )
    return results.add_options(parser).parse_args(argv)


def run(args) -> dict:
    with harness.Services("markets", redis=args.pushes == "redis"):
        return measure(args)


def main(argv=None) -> int:
    args = parse_args(argv)
    return harness.main("markets", lambda: run(args), args, argv)


if __name__ == "__main__":
    sys.exit(main())
