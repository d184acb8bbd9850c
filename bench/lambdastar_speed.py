"""Speed benchmark of the Λ* engine: agent-steps per second per agent type and mode.

An agent-step is one agent acting in one test iteration (episodes × T × N); the 100 training
episodes of the learning types are part of their cost but are not counted as steps.

    .venv/bin/python -m bench.lambdastar_speed [--episodes 200] [--grid 10] [--agents 5] [-T 100]

Rates are per CPU second of this process (``time.process_time``), so other load on a shared
machine inflates them less than wall-clock time would (the --full-glibc figure is CPU time too).
Baselines printed alongside: a plain-Python (unoptimised) local-search loop measured in the same
run, and the original C++ program's figures (quoted, not measured here).

``--jobs 2`` (the command line's worker processes) is measured in the same run against ``--jobs 1``
on the same work, in wall-clock time (CPU time would hide the workers), for the non-learning and
the learning types of each parallel mode; the scores of both runs are checked equal.  The load
average is printed beside it: on a shared machine the speed-up is bounded by the idle cores.

The CPU seconds of both runs (this process and its workers) are printed too: equal CPU means the
workers add no work, and the wall-clock speed-up then depends only on free cores.

The LAST line is one JSON object {"<rules>/<rng>": {type: agent-steps per second}, ...} with one
more key, "jobs": {"<rules>/<rng>": {"non-learning"|"learning": {"jobs1", "jobs2", "speedup",
"cpu_s_jobs1", "cpu_s_jobs2"}}} (rates in agent-steps per wall-clock second).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import time

from bench.results import add_options, record_if_asked
from lambdastar.engine import EngineConfig
from lambdastar.engine.cli import iter_results
from lambdastar.engine.config import LEARNING_TYPES
from lambdastar.engine.grid import neighbourhood_table, reward_field
from lambdastar.engine.runner import run, run_all

CPP_NOTE = (
    "C++ reference (quoted, not measured): non-learning agents ~0.6-1.2 M agent-steps/s; "
    "all 13 types on 10x10, N=5, T=50, W=1000 take ~60 s (~21 episodes/s)"
)


def python_baseline(n: int, T: int, N: int, episodes: int) -> float:
    """Plain-Python local search (no numba, no NumPy in the loop): agent-steps per second."""
    nb = neighbourhood_table(n).tolist()
    S = n * n
    rng = random.Random(1)
    start = time.process_time()
    for _ in range(episodes):
        good = rng.randrange(1, S + 1)
        pos = [rng.randrange(1, S + 1) for _ in range(N)]
        field = reward_field(n, good, (good + S // 3) % S + 1).tolist()
        for _t in range(T):
            for i in range(N):
                vals = [field[c] for c in nb[pos[i]]]
                m = max(vals)
                best = [k for k in range(9) if vals[k] == m]
                pos[i] = nb[pos[i]][best[rng.randrange(len(best))]]
            good = nb[good][rng.randrange(9)]
            field = [0.0] * (S + 1)
            for c in nb[good]:
                field[c] += 0.5
            field[good] += 0.5
    return episodes * T * N / (time.process_time() - start)


def measure(config: EngineConfig, agent_type: str, runner) -> float:
    runner(config.replace(episodes=2), agent_type)  # compile / warm caches
    start = time.process_time()
    runner(config, agent_type)
    elapsed = time.process_time() - start
    return config.episodes * config.iterations * config.agents / elapsed


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def jobs_rate(config: EngineConfig, jobs: int) -> tuple[float, float, dict[str, list[float]]]:
    """Wall-clock agent-steps per second of the command line's work loop with ``jobs`` worker
    processes, the CPU seconds it used (this process and its finished workers), and the scores
    (to check that both runs did the same work)."""
    scores: dict[str, list[float]] = {t: [] for t in config.types}
    cpu = _cpu()
    start = time.perf_counter()
    for t, part in iter_results(config, jobs):  # the pool is joined when this loop ends
        scores[t].extend(part.tolist())
    elapsed = time.perf_counter() - start
    steps = sum(len(v) for v in scores.values()) * config.iterations * config.agents
    return steps / elapsed, _cpu() - cpu, scores


def measure_jobs(base: EngineConfig, modes, episodes: int, learn_eps: int) -> dict:
    """``--jobs 1`` and ``--jobs 2`` on the same work, per parallel mode and type group."""
    out: dict[str, dict] = {}
    for rules, rng in modes:
        if rng == "glibc":
            continue  # one sequential stream: no --jobs
        key = f"{rules}/{rng}"
        out[key] = {}
        for group, eps in (("non-learning", episodes), ("learning", learn_eps)):
            types = tuple(t for t in base.types if (t in LEARNING_TYPES) == (group == "learning"))
            if not types:
                continue
            cfg = base.replace(rules=rules, rng=rng, episodes=eps, types=types)
            jobs_rate(cfg.replace(episodes=2), 1)  # compile / warm caches
            load = os.getloadavg()[0]
            r1, c1, s1 = jobs_rate(cfg, 1)
            r2, c2, s2 = jobs_rate(cfg, 2)
            if s1 != s2:
                raise SystemExit(f"{key} {group}: --jobs 2 gave other scores than --jobs 1")
            out[key][group] = {
                "jobs1": round(r1, 1),
                "jobs2": round(r2, 1),
                "speedup": round(r2 / r1, 3),
                "cpu_s_jobs1": round(c1, 3),
                "cpu_s_jobs2": round(c2, 3),
            }
            print(
                f"{key:24s} {group:12s} --jobs 1 {r1:14,.0f}  --jobs 2 {r2:14,.0f} agent-steps/s "
                f"(wall)  speed-up {r2 / r1:.2f}x; CPU {c1:.2f} s vs {c2:.2f} s  ({eps} episodes "
                f"x {len(types)} types, load {load:.1f} on {os.cpu_count()} CPUs)",
                flush=True,
            )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=200, help="episodes per non-learning type")
    ap.add_argument(
        "--learning-episodes",
        type=int,
        default=0,
        help="episodes per learning type (default: episodes / 10, at least 5)",
    )
    ap.add_argument("--grid", type=int, default=10)
    ap.add_argument("--agents", type=int, default=5)
    ap.add_argument("--iterations", "-T", type=int, default=100)
    ap.add_argument("--types", default="all")
    ap.add_argument(
        "--jobs-episodes",
        type=int,
        default=0,
        help="episodes per non-learning type in the --jobs 1/2 comparison (default "
        "20 x --episodes); the learning types run a 40th of them",
    )
    ap.add_argument("--no-jobs", action="store_true", help="skip the --jobs 1/2 comparison")
    ap.add_argument(
        "--full-glibc",
        action="store_true",
        help="also time all 13 types together in glibc mode on 10x10, N=5, T=50, W=1000",
    )
    args = add_options(ap).parse_args()
    learn_eps = args.learning_episodes or max(5, args.episodes // 10)
    base = EngineConfig.create(
        width=args.grid,
        height=args.grid,
        agents=args.agents,
        iterations=args.iterations,
        episodes=args.episodes,
        types=args.types,
    )
    types = base.types

    modes = [("reference-2016", "glibc"), ("reference-2016", "pcg64")]
    paper = None
    if importlib.util.find_spec("lambdastar.engine.paper") is not None:
        paper = importlib.import_module("lambdastar.engine.paper")
        modes.insert(0, ("paper", "pcg64"))

    def ref_runner(cfg, t):
        # glibc: the type runs alone (its own stream); pcg64: per-type streams anyway
        return run(cfg.replace(types=(t,)), t)

    def paper_runner(cfg, t):
        return paper.run_episodes(cfg, t, range(cfg.episodes))

    results: dict[str, dict] = {}
    for rules, rng in modes:
        key = f"{rules}/{rng}"
        results[key] = {}
        for t in types:
            eps = learn_eps if t in LEARNING_TYPES else args.episodes
            cfg = base.replace(rules=rules, rng=rng, episodes=eps)
            try:
                rate = measure(cfg, t, paper_runner if rules == "paper" else ref_runner)
            except Exception as exc:  # a mode that cannot run a type is reported, not fatal
                print(f"{key:24s} {t:10s} failed: {exc}", flush=True)
                continue
            results[key][t] = round(rate, 1)
            print(f"{key:24s} {t:10s} {rate:14,.0f} agent-steps/s  ({eps} episodes)", flush=True)

    py = python_baseline(args.grid, args.iterations, args.agents, max(3, args.episodes // 20))
    print(f"{'baseline plain-Python ls':35s} {py:14,.0f} agent-steps/s (measured now)")
    if "ls" in results.get("reference-2016/pcg64", {}):
        print(
            f"speed-up of reference-2016/pcg64 ls over plain Python: {results['reference-2016/pcg64']['ls'] / py:,.0f}x"
        )
    print(CPP_NOTE)
    if not args.no_jobs:
        jobs_eps = args.jobs_episodes or 20 * args.episodes
        results["jobs"] = measure_jobs(base, modes, jobs_eps, max(4, jobs_eps // 40))
    if args.full_glibc:
        cfg = EngineConfig.create(
            rng="glibc", width=10, height=10, agents=5, iterations=50, episodes=1000, types="all", seed=1
        )
        run_all(cfg.replace(episodes=2))
        start = time.process_time()
        run_all(cfg)
        print(
            f"reference-2016/glibc all 13 types, 10x10 N=5 T=50 W=1000: "
            f"{time.process_time() - start:.1f} s (C++: ~60 s)"
        )
    print(json.dumps(results))
    record_if_asked("lambdastar_speed", results, args)


if __name__ == "__main__":
    main()
