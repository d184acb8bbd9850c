"""Smoke test of bench.chat_latency: a tiny run through daphne, PostgreSQL and Redis, with its baselines.

Services mode only (DATABASE_URL and REDIS_URL set): the benchmark creates and drops its own
database on that server and uses a private key prefix on that Redis.
"""

import json

import pytest

from tests.bench.conftest import run_benchmark, services_only

pytestmark = [
    *services_only,
]


def test_two_conversations_print_the_json_last_line_with_the_floor_and_the_tutorial():
    result = run_benchmark(
        "chat_latency", "--conversations", "2", "--messages", "3", "--pause-ms", "20", "--time-limit", "40"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"p50_ms", "p99_ms", "baseline_p99_ms", "ratio", "daphne_cpu_ms_per_delivery"} <= figures.keys()
    assert figures["messages"] == 2 * 2 * 3 and figures["lost"] == 0 and figures["errors"] == 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["baseline_p99_ms"] > 0
    assert figures["ratio"] == pytest.approx(figures["p99_ms"] / figures["baseline_p99_ms"], rel=0.01)
    assert "cleaned up" in result.stderr

    # The baselines, measured in the same run at the same pacing.
    # The floor: a bare round trip per conversation and round (as the bare baseline), each after its INSERT.
    assert figures["floor_messages"] == 2 * 3 and figures["floor_lost"] == 0
    # The tutorial's chat: driven as the platform's conversations are, both parties taking turns.
    assert figures["tutorial_messages"] == 2 * 2 * 3 and figures["tutorial_lost"] == 0
    assert figures["tutorial_errors"] == 0
    for key in (
        "floor_p50_ms",
        "floor_p99_ms",
        "tutorial_p50_ms",
        "tutorial_p99_ms",
        "floor_cpu_ms_per_delivery",
        "baseline_cpu_ms_per_delivery",
    ):
        assert figures[key] > 0, key
    assert figures["floor_p50_ms"] <= figures["floor_p99_ms"]
    assert figures["tutorial_p50_ms"] <= figures["tutorial_p99_ms"]
    # daphne's CPU is read in clock ticks (10 ms): a tiny run may round to zero, never be missing
    assert figures["tutorial_daphne_cpu_ms_per_delivery"] >= 0 and figures["daphne_cpu_ms_per_delivery"] >= 0
    assert figures["floor_ratio"] == pytest.approx(figures["p99_ms"] / figures["floor_p99_ms"], rel=0.01)
    assert figures["tutorial_ratio"] == pytest.approx(figures["p99_ms"] / figures["tutorial_p99_ms"], rel=0.01)
    assert figures["floor_target"] == 1.5 and figures["tutorial_target"] == 0.5
    # every delivery of every durable path wrote its row: the writes were measured, not skipped
    assert figures["rows_stored"] == {
        "platform": figures["messages"],
        "floor": figures["floor_messages"],
        "tutorial": figures["tutorial_messages"],
    }
    assert "x floor (target <= 1.5)" in result.stdout and "x tutorial (target <= 0.5)" in result.stdout
