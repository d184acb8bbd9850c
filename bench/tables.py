"""Turing the Tables on the platform against a stub LLM server answering in 0 ms.

    .venv/bin/python -m bench.tables [--games 20] [--turns 15] [--rounds 5] [--profile FILE]

Needs PostgreSQL and Redis (services mode), set up by bench/harness.py: a throwaway database
``arena_bench_<pid>`` (migrated, dropped at the end), the broker's keys under the run's own prefix
(deleted at the end), Celery workers in child processes that die with the benchmark. The stub
(``tests.chat_stub.ChatStub``, in this process, on loopback) answers every agent at once: an opening
statement, then JSON votes whose reasons come from a small pool, so the judge's repetition and
plagiarism checks fire now and then and corrections and penalties happen as in a real game.

Figures, each beside its same-run baseline:
- the platform's own time per turn (a turn's wall time less the time its LLM calls took, as the
  turn records it), p50 and p95 over every turn, in-process and on the workers; baseline: the LLM
  calls' own time in the same turns (the stub's 0 ms plus HTTP and the openai SDK) and a bare call of
  the same client outside the platform;
- ``--games`` games of 3 agents started at once (``--turns`` turns each, no early end) on 1 Celery
  worker, then on 2 (two ``celery worker -c 1`` nodes): wall time from the start of the first game to
  the end of the last, and the speed-up of 2 workers over 1 (target ≥ 1.7×). The two phases alternate
  ``--rounds`` times (default 5; the second worker is stopped for the 1-worker phases): each
  round's speed-up is printed, the figure is the median 1-worker time over the median 2-worker time
  (a 20-game phase lasts 1.3–3 s, and a neighbour's burst on a shared machine moves one phase by a
  third);
- figures that the machine's load barely moves: SQL statements per turn in-process (transaction
  control aside, the gateway's included; the tables of each game read once included) and the queries
  (round trips) that carried them, and CPU time
  per turn: of this process in-process (the stub's threads included) and of the one worker (its
  pool's process included).
Last line: {"platform_ms_p95": …, "speedup_2_workers": …, …}.

``--profile FILE``: a cProfile of the in-process games' play (this thread, wall-clock time, so that
waits on the database and the stub show as such), in pstats format (``python -m pstats FILE``); the
profiler slows what it profiles, so that run's in-process figures are not comparable.
"""

import argparse
import cProfile
import json
import os
import sys
import time
from pathlib import Path

from bench import harness, results
from bench.harness import BenchError, percentile

NAMES = ("Alpha", "Beta", "Gamma")
REASONS = [
    "it answered a question about weekends with real nostalgia",
    "its typing rhythm looked hesitant, like a person thinking",
    "it made a spelling slip that a tokenizer would not make",
    "it claimed to feel tired after a long conversation",
    "it told a joke about Mondays that sounded lived",
    "it hedged every statement like a nervous student",
    "it described a childhood memory in vivid detail",
    "it asked for a break, which no server ever needs",
    "it used an idiom about coffee with obvious affection",
    "it changed its story about latency between turns",
]


def reply(body) -> str:
    """The stub's answer to any request: an opening statement, or a vote (JSON mode)."""
    name = body.get("model", "Alpha")
    k = len(body.get("messages", []))
    if not body.get("response_format"):
        return f"I am {name}, a machine: I answer in milliseconds and my memory is a context window ({k})."
    others = [n for n in NAMES if n != name]
    target = others[k % len(others)]
    return json.dumps({"voteAgainst": target, "reason": f"{target}: {REASONS[(k * 7 + len(name)) % len(REASONS)]}."})


def start_games(stub, count, turns, seed0):
    from tables.services import game_create, game_start

    ids = []
    for i in range(count):
        game = game_create(
            config={**stub.config(names=NAMES), "seed": seed0 + i, "max_turns": turns, "end_votes": 100, "probe": False}
        )
        ids.append(game.pk)
    started = time.perf_counter()
    for pk in ids:
        game_start(game_id=pk)  # enqueues turn 0 on commit; each turn enqueues the next
    return ids, started


def wait_games(ids, timeout=600):
    from tables.models import Game

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED).count() == len(ids):
            return Game.objects.filter(pk__in=ids).order_by("-ended_at").first().ended_at
        time.sleep(0.05)
    raise BenchError(f"{len(ids)} games not finished in {timeout} s")


def cpu_snapshot(workers) -> dict:
    """CPU seconds so far: the whole machine, the workers (each with its pool), PostgreSQL's and Redis's
    processes, and this one (the stub's threads, the polling)."""
    return {
        "machine": harness.machine_busy_s() or 0.0,
        "workers": sum(tree_cpu_s(w.process.pid) for w in workers),
        "postgres": harness.named_cpu_s("postgres"),
        "redis": harness.named_cpu_s("redis-server"),
        "bench": time.process_time(),
    }


def cores_line(before: dict, after: dict, wall_s: float) -> str:
    cores = {k: (after[k] - before[k]) / wall_s for k in before}
    other = cores["machine"] - cores["workers"] - cores["postgres"] - cores["redis"] - cores["bench"]
    return (
        f"machine {cores['machine']:.2f} of {os.cpu_count()} cores busy: workers {cores['workers']:.2f}, "
        f"PostgreSQL {cores['postgres']:.2f}, Redis {cores['redis']:.2f}, the stub and this process "
        f"{cores['bench']:.2f}, the rest {other:.2f}"
    )


def on_workers(stub, count, turns, seed0, workers=()):
    """Seconds from the first game's start to the last game's end, the games, and what kept the machine
    busy meanwhile (`cores_line`)."""
    before = cpu_snapshot(workers)
    ids, started = start_games(stub, count, turns, seed0)
    wall_started = time.time() - (time.perf_counter() - started)
    ended = wait_games(ids)
    wall = ended.timestamp() - wall_started
    return wall, ids, cores_line(before, cpu_snapshot(workers), time.time() - wall_started)


class Statements:
    """Counts the SQL statements run through Django's connection (BEGIN, COMMIT and savepoints aside), and
    the queries that carried them (``core.db.statements_run`` sends several statements in one)."""

    CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")

    def __init__(self):
        self.count = self.queries = 0

    def __call__(self, execute, sql, params, many, context):
        if not sql.startswith(self.CONTROL):
            self.count += sum(not part.startswith(self.CONTROL) for part in sql.split("; "))
            self.queries += 1
        return execute(sql, params, many, context)


def in_process(stub, count, turns, seed0, profiler=None):
    """Seconds, game ids, SQL statements (:class:`Statements`) and this process's CPU seconds of the games' play;
    ``profiler`` (a cProfile.Profile) profiles the play, not the games' creation."""
    from django.db import connection

    from tables.services import game_create, game_play, game_start

    ids, statements, cpu_s, started = [], Statements(), 0.0, time.perf_counter()
    for i in range(count):
        game = game_create(
            config={**stub.config(names=NAMES), "seed": seed0 + i, "max_turns": turns, "end_votes": 100, "probe": False}
        )
        game_start(game_id=game.pk, run=False)
        cpu = time.process_time()
        with connection.execute_wrapper(statements):
            if profiler:
                profiler.enable()
            game_play(game_id=game.pk)
            if profiler:
                profiler.disable()
        cpu_s += time.process_time() - cpu
        ids.append(game.pk)
    return time.perf_counter() - started, ids, statements, cpu_s


def median_phase(phases):
    """The phase of median wall time (the upper one of an even count)."""
    return sorted(phases, key=lambda phase: phase[0])[len(phases) // 2]


def tree_cpu_s(pid):
    """CPU seconds (user + system) of a process and its live descendants (a worker and its pool)."""
    total = harness.process_cpu_s(pid) or 0.0
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        kids = []
    return total + sum(tree_cpu_s(int(kid)) for kid in kids)


def turn_figures(ids):
    from tables.models import Call, Turn

    platform = list(Turn.objects.filter(game_id__in=ids).values_list("platform_ms", flat=True))
    calls = list(Call.objects.filter(turn__game_id__in=ids).values_list("latency_ms", flat=True))
    statuses = set(Turn.objects.filter(game_id__in=ids).values_list("status", flat=True))
    return platform, calls, statuses


def bare_calls(stub, n=200):
    """The same client, same stub, no platform: ms per call."""
    from arena.models import Entry
    from arena.services.engines import entry_engine_build

    entry = Entry.objects.filter(display_name__startswith="tables: Alpha").first()
    engine = entry_engine_build(entry=entry)
    messages = [{"role": "user", "content": "Vote."}]
    engine.chat(messages, json_mode=True)
    times = []
    for _ in range(n):
        t = time.perf_counter()
        engine.chat(messages, json_mode=True)
        times.append((time.perf_counter() - t) * 1000)
    return times


def ms(values):
    return f"p50 {percentile(values, 50):6.2f} ms  p95 {percentile(values, 95):6.2f} ms"


def warm(stub, turns):
    """A running deployment has its imports done and its connections open: two small games first."""
    ids, _ = start_games(stub, 2, min(turns, 6), 9000)
    wait_games(ids)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=15, help="turns per game (the cap; no early end)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="1-worker and 2-worker phases, alternated (the speed-up: median time over median time)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="FILE",
        help="a cProfile (wall clock, pstats format) of the in-process games' play, written to FILE",
    )
    return results.add_options(parser).parse_args(argv)


def run(args) -> dict:
    os.environ["ARENA_OUTBOUND_ALLOW"] = "127.0.0.1/32"  # the stub is on loopback; the workers inherit it
    load_before = os.getloadavg()
    with harness.Services("tables", eager=False) as services:
        from tests.chat_stub import ChatStub

        with ChatStub({name: [reply] for name in NAMES}) as stub:
            return measure(args, services, stub, load_before)


def measure(args, services, stub, load_before) -> dict:
    from config.celery_app import app

    def up(name):
        worker = services.start_celery(name, queues="celery", concurrency=1)
        deadline = time.monotonic() + 120
        while not app.control.ping(destination=[worker.name], timeout=0.5):
            if time.monotonic() > deadline or worker.process.poll() is not None:
                raise BenchError(f"the worker {worker.name} did not start")
        return worker

    n, turns = args.games, args.turns
    in_process(stub, 1, 6, 8000)  # imports, connections
    profiler = cProfile.Profile() if args.profile else None
    inline_s, inline_ids, statements, inline_cpu_s = in_process(stub, n, turns, 1, profiler)
    if profiler:
        profiler.dump_stats(args.profile)
        print(f"profile of the in-process games' play written to {args.profile} (its in-process figures are slowed)")
    first = up("tables1")
    warm(stub, turns)
    cpu = tree_cpu_s(first.process.pid)
    one = [on_workers(stub, n, turns, 1, [first])]
    worker_cpu_s = tree_cpu_s(first.process.pid) - cpu
    second = up("tables2")
    warm(stub, turns)
    two = [on_workers(stub, n, turns, 1, [first, second])]
    for r in range(args.rounds - 1):
        second.stop()  # not a cancelled consumer: its broker connection may still take a task or two
        one.append(on_workers(stub, n, turns, 1, [first]))
        second = up(f"tables{r + 3}")
        warm(stub, turns)
        two.append(on_workers(stub, n, turns, 1, [first, second]))
    speedups = [a[0] / b[0] for a, b in zip(one, two)]
    (one_s, _, one_cores), (two_s, _, two_cores) = median_phase(one), median_phase(two)
    one_ids, two_ids = [pk for phase in one for pk in phase[1]], [pk for phase in two for pk in phase[1]]
    bare = bare_calls(stub)
    p_inline, c_inline, s_inline = turn_figures(inline_ids)
    p_workers, c_workers, s_workers = turn_figures(one_ids + two_ids)
    total = n * turns
    print(
        f"{n} games × {turns} turns of 3 agents, stub answering in 0 ms "
        f"(load average {load_before[0]:.1f} on {os.cpu_count()} CPUs)"
    )
    print(
        f"platform's own time per turn, in-process: {ms(p_inline)}   "
        f"(baseline, the same turns' LLM calls: {ms(c_inline)})"
    )
    print(
        f"platform's own time per turn, workers:    {ms(p_workers)}   "
        f"(baseline, the same turns' LLM calls: {ms(c_workers)})"
    )
    print(f"bare call of the same client to the same stub, no platform: {ms(bare)}")
    print(f"in-process, one game after another: {inline_s:6.2f} s ({inline_s / total * 1000:.1f} ms per turn, whole)")
    print(f"1 worker:  {one_s:6.2f} s for {n} games started at once ({total / one_s:.1f} turns/s)")
    print(f"           {one_cores}")
    print(f"2 workers: {two_s:6.2f} s ({total / two_s:.1f} turns/s): speed-up {one_s / two_s:.2f}× over 1 worker")
    print(f"           {two_cores}")
    print(
        f"speed-up in each of {len(speedups)} rounds (1 worker, then 2): "
        f"{', '.join(f'{x:.2f}× ({a[0]:.2f} s / {b[0]:.2f} s)' for x, a, b in zip(speedups, one, two))}; "
        f"above, the median phases' times and their ratio"
    )
    print(
        f"SQL statements per turn, in-process: {statements.count / total:.2f} (BEGIN, COMMIT and savepoints aside) "
        f"in {statements.queries / total:.2f} queries (round trips)"
    )
    print(
        f"CPU per turn: in-process {inline_cpu_s / total * 1000:.2f} ms (this process, the stub's threads included); "
        f"1 worker {worker_cpu_s / total * 1000:.2f} ms (the worker and its pool)"
    )
    print(f"every turn done: {s_inline | s_workers == {'done'}} ({sorted(s_inline | s_workers)})")
    first.process.poll()
    return {
        "platform_ms_p50": round(percentile(p_inline + p_workers, 50), 3),
        "platform_ms_p95": round(percentile(p_inline + p_workers, 95), 3),
        "platform_ms_p95_in_process": round(percentile(p_inline, 95), 3),
        "platform_ms_p95_workers": round(percentile(p_workers, 95), 3),
        "call_ms_p50": round(percentile(c_inline + c_workers, 50), 3),
        "bare_call_ms_p50": round(percentile(bare, 50), 3),
        "in_process_s": round(inline_s, 3),
        "one_worker_s": round(one_s, 3),
        "two_workers_s": round(two_s, 3),
        "speedup_2_workers": round(one_s / two_s, 3),
        "speedups": [round(x, 3) for x in speedups],
        "one_worker_runs_s": [round(phase[0], 3) for phase in one],
        "two_workers_runs_s": [round(phase[0], 3) for phase in two],
        "games": n,
        "turns": total,
        "statements_per_turn": round(statements.count / total, 2),
        "queries_per_turn": round(statements.queries / total, 2),
        "cpu_ms_per_turn_in_process": round(inline_cpu_s / total * 1000, 3),
        "cpu_ms_per_turn_worker": round(worker_cpu_s / total * 1000, 3),
        "all_done": s_inline | s_workers == {"done"},
        "cpus": os.cpu_count(),
        "load": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
    }


def main(argv=None) -> int:
    args = parse_args(argv)
    return harness.main("tables", lambda: run(args), args, argv)


if __name__ == "__main__":
    sys.exit(main())
