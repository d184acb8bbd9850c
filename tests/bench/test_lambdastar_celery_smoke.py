"""Smoke test of bench.lambdastar_celery: a tiny experiment on two real Celery workers started by the
harness (its throwaway database, its broker keys under the run's prefix, all removed at the end).

Services mode only (DATABASE_URL and REDIS_URL set); slow: the workers load the Λ* kernels first.
"""

import json

import pytest

from tests.bench.conftest import run_benchmark, services_only

pytestmark = [
    *services_only,
    pytest.mark.usefixtures("compiled_kernels"),  # the run's compiled kernels first (tests/prebuild.py)
]


def test_a_tiny_experiment_prints_its_overhead_beside_the_bare_engine():
    result = run_benchmark("lambdastar_celery", "--episodes", "100", "--repeats", "1", timeout=480)
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"overhead", "overhead_in_process", "speedup_2_workers", "bare_s", "per_chunk_ms"} <= figures.keys()
    assert figures["identical_scores"] is True and figures["episodes"] == 300
    assert figures["bare_s"] > 0 and figures["one_worker_s"] > 0 and figures["two_workers_s"] > 0
    assert "every chunk stored once: True" in result.stdout
    assert "cleaned up" in result.stderr
