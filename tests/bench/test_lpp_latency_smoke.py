"""Smoke test of bench.lpp_latency: one bridged keystroke-mode conversation, 20 keys, and the log reader.

Services mode only (DATABASE_URL and REDIS_URL set): the benchmark creates and drops its own
database on that server and uses a private channel-layer prefix on that Redis.
"""

import json
import re

import pytest

from tests.bench.conftest import run_benchmark, services_only
from tests.data_files import LOEBNER2012

pytestmark = [
    *services_only,
    pytest.mark.skipif(not any(LOEBNER2012.glob("*.log")), reason=f"no 2012 logs in {LOEBNER2012}"),
]


def test_one_bridged_conversation_prints_the_json_last_line(tmp_path):
    result = run_benchmark(
        "lpp_latency",
        "--conversations",
        "1",
        "--keys",
        "20",
        "--reader-seconds",
        "0.3",
        "--key-timeout",
        "5",
        "--lpp2-lines",
        "25",
        "--time-limit",
        "60",
        "--trace",
        str(tmp_path / "stamps.json"),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert {
        "p50_ms",
        "p99_ms",
        "baseline_p99_ms",
        "keystrokes_per_s",
        "baseline_bytes_per_s",
        "baseline_lines_per_s",
    } <= figures.keys()
    assert figures["keys"] == 20 and figures["lost"] == 0 and figures["mismatched"] == 0 and figures["errors"] == 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["baseline_p99_ms"] > 0
    assert figures["keystrokes_per_s"] > 0 and figures["baseline_bytes_per_s"] > 0
    assert figures["wake"] == "inotify" and figures["poll_s"] > 0
    # LPP2 lines beside their own baselines: the target is 2 x the bare p99 + the commit's p99
    assert figures["lpp2_lost"] == 0 and figures["lpp2_first_line_max_ms"] > 0
    assert figures["lpp2_baseline_p99_ms"] > 0 and figures["lpp2_commit_p99_ms"] > 0
    assert figures["lpp2_target_ms"] == pytest.approx(
        2 * figures["lpp2_baseline_p99_ms"] + figures["lpp2_commit_p99_ms"], abs=0.01
    )
    assert figures["lpp2_target_met"] == (figures["lpp2_p99_ms"] <= figures["lpp2_target_ms"])
    low, high = figures["lpp2_target_ratio_ci95"]
    assert figures["lpp2_target_ratio"] == pytest.approx(figures["lpp2_p99_ms"] / figures["lpp2_target_ms"], abs=0.002)
    assert 0 < low <= high
    # beside it, the line's own append (a heavier statement than the one-row INSERT) in the commit's place
    assert figures["lpp2_append_p99_ms"] > 0
    assert figures["lpp2_target_append_ms"] == pytest.approx(
        2 * figures["lpp2_baseline_p99_ms"] + figures["lpp2_append_p99_ms"], abs=0.01
    )
    low, high = figures["lpp2_target_append_ratio_ci95"]
    assert 0 < low <= high
    assert "cleaned up" in result.stderr
    # --trace: each line's stamps inside daphne, beside the clients' own, the slowest 1% apart
    traced = result.stdout.split("where an LPP2 line's time goes", 1)[1]
    for gap in ("client_sent -> ws_in", "lpp2_sql -> lpp2_stored", "ws_out -> client_arrived"):
        assert gap in traced
    assert re.search(r"with every stamp; the slowest \d+ against the other", traced)
