"""daphne's process freezes its start-up heap out of the cyclic collector, so that a full collection
scans only what the server made since (core.gcpolicy); ARENA_GC_FREEZE=0 leaves the collector as it is."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = ("import gc, time; import config.asgi; frozen = gc.get_freeze_count(); "
         "started = time.perf_counter(); gc.collect(); print(frozen, (time.perf_counter() - started) * 1000)")


def serve_and_collect(freeze: str) -> tuple[int, float]:
    env = {**os.environ, "ARENA_GC_FREEZE": freeze, "ARENA_EMBEDDED_BEAT": "0", "DJANGO_SETTINGS_MODULE": "config.settings"}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    frozen, ms = out.stdout.split()
    return int(frozen), float(ms)


@pytest.mark.slow
def test_the_servers_start_up_heap_is_left_out_of_full_collections():
    frozen, frozen_ms = serve_and_collect("1")
    plain, plain_ms = serve_and_collect("0")
    assert plain == 0 and frozen > 100_000  # Django, the apps and their imports
    assert frozen_ms < plain_ms  # a full collection scans less (the figures: core.gcpolicy)
