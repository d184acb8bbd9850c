"""A running kernel lets the process's other threads run: in the embedded default an experiment's chunks
run on a background thread of the server, whose event loop keeps serving every page meanwhile."""

import threading
import time

import pytest

from lambdastar.engine import EngineConfig, run


@pytest.mark.parametrize(("rules", "episodes"), [("paper", 12_000), ("reference-2016", 40_000)])  # ~0.5 s each
def test_other_threads_run_while_a_kernel_computes(rules, episodes):
    config = EngineConfig.create(rules=rules, rng="pcg64", seed=3, types="ls", episodes=episodes)
    run(config, "ls", episodes=range(2))  # loaded from the cache before timing
    started = time.perf_counter()
    run(config, "ls")
    alone = time.perf_counter() - started

    finished = threading.Event()
    worker = threading.Thread(target=lambda: (run(config, "ls"), finished.set()))
    ticks, last, longest = 0, time.perf_counter(), 0.0
    worker.start()
    while not finished.is_set():
        time.sleep(0.002)  # this thread needs the interpreter back after each sleep
        now = time.perf_counter()
        ticks, longest, last = ticks + 1, max(longest, now - last), now
    worker.join()
    assert alone > 0.2, "the run is too short to tell"
    assert longest < max(0.1, alone / 4), (longest, alone)  # never held up for a block's length
    assert ticks > 20
