"""Smoke test of bench.tables: two small games in-process, then on 1 and 2 real Celery workers started by
the harness (its throwaway database and broker keys, removed at the end). Services mode only; slow."""

import json

from tests.bench.conftest import run_benchmark, services_only

pytestmark = [*services_only]


def test_small_games_print_the_platform_time_beside_the_calls_and_the_speed_up():
    result = run_benchmark("tables", "--games", "2", "--turns", "4", "--rounds", "2", timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["all_done"] is True and figures["turns"] == 8
    ones, twos = figures["one_worker_runs_s"], figures["two_workers_runs_s"]  # alternated rounds, medians
    assert len(figures["speedups"]) == len(ones) == len(twos) == 2
    assert figures["one_worker_s"] == sorted(ones)[1] and figures["two_workers_s"] == sorted(twos)[1]
    assert figures["platform_ms_p95"] > 0 and figures["bare_call_ms_p50"] > 0 and figures["speedup_2_workers"] > 0
    assert "baseline, the same turns' LLM calls" in result.stdout
    assert result.stdout.count("cores busy: workers") == 2  # what kept the machine busy, each worker phase
    assert "cleaned up" in result.stderr
