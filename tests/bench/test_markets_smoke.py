"""Smoke test of bench.markets: a tiny run on the PostgreSQL server DATABASE_URL names (the
benchmark creates and drops its own database there), pushes through Redis when REDIS_URL is set."""

import json
import os

import pytest

from tests.bench.conftest import run_benchmark

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL (DATABASE_URL=postgres://...)",
    ),
]


def test_a_tiny_run_prints_sound_figures_on_its_json_last_line():
    result = run_benchmark(
        "markets",
        "--workers",
        "2",
        "--seconds",
        "1",
        "--rounds",
        "1",
        "--pushes",
        "redis" if os.environ.get("REDIS_URL") else "memory",
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"trades_per_s", "baseline_tps", "ratio", "violations", "trades_per_s_8_games"} <= figures.keys()
    assert figures["violations"] == 0 and figures["refused"] == 0
    assert figures["trades_per_s"] > 0 and figures["baseline_tps"] > 0 and figures["orm_path_trades_per_s"] > 0
    assert figures["pushes"] == ("redis" if os.environ.get("REDIS_URL") else "memory")
    assert figures["ratio"] == pytest.approx(figures["trades_per_s"] / figures["baseline_tps"], abs=0.001)
    assert "cleaned up" in result.stderr
