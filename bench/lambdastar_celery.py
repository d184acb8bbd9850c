"""Λ* on the platform against the bare engine: in-process, 1 Celery worker process, 2 of them.

    .venv/bin/python -m bench.lambdastar_celery [--target-s 4] [--episodes N] [--chunk C] [--repeats 3]

Needs PostgreSQL and Redis (services mode), set up by bench/harness.py as for the other benchmarks:
a throwaway database ``arena_bench_<pid>`` on the server of DATABASE_URL (default
postgres://root@127.0.0.1:5432/postgres; migrated, dropped at the end), the broker's and the results'
keys under the run's own prefix on BENCH_REDIS_URL, else REDIS_URL (default redis://127.0.0.1:6379/0;
deleted at the end), and the Celery workers in child processes that die with the benchmark.

One experiment (paper rules, types ls, woc and ql) sized so that the bare engine takes about
``--target-s`` seconds (or ``--episodes`` per type), chunked as the platform chooses (or ``--chunk``).
Each repeat times, in turn: the bare engine (one call per type, kernels loaded), the platform
in-process (launch → every chunk stored → aggregates), and the same with real
``celery -A config worker -Q lambdastar`` processes, one with 1 pool process and one with 2, started
once and left running as in a deployment: both are up and warm (kernels loaded, a small experiment
done) before any clock starts, and only the one being measured consumes the queue. A worker run is
timed from submission to the experiment's ``finished_at``. Figures are the best of the repeats (the
machine is shared); every repeat is printed. Beside them: CPU seconds (this process, the worker's
processes, the database's server processes) and, for 1 worker, the wall time against the engine
time its own chunks took in the same run (``overhead_vs_chunk_compute``: the platform's share when
other load slows the engine between the phases). The same configuration and seed give the same
scores everywhere, which is checked. Last line: {"overhead": …, "speedup_2_workers": …, …}.
"""

import argparse
import os
import sys
import time
from pathlib import Path

from bench import harness, results
from bench.harness import BenchError

QUEUE = "lambdastar"
TYPES = ["ls", "woc", "ql"]


def configuration(episodes, chunk=None):
    config = {
        "rules": "paper",
        "rng": "pcg64",
        "episodes": episodes,
        "types": TYPES,
        "grid": 10,
        "iterations": 50,
        "agents": 5,
    }
    if chunk:
        config["chunk_episodes"] = chunk
    return config


def bare_engine(config_dict, seed):
    """Seconds and scores of the engine alone: one call per type over every episode."""
    from lambdastar import sweep
    from lambdastar.engine import run

    ((_, config),) = sweep.run_configs(config_dict, seed)
    for t in config.types:  # kernels loaded first, as in a running worker
        run(config, t, range(0, 1))
    meter = CpuMeter()
    meter.start()
    started = time.perf_counter()
    scores = {t: run(config, t).tolist() for t in config.types}
    return time.perf_counter() - started, meter.stop(), scores


def episodes_for(target_s, seed):
    """Episodes per type for a bare-engine time of about ``target_s`` (a short run, scaled)."""
    sample = 100
    elapsed, _, _ = bare_engine(configuration(sample), seed)
    return max(100, round(target_s / elapsed * sample / 100) * 100)


def cpu_seconds(pids):
    """{pid: user + system CPU seconds} of the live processes among ``pids``."""
    return {pid: used for pid in pids if (used := harness.process_cpu_s(pid)) is not None}


def children(pid):
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return out


def database_backends():
    """PostgreSQL server processes serving the benchmark's database (readable when it runs here)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        return [pid for (pid,) in cursor.fetchall()]


class CpuMeter:
    """CPU seconds spent by the given processes between start() and stop(): this process, the
    worker's processes and the database's server processes for this database (Redis, shared with
    other users of the machine, is not counted)."""

    def __init__(self, roots=()):
        self.roots = list(roots)

    def pids(self):
        return {os.getpid(), *self.roots, *(c for r in self.roots for c in children(r)), *database_backends()}

    def start(self):
        self.before = cpu_seconds(self.pids())

    def stop(self):
        after = cpu_seconds(self.pids() | set(self.before))
        return sum(after[p] - self.before.get(p, 0.0) for p in after)


def launch(owner, config_dict, seed, enqueue):
    from lambdastar import services

    experiment = services.experiment_create(owner=owner, name="bench", configuration=config_dict, seed=seed)
    return services.experiment_launch(experiment_id=experiment.pk, enqueue=enqueue)


def in_process(owner, config_dict, seed):
    from lambdastar import services

    meter = CpuMeter()
    meter.start()
    started = time.perf_counter()
    experiment = launch(owner, config_dict, seed, enqueue=False)
    assert services.experiment_execute(experiment_id=experiment.pk)
    elapsed, used = time.perf_counter() - started, meter.stop()
    experiment.refresh_from_db()
    return elapsed, used, experiment


class Workers:
    """``celery worker`` nodes with 1 and 2 pool processes (the harness's, this run's broker keys);
    one at a time consumes the queue."""

    def __init__(self, services, counts):
        from config.celery_app import app

        self.app = app
        self.workers = {n: services.start_celery(f"bench{n}", queues=QUEUE, concurrency=n) for n in counts}
        started = time.perf_counter()
        deadline = time.monotonic() + 600  # a fresh checkout compiles the kernels first
        for n, worker in self.workers.items():
            while not app.control.ping(destination=[self.name(n)], timeout=0.5):
                if time.monotonic() > deadline or worker.process.poll() is not None:
                    raise BenchError(f"the worker {self.name(n)} did not start")
        self.startup_s = time.perf_counter() - started
        for n in counts:  # both consumed the queue on start: none does until asked
            self._control("cancel_consumer", n)
        time.sleep(1.5)

    def name(self, n):
        return self.workers[n].name

    def _control(self, command, n):
        replies = getattr(self.app.control, command)(QUEUE, destination=[self.name(n)], reply=True, timeout=5)
        if not replies:
            raise BenchError(f"{command} got no reply from {self.name(n)}")

    def run(self, n, owner, config_dict, seed):
        """Seconds from submission to finished_at, with only the n-process worker consuming."""
        self._control("add_consumer", n)
        try:
            meter = CpuMeter([self.workers[n].process.pid])
            meter.start()
            submitted = time.time()
            experiment = wait(launch(owner, config_dict, seed, enqueue=True))
            return experiment.finished_at.timestamp() - submitted, meter.stop(), experiment
        finally:
            self._control("cancel_consumer", n)
            time.sleep(1.5)  # a pending BRPOP (1 s) of the cancelled consumer could take the next run's message

    def stop(self):
        for worker in self.workers.values():
            worker.stop()


def wait(experiment, timeout=300):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        experiment.refresh_from_db()
        if experiment.status == "finished":
            return experiment
        if experiment.status in ("failed", "cancelled"):
            raise BenchError(f"experiment {experiment.pk} {experiment.status}: {experiment.error}")
        time.sleep(0.25)  # the time is taken from finished_at: polling less often steals less CPU
    raise BenchError(f"experiment {experiment.pk} not finished in {timeout} s")


def phases(experiment):
    """Where a worker run's time went: until the first chunk started, chunk compute (summed over
    chunks), from the last chunk stored to finished."""
    from django.db.models import Max, Sum

    from lambdastar.models import ChunkResult

    chunks = ChunkResult.objects.filter(run__experiment=experiment).aggregate(
        compute=Sum("elapsed_s"), last=Max("created_at")
    )
    return {
        "to_first_chunk_s": (experiment.started_at - experiment.queued_at).total_seconds(),
        "chunk_compute_s": chunks["compute"],
        "last_chunk_to_finished_s": (experiment.finished_at - chunks["last"]).total_seconds(),
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target-s", type=float, default=4.0, help="bare-engine seconds to size the experiment")
    parser.add_argument("--episodes", type=int, help="episodes per type (default: from --target-s)")
    parser.add_argument("--chunk", type=int, help="chunk_episodes (default: the platform's own choice)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    return results.add_options(parser).parse_args(argv)


def run(args) -> dict:
    load_before = os.getloadavg()
    # eager=False: the platform's tasks go to the broker (this run's keys), for the workers below
    with harness.Services("lambdastar_celery", eager=False) as services:
        return measure(args, services, load_before)


def measure(args, services, load_before) -> dict:
    from django.conf import settings
    from django.contrib.auth import get_user_model

    settings.LAMBDASTAR_QUOTA_EPISODES = 10**12
    from lambdastar import selectors, sweep
    from lambdastar.models import ChunkResult

    owner = get_user_model().objects.create_user(username="lambdastar-bench")

    episodes = args.episodes or episodes_for(args.target_s, args.seed)
    config_dict = configuration(episodes, args.chunk)
    configs = [c for _, c in sweep.run_configs(config_dict, args.seed)]
    sizes = sweep.chunk_sizes(configs, sweep.chunk_episodes(config_dict))
    chunks = len(sweep.chunk_plan(configs, sizes))
    print(
        f"experiment: {episodes} episodes × {len(TYPES)} types in {chunks} chunks of "
        f"{', '.join(f'{t} {n}' for t, n in sizes[0].items())} episodes "
        f"(load average {load_before[0]:.1f} on {os.cpu_count()} CPUs)"
    )

    warm = configuration(4, 1)
    in_process(owner, warm, args.seed)  # a running server has imported and loaded all this already
    workers = Workers(services, [1, 2])
    try:
        print(f"workers up and warm in {workers.startup_s:.1f} s (not timed below)")
        for n in (1, 2):
            workers.run(n, owner, warm, args.seed)
        times = {"bare": [], "in_process": [], "one_worker": [], "two_workers": []}
        cpu = {k: [] for k in times}
        own = []  # 1 worker: wall over the engine time its chunks took in the same run, minus 1
        computed = {"in_process": [], "one_worker": []}  # engine time of the chunks, summed
        expected, runs = None, []
        for r in range(args.repeats):
            bare, bare_cpu, expected = bare_engine(config_dict, args.seed)
            inline, inline_cpu, e0 = in_process(owner, config_dict, args.seed)
            one, one_cpu, e1 = workers.run(1, owner, config_dict, args.seed)
            two, two_cpu, e2 = workers.run(2, owner, config_dict, args.seed)
            for key, wall, used in zip(times, (bare, inline, one, two), (bare_cpu, inline_cpu, one_cpu, two_cpu)):
                times[key].append(wall)
                cpu[key].append(used)
            runs += [e0, e1, e2]
            p0, p1, p2 = phases(e0), phases(e1), phases(e2)
            own.append(one / p1["chunk_compute_s"] - 1)
            computed["in_process"].append(p0["chunk_compute_s"])
            computed["one_worker"].append(p1["chunk_compute_s"])
            print(
                f"repeat {r + 1}: bare {bare:6.2f} s  in-process {inline:6.2f} s  1 worker {one:6.2f} s  "
                f"2 workers {two:6.2f} s   CPU: {bare_cpu:6.2f} / {inline_cpu:6.2f} / {one_cpu:6.2f} / "
                f"{two_cpu:6.2f} s   chunks computed in {p0['chunk_compute_s']:.2f} s in-process, "
                f"{p1['chunk_compute_s']:.2f} s on 1 worker ({own[-1]:+.1%})   (load {os.getloadavg()[0]:.1f})",
                flush=True,
            )
    finally:
        workers.stop()
    best = {k: min(v) for k, v in times.items()}
    bare = best["bare"]
    print(f"bare engine:            {bare:7.2f} s   (best of {args.repeats})")
    print(f"platform, in-process:   {best['in_process']:7.2f} s  ({best['in_process'] / bare - 1:+.1%})")
    print(
        f"platform, 1 worker:     {best['one_worker']:7.2f} s  ({best['one_worker'] / bare - 1:+.1%}; "
        f"{(best['one_worker'] - bare) / chunks * 1000:.1f} ms per chunk)"
    )
    print(
        f"platform, 2 workers:    {best['two_workers']:7.2f} s  "
        f"(speed-up {best['one_worker'] / best['two_workers']:.2f}× over 1 worker, "
        f"{bare / best['two_workers']:.2f}× over the bare engine)"
    )
    best_cpu = {k: min(v) for k, v in cpu.items()}
    print(
        f"CPU seconds (this process, the worker's processes, the database's; best of {args.repeats}): "
        f"bare {best_cpu['bare']:.2f}, in-process {best_cpu['in_process']:.2f} "
        f"({best_cpu['in_process'] / best_cpu['bare'] - 1:+.1%}), 1 worker {best_cpu['one_worker']:.2f} "
        f"({best_cpu['one_worker'] / best_cpu['bare'] - 1:+.1%}), 2 workers {best_cpu['two_workers']:.2f} "
        f"({best_cpu['two_workers'] / best_cpu['bare'] - 1:+.1%})"
    )
    print(f"1 worker against its own chunks' engine time in the same run: {min(own):+.1%} (best of {args.repeats})")
    for label, p in (("1 worker ", p1), ("2 workers", p2)):
        print(
            f"  last run, {label}: submission → first chunk {p['to_first_chunk_s'] * 1000:.0f} ms, "
            f"chunk compute {p['chunk_compute_s']:.2f} s (summed), "
            f"last chunk → finished {p['last_chunk_to_finished_s'] * 1000:.0f} ms"
        )
    expected = {(0, t): s for t, s in expected.items()}
    same = all(selectors.episode_scores(experiment=e) == expected for e in runs)
    stored = ChunkResult.objects.filter(run__experiment__in=runs).count() == chunks * len(runs)
    print(f"same scores everywhere: {same}; every chunk stored once: {stored}")
    load_after = os.getloadavg()
    return {
        "overhead": round(best["one_worker"] / bare - 1, 4),
        "overhead_in_process": round(best["in_process"] / bare - 1, 4),
        "speedup_2_workers": round(best["one_worker"] / best["two_workers"], 3),
        "bare_s": round(bare, 3),
        "in_process_s": round(best["in_process"], 3),
        "one_worker_s": round(best["one_worker"], 3),
        "two_workers_s": round(best["two_workers"], 3),
        "per_chunk_ms": round((best["one_worker"] - bare) / chunks * 1000, 2),
        "overhead_vs_chunk_compute": round(min(own), 4),
        "overhead_cpu": round(best_cpu["one_worker"] / best_cpu["bare"] - 1, 4),
        "overhead_cpu_in_process": round(best_cpu["in_process"] / best_cpu["bare"] - 1, 4),
        "overhead_cpu_2_workers": round(best_cpu["two_workers"] / best_cpu["bare"] - 1, 4),
        "episodes": episodes * len(TYPES),
        "chunks": chunks,
        "repeats": args.repeats,
        "times": {k: [round(x, 3) for x in v] for k, v in times.items()},
        "cpu_s": {k: [round(x, 3) for x in v] for k, v in cpu.items()},
        "chunk_compute_s": {k: [round(x, 3) for x in v] for k, v in computed.items()},
        "identical_scores": same,
        "cpus": os.cpu_count(),
        "load": [round(load_before[0], 2), round(load_after[0], 2)],
    }


def main(argv=None) -> int:
    args = parse_args(argv)
    return harness.main("lambdastar_celery", lambda: run(args), args, argv)


if __name__ == "__main__":
    sys.exit(main())
