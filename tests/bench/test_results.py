"""Recorded benchmark figures (bench/results.py) and their table in the docs (docs/hooks/bench_figures.py).
No services needed."""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from bench import results
from tests.bench.conftest import ROOT
from tests.bench.test_modules import BENCHMARKS

MARKETS = {"trades_per_s": 2482.3, "baseline_tps": 3883.0, "ratio": 0.639, "violations": 0, "refused": 2}


def hook():
    spec = importlib.util.spec_from_file_location("bench_figures_hook", ROOT / "docs" / "hooks" / "bench_figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


# --- recording --------------------------------------------------------------------------------------------
def test_record_appends_the_result_unchanged_with_date_commit_machine_and_command(tmp_path):
    path = tmp_path / "markets.jsonl"
    argv = ["--seconds", "2", "--record-to", str(path)]
    assert results.record("markets", MARKETS, argv, path) == path
    results.record("markets", {**MARKETS, "trades_per_s": 1.0}, argv, path)

    first, second = (json.loads(line) for line in path.read_text().splitlines())
    assert first["result"] == MARKETS and second["result"]["trades_per_s"] == 1.0
    assert first["benchmark"] == "markets"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", first["date"])
    assert first["commit"]["hash"] == git("rev-parse", "--short", "HEAD")
    assert isinstance(first["commit"]["dirty"], bool)
    machine = first["machine"]
    assert machine["cores"] == os.cpu_count() and len(machine["load_average"]) == 3
    assert machine["python"] == ".".join(map(str, sys.version_info[:3]))
    assert machine["mode"] in ("services", "embedded", "PostgreSQL without Redis", "SQLite with Redis")
    assert first["argv"] == argv
    assert first["command"] == f"python -m bench.markets --seconds 2 --record-to {path}"


def test_the_entry_names_the_headline_the_baseline_and_the_target(tmp_path):
    path = results.record("markets", MARKETS, [], tmp_path / "m.jsonl")
    figures = json.loads(path.read_text())["figures"]
    assert figures["headline"] == {"key": "trades_per_s", "label": "one game", "unit": "trades/s", "value": 2482.3}
    assert figures["baseline"]["key"] == "baseline_tps" and figures["baseline"]["value"] == 3883.0
    assert figures["target"]["met"] is True and figures["target"]["text"]
    assert figures["measures"]


def test_the_platform_mode_is_read_from_the_environment():
    assert results.mode({"DATABASE_URL": "postgres://root@127.0.0.1/x", "REDIS_URL": "redis://h/1"}) == "services"
    assert results.mode({}) == "embedded"
    assert results.mode({"DATABASE_URL": "sqlite:////tmp/db.sqlite3"}) == "embedded"
    assert results.mode({"DATABASE_URL": "postgres://h/x"}) == "PostgreSQL without Redis"


def test_the_target_is_met_only_when_every_check_holds():
    tables = results.FIGURES["tables"]
    assert results.met(tables, {"platform_ms_p95": 7.1, "speedup_2_workers": 1.9}) is True
    assert results.met(tables, {"platform_ms_p95": 7.1, "speedup_2_workers": 1.5}) is False
    assert results.met(tables, {"platform_ms_p95": float("nan"), "speedup_2_workers": 1.9}) is None
    assert results.met(tables, {"platform_ms_p95": 12.0}) is False  # one failed check decides
    assert results.met(results.FIGURES["bots"], {"engines": {}}) is None  # no target set
    loebner = results.FIGURES["loebner_qualifying"]
    assert results.met(loebner, {"concurrent_s": 6.9, "slowest_entry_s": 6.8}) is True
    assert results.met(loebner, {"concurrent_s": 17.3, "slowest_entry_s": 6.8}) is False
    speed = results.FIGURES["lambdastar_speed"]
    assert results.met(speed, {"reference-2016/pcg64": {"ls": 16.4e6}}) is True


def test_every_benchmark_has_one_entry_whose_keys_it_prints():
    assert sorted(results.FIGURES) == sorted(BENCHMARKS)
    for name, spec in results.FIGURES.items():
        source = (ROOT / "bench" / f"{name}.py").read_text()
        keys = [spec.headline.key] + ([spec.baseline.key] if spec.baseline else [])
        keys += [results.CHECK.match(check).group(1) for check in spec.checks]
        for key in keys:
            if name != "lambdastar_speed":  # its keys are its modes and types, made at run time
                assert f'"{key.rsplit(".", 1)[-1]}"' in source, (name, key)


def test_the_record_options_parse_and_exclude_each_other(tmp_path, capsys):
    parser = results.add_options(argparse.ArgumentParser())
    assert parser.parse_args([]).record is False and parser.parse_args([]).record_to is None
    assert parser.parse_args(["--record"]).record is True
    assert parser.parse_args(["--record-to", str(tmp_path / "x.jsonl")]).record_to == tmp_path / "x.jsonl"
    with pytest.raises(SystemExit):
        parser.parse_args(["--record", "--record-to", "x.jsonl"])
    assert results.record_if_asked("markets", MARKETS, parser.parse_args([])) is None
    written = results.record_if_asked("markets", MARKETS, parser.parse_args(["--record-to", str(tmp_path / "r.jsonl")]))
    assert written == tmp_path / "r.jsonl" and json.loads(written.read_text())["result"] == MARKETS


@pytest.mark.slow
def test_a_benchmark_run_with_record_to_prints_the_same_json_it_records(tmp_path):
    path = tmp_path / "ratings.jsonl"
    args = ["--systems", "5", "--battles", "2000", "--replicates", "4", "--baseline-replicates", "2"]
    run = subprocess.run(
        [sys.executable, "-m", "bench.ratings", *args, "--record-to", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    printed = json.loads(run.stdout.strip().splitlines()[-1])
    assert "recorded" not in run.stdout
    entry = json.loads(path.read_text())
    assert entry["result"] == printed
    assert entry["argv"] == [*args, "--record-to", str(path)]
    assert entry["figures"]["headline"]["value"] == printed["seconds"]
    assert entry["figures"]["baseline"]["value"] == printed["baseline_seconds"]
    assert entry["figures"]["target"]["met"] is printed["met"]


# --- the docs' table ----------------------------------------------------------------------------------------
def test_a_benchmark_without_a_record_says_not_recorded_yet(tmp_path):
    table = hook().table(tmp_path)
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert len(rows) == len(BENCHMARKS)
    for name, line in zip(results.FIGURES, rows):
        assert f"`{name}`" in line and "not recorded yet" in line and f"`python -m bench.{name} --record`" in line


def test_the_table_shows_the_latest_record(tmp_path):
    results.record(
        "markets", {**MARKETS, "trades_per_s": 1.0, "ratio": 0.1}, ["--seconds", "1"], tmp_path / "markets.jsonl"
    )
    results.record("markets", MARKETS, ["--seconds", "2", "--record"], tmp_path / "markets.jsonl")
    line = next(line for line in hook().table(tmp_path).splitlines() if line.startswith("| `markets`"))
    cells = [cell.strip() for cell in line.strip("|").split(" | ")]
    assert cells[1] == "one game: 2,482 trades/s"
    assert cells[2] == "single-row UPDATE: 3,883 tx/s"
    assert cells[3] == results.FIGURES["markets"].target and cells[4] == "met"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", cells[5])
    assert cells[6].startswith(f"`{git('rev-parse', '--short', 'HEAD')}`")
    assert cells[7].startswith(f"{os.cpu_count()} cores, load ")
    assert cells[8] == "`python -m bench.markets --seconds 2 --record`"


def test_a_missed_target_and_a_damaged_record_are_shown_as_such(tmp_path):
    results.record("markets", {**MARKETS, "ratio": 0.3}, [], tmp_path / "markets.jsonl")
    (tmp_path / "tables.jsonl").write_text("{not json\n")
    table = hook().table(tmp_path)
    assert "| not met |" in next(line for line in table.splitlines() if line.startswith("| `markets`"))
    assert "unreadable record" in next(line for line in table.splitlines() if line.startswith("| `tables`"))


def test_the_hook_replaces_the_marker_line_only():
    module = hook()
    page = "# Benchmarks\n\n## Latest figures\n\n<!-- bench:figures -->\n\nMore text.\n"
    out = module.on_page_markdown(page)
    assert "<!-- bench:figures -->" not in out
    assert "| Benchmark | Headline figure | Baseline (same run) | Target | Met? | Date | Commit | Machine |" in out
    assert out.startswith("# Benchmarks\n\n## Latest figures\n\n| Benchmark") and out.endswith("\n\nMore text.\n")
    assert module.on_page_markdown("# Elsewhere\n") == "# Elsewhere\n"
