"""Smoke test of bench/chat_latency.py: a tiny run through daphne, PostgreSQL and Redis.

Services mode only (DATABASE_URL and REDIS_URL set): the benchmark creates and drops its own
database on that server and uses a private channel-layer prefix on that Redis.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench.conftest import services_only

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    *services_only,
]


def test_two_conversations_print_the_json_last_line():
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "chat_latency.py"), "--conversations", "2", "--messages", "3",
         "--pause-ms", "20", "--time-limit", "25"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    last = result.stdout.strip().splitlines()[-1]
    figures = json.loads(last)
    assert {"p50_ms", "p99_ms", "baseline_p99_ms", "ratio"} <= figures.keys()
    assert figures["messages"] == 2 * 2 * 3 and figures["lost"] == 0 and figures["errors"] == 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["baseline_p99_ms"] > 0
    assert figures["ratio"] == pytest.approx(figures["p99_ms"] / figures["baseline_p99_ms"], rel=0.01)
    assert "cleaned up" in result.stderr
