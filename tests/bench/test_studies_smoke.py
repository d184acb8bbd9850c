"""Smoke test of bench.studies: a tiny run of players through the lobby and their games, with the bare
channel-layer baseline of the same run (services mode only)."""

import json

from tests.bench.conftest import run_benchmark, services_only

pytestmark = [*services_only]


def test_a_few_players_are_paired_and_chat_with_the_baseline_beside():
    result = run_benchmark(
        "studies", "--players", "8", "--rate", "8", "--messages", "2", "--pause-ms", "50", "--time-limit", "50"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["games"] == 4 and figures["messages"] == 4 * 2 * 2 and figures["lost"] == 0
    assert figures["errors"] == 0 and 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["lobby_wait_p99_ms"] >= 0 and figures["baseline_p99_ms"] > 0
    assert figures["client_lag_p99_ms"] >= 0 and figures["client_cores"] >= 0  # the players' own process
    assert "cleaned up" in result.stderr
