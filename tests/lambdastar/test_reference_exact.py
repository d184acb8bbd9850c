"""reference-2016 with --rng glibc reproduces the original C++ program bit for bit."""

import json

import numpy as np
import pytest

from lambdastar.engine import AGENT_TYPES, EngineConfig, run, run_all
from lambdastar.engine.runner import trace
from tests.data_files import LAMBDASTAR as DATA

assert DATA.is_dir(), f"Λ* reference vectors not found at {DATA} (set SHARED_DIR)"


def _config(enabled, **kw):
    types = "all" if enabled == "all" else enabled
    return EngineConfig.create(
        rules="reference-2016",
        rng="glibc",
        seed=2,
        width=5,
        height=5,
        iterations=20,
        agents=3,
        episodes=10,
        types=types,
        **kw,
    )


def _vectors():
    return [
        json.loads(line) for line in (DATA / "exact_n5_T20_N3_seed2.jsonl").read_text().splitlines() if line.strip()
    ]


@pytest.fixture(scope="module")
def all_types_scores():
    return run_all(_config("all"))


def test_every_type_run_alone_gives_the_cpp_scores():
    rows = [r for r in _vectors() if r["enabled"] != "all"]
    assert {r["type"] for r in rows} == set(AGENT_TYPES)
    for r in rows:
        scores = run(_config(r["enabled"]), r["type"])
        assert scores.tolist() == r["episodes"], r["type"]
        assert sum(scores.tolist()) / len(scores) == r["mean"], r["type"]


def test_all_types_together_give_the_cpp_scores(all_types_scores):
    rows = [r for r in _vectors() if r["enabled"] == "all"]
    assert len(rows) == 13
    for r in rows:
        assert all_types_scores[r["type"]].tolist() == r["episodes"], r["type"]


def test_bt_is_ls_exactly(all_types_scores):
    alone_ls = run(_config("ls"), "ls")
    alone_bt = run(_config("bt"), "bt")
    assert alone_ls.tolist() == alone_bt.tolist()


@pytest.mark.parametrize("name", ["all", "ls", "oracle", "ql", "random"])
def test_positions_follow_the_cpp_traces(name):
    path = DATA / f"trace_{name}_n5_T20_N3_s2.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    positions = trace(_config(name))
    for r in rows:
        step = positions[r["ep"], r["t"] - 1]
        assert (step[13, 0], step[14, 0]) == (r["good"], r["evil"]), (r["ep"], r["t"])
        for k, t in enumerate(AGENT_TYPES):
            if t in r:
                assert step[k].tolist() == r[t], (t, r["ep"], r["t"])


def test_a_later_episode_range_is_the_same_as_the_full_run(all_types_scores):
    part = run(_config("all"), "woc", range(4, 8))
    assert np.array_equal(part, all_types_scores["woc"][4:8])
