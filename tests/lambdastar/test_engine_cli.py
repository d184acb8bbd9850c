"""``python -m lambdastar.engine run`` end to end."""

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "lambdastar.engine", "run", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


SMALL = ["--grid", "5", "--iterations", "20", "--agents", "3", "--episodes", "10", "--seed", "2"]


def test_jsonl_glibc_per_episode_matches_the_api_and_shows_progress():
    from lambdastar.engine import EngineConfig, run_all

    res = _cli(*SMALL, "--rng", "glibc", "--types", "ls,oracle,ql", "--per-episode")
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["type"] for r in rows] == ["ls", "oracle", "ql"]
    api = run_all(EngineConfig.create(rng="glibc", seed=2, width=5, height=5, iterations=20,
                                      agents=3, episodes=10, types="ls,oracle,ql"))
    for r in rows:
        assert r["episodes"] == api[r["type"]].tolist()
        assert r["mean"] == sum(r["episodes"]) / 10
        assert r["sem"] == pytest.approx(r["std"] / 10 ** 0.5)
        assert r["config"]["rng"] == "glibc" and r["config"]["width"] == 5
    assert "%" in res.stderr                   # tqdm progress bar on standard error


def test_csv_pcg64_with_two_jobs_equals_one_job():
    one = _cli(*SMALL, "--types", "random,dict", "--format", "csv", "--no-progress")
    two = _cli(*SMALL, "--types", "random,dict", "--format", "csv", "--jobs", "2", "--block", "3",
               "--no-progress")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    rows = list(csv.DictReader(io.StringIO(one.stdout)))
    assert [r["type"] for r in rows] == ["random", "dict"]
    assert rows[0]["rng"] == "pcg64" and int(rows[0]["n_episodes"]) == 10
    assert one.stdout == two.stdout
    assert "episodes" not in rows[0] or rows[0]["episodes"] == "10"


@pytest.mark.parametrize("args, flag", [
    (["--grid", "2"], "--width"),
    (["--agents", "0"], "--agents"),
    (["--types", "ls,psychic"], "--types"),
    (["--iterations", "0"], "--iterations"),
    (["--episodes", "0"], "--episodes"),
    (["--rng", "mt"], "--rng"),
    (["--complexity", "seven"], "--complexity"),
    (["--jobs", "0"], "--jobs"),
    (["--width", "5", "--height", "6"], "--grid"),
])
def test_bad_options_exit_2_naming_the_option(args, flag):
    res = _cli(*args)
    assert res.returncode == 2
    assert flag in res.stderr
    assert res.stdout == ""
