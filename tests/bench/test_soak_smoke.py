"""Smoke test of bench.soak: a 12-second soak through daphne, a Celery worker, PostgreSQL and Redis.

Services mode only (DATABASE_URL and REDIS_URL set): the benchmark creates and drops its own database
on that server and uses a private key prefix on that Redis.
"""

import json

from tests.bench.conftest import run_benchmark, services_only

pytestmark = [*services_only]


def test_a_short_soak_loses_nothing_and_prints_its_samples_and_the_json_last_line(tmp_path):
    memdiag = tmp_path / "memdiag.jsonl"
    # a bettor's trades stay under the per-user limit (ARENA_RATE_MESSAGE_PER_USER, 120 a minute): at one
    # every 100 ms a fast daphne let them reach it within the 12 s, and the refusals counted as errors
    result = run_benchmark(
        "soak",
        "--minutes",
        "0.2",
        "--conversations",
        "2",
        "--machines",
        "1",
        "--bettors",
        "2",
        "--pause-ms",
        "200",
        "--trade-pause-ms",
        "160",
        "--reconnect-every",
        "5",
        "--round-minutes",
        "0.05",
        "--memdiag",
        str(memdiag),
        "--memdiag-s",
        "2",
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    # traffic of every kind went through, and nothing was lost on the way
    assert figures["messages_sent"] > 0 and figures["bot_replies"] > 0 and figures["trades"] > 0
    assert figures["messages_delivered"] == figures["messages_sent"] == figures["messages_stored"]
    assert figures["bot_replies"] == figures["bot_replies_stored"] == figures["judge_to_machine"]
    assert figures["trades_stored"] == figures["trades"]
    assert figures["lost"] == 0 and figures["violations"] == 0 and figures["errors"] == 0
    assert figures["reconnects"] > 0
    # the samples: at least the first, a few under load, and their slopes
    assert figures["samples"] >= 4
    assert set(figures["slopes_per_min"]) == {"pg", "redis", "ws", "daphne_mb", "worker_mb", "daphne_fds", "worker_fds"}
    assert figures["first"]["ws"] >= 4  # the pages' sockets on daphne (7, less any reloading right then)
    assert figures["first"]["pg"] >= 1 and figures["first"]["daphne_mb"] > 0 and figures["first"]["worker_fds"] > 0
    assert figures["after_close"]["ws"] == 0
    assert "slope per minute" in result.stdout and "daphne_mb" in result.stdout
    assert "cleaned up" in result.stderr
    # conversations moved on to new rounds, and daphne's own memory samples were summarised
    assert figures["rounds"] > 0 and figures["reconnect_failures"] == 0
    assert len(memdiag.read_text().splitlines()) >= 3 and figures["memdiag"] == str(memdiag)
    assert "pymalloc.arenas_mb" in result.stdout and "types grown most" in result.stdout
