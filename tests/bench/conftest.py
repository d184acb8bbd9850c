import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The benchmarks create and drop their own database on the PostgreSQL server and use a private
# key prefix on the Redis server that DATABASE_URL and REDIS_URL name.
services_only = [
    pytest.mark.slow,
    pytest.mark.redis,
    pytest.mark.skipif(
        not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        reason="needs DATABASE_URL and REDIS_URL (services mode)",
    ),
]


def run_benchmark(module: str, *args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    """`python -m bench.<module> ARGS` from the repository's root, as the README runs it. The timeout is a
    hang guard, not a speed check: setting up (a database, its migrations, daphne, workers) on a loaded
    2-core machine took over 60 s. The runs clone their database from a migrated template kept on the
    server (ARENA_BENCH_TEMPLATE, bench/harness.py): migrating afresh cost each of them 7-20 s."""
    return subprocess.run(
        [sys.executable, "-m", f"bench.{module}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "ARENA_BENCH_TEMPLATE": "1"},
    )
