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
    return subprocess.run(
        [sys.executable, "-m", "lambdastar.engine", "run", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


SMALL = ["--grid", "5", "--iterations", "20", "--agents", "3", "--episodes", "10", "--seed", "2"]


@pytest.mark.slow
def test_jsonl_glibc_per_episode_matches_the_api_and_shows_progress():
    from lambdastar.engine import EngineConfig, run_all

    res = _cli(*SMALL, "--rng", "glibc", "--types", "ls,oracle,ql", "--per-episode")
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["type"] for r in rows] == ["ls", "oracle", "ql"]
    api = run_all(
        EngineConfig.create(
            rng="glibc", seed=2, width=5, height=5, iterations=20, agents=3, episodes=10, types="ls,oracle,ql"
        )
    )
    for r in rows:
        assert r["episodes"] == api[r["type"]].tolist()
        assert r["mean"] == sum(r["episodes"]) / 10
        assert r["sem"] == pytest.approx(r["std"] / 10**0.5)
        assert r["config"]["rng"] == "glibc" and r["config"]["width"] == 5
    assert "%" in res.stderr  # tqdm progress bar on standard error


@pytest.mark.slow
def test_csv_pcg64_with_two_jobs_equals_one_job():
    one = _cli(*SMALL, "--types", "random,dict", "--format", "csv", "--no-progress")
    two = _cli(*SMALL, "--types", "random,dict", "--format", "csv", "--jobs", "2", "--block", "3", "--no-progress")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    rows = list(csv.DictReader(io.StringIO(one.stdout)))
    assert [r["type"] for r in rows] == ["random", "dict"]
    assert rows[0]["rng"] == "pcg64" and int(rows[0]["n_episodes"]) == 10
    assert one.stdout == two.stdout
    assert "episodes" not in rows[0] or rows[0]["episodes"] == "10"


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["reference-2016", "paper"])
def test_any_jobs_gives_the_same_per_episode_scores(rules):
    args = [
        "--rules",
        rules,
        "--grid",
        "5",
        "--iterations",
        "8",
        "--agents",
        "2",
        "--episodes",
        "7",
        "--seed",
        "3",
        "--per-episode",
        "--no-progress",
    ]
    one = _cli(*args)
    assert one.returncode == 0, one.stderr
    assert len(one.stdout.splitlines()) == 13
    for extra in (["--jobs", "2"], ["--jobs", "3", "--block", "2"]):
        res = _cli(*args, *extra)
        assert res.returncode == 0, res.stderr
        assert res.stdout == one.stdout, extra


def test_work_units_split_each_type_into_contiguous_blocks():
    from lambdastar.engine import EngineConfig
    from lambdastar.engine.cli import work_units

    cfg = EngineConfig.create(episodes=10, types="ls,ql")
    assert work_units(cfg, 2) == [("ls", 0, 5), ("ls", 5, 10), ("ql", 0, 5), ("ql", 5, 10)]
    assert work_units(cfg, 3, 4) == [
        ("ls", 0, 4),
        ("ls", 4, 8),
        ("ls", 8, 10),
        ("ql", 0, 4),
        ("ql", 4, 8),
        ("ql", 8, 10),
    ]
    assert work_units(cfg.replace(episodes=1), 4) == [("ls", 0, 1), ("ql", 0, 1)]


@pytest.mark.parametrize(
    "args, flag",
    [
        (["--grid", "2"], "--width"),
        (["--agents", "0"], "--agents"),
        (["--types", "ls,psychic"], "--types"),
        (["--iterations", "0"], "--iterations"),
        (["--episodes", "0"], "--episodes"),
        (["--rng", "mt"], "--rng"),
        (["--complexity", "seven"], "--complexity"),
        (["--jobs", "0"], "--jobs"),
        (["--block", "-1"], "--block"),
        (["--width", "5", "--height", "6"], "--grid"),
        (["--seed", "-1"], "--seed"),
        (["--rng", "glibc", "--seed", str(2**32)], "--seed"),
        (["--collision", "sideways"], "--collision"),
        (["--coordination"], "--coordination"),
        (["--observation-range", "2"], "--observation-range"),
        (["--complexity", "2:5"], "--complexity"),
        (["--grid", "3", "--agents", "9"], "--agents"),
        (["--rules", "paper", "--complexity", "30:40"], "--complexity"),
        (["--rules", "paper", "--complexity", "9:3"], "--complexity"),
        (["--rules", "paper", "--rng", "glibc"], "--rng"),
        (["--rules", "paper", "--coordination", "--agents", "1"], "--coordination"),
        (["--rules", "paper", "--observation-range", "5"], "--observation-range"),
        (["--rules", "paper", "--grid", "3", "--agents", "10"], "--agents"),
        (["--rules", "paper", "--width", "2"], "--width"),
        (["--rules", "paper", "--types", "ls,psychic"], "--types"),
        (["--rules", "chess"], "--rules"),
    ],
)
def test_bad_options_exit_2_with_one_line_naming_the_option_before_any_work(args, flag, monkeypatch, capsys):
    from lambdastar.engine import cli

    def no_work(*a, **k):
        raise AssertionError("work started")

    monkeypatch.setattr(cli, "summarise", no_work)
    monkeypatch.setattr(cli, "iter_results", no_work)
    with pytest.raises(SystemExit) as exc:
        cli.main(["run", *args])
    out, err = capsys.readouterr()
    assert exc.value.code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert flag in err and "Traceback" not in err


def test_bad_option_in_a_subprocess_exits_2_without_traceback():
    res = _cli("--rules", "paper", "--complexity", "30:40")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "--complexity" in res.stderr


def test_warm_loads_the_kernels_of_the_rule_sets_asked_and_prints_one_json_line(capsys):
    from lambdastar.engine.cli import main

    assert main(["warm", "--rules", "reference-2016"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == ["reference-2016"] and out["seconds"] >= 0
    assert main(["warm"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == ["reference-2016", "paper"]
    with pytest.raises(SystemExit) as exit_:
        main(["warm", "--rules", "nope"])
    assert exit_.value.code == 2 and "--rules" in capsys.readouterr().err
