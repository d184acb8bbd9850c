"""daphne's process freezes its start-up heap out of the cyclic collector, so that a full collection
scans only what the server made since (core.gcpolicy); ARENA_GC_FREEZE=0 leaves the collector as it is."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import gc, time; import config.asgi; frozen = gc.get_freeze_count(); "
    "started = time.perf_counter(); gc.collect(); print(frozen, (time.perf_counter() - started) * 1000)"
)


def serve_and_collect(freeze: str) -> tuple[int, float]:
    env = {
        **os.environ,
        "ARENA_GC_FREEZE": freeze,
        "ARENA_EMBEDDED_BEAT": "0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
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


WORKER_PROBE = (
    "import gc, sys, django; django.setup(); from celery.signals import worker_init; import config.celery_app; "
    "before = 'openai' in sys.modules; worker_init.send(sender=None); "
    "print(before, 'openai' in sys.modules, gc.get_freeze_count() > 0)"
)


@pytest.mark.slow
def test_a_workers_start_loads_the_llm_client_and_freezes_it_before_the_pool_forks():
    """A prefork pool process inherits what its worker loaded at start: its first LLM call (a Tables
    turn, a bot reply) does not wait 0.6 s for the openai SDK's import, and the SDK is in the frozen heap."""
    env = {**os.environ, "ARENA_GC_FREEZE": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
    out = subprocess.run(
        [sys.executable, "-c", WORKER_PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["False", "True", "True"]
