"""Every benchmark runs as a module of the `bench` package (`python -m bench.<name>`), none edits sys.path,
every one takes --record and --record-to."""

import os
import subprocess
import sys

import pytest

from tests.bench.conftest import ROOT

BENCHMARKS = [
    "chat_latency",
    "lpp_latency",
    "markets",
    "conversation_markets",
    "lambdastar_celery",
    "lambdastar_speed",
    "bots",
    "ratings",
    "soak",
    "tables",
    "studies",
    "loebner_qualifying",
    "model_loading",
    "long_polls",
]


def test_no_benchmark_edits_sys_path():
    offenders = [
        str(path.relative_to(ROOT)) for path in (ROOT / "bench").rglob("*.py") if "sys.path" in path.read_text()
    ]
    assert offenders == []


@pytest.mark.slow
def test_every_benchmark_runs_as_a_module():
    assert sorted(BENCHMARKS) == sorted(
        p.stem
        for p in (ROOT / "bench").glob("*.py")
        if p.stem not in ("harness", "results", "settings", "asgi") and not p.stem.startswith("_")
    )
    runs = {
        name: subprocess.Popen(
            [sys.executable, "-m", f"bench.{name}", "--help"],
            cwd=ROOT,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in BENCHMARKS
    }
    for name, process in runs.items():
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, f"{name}: {err[-2000:]}"
        assert "usage:" in out, name
        assert "--record " in out and "--record-to FILE" in out, name  # bench/results.py's options


def test_the_harness_serves_daphne_as_a_module():
    result = subprocess.run(
        [sys.executable, "-m", "bench.harness"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert "python -m bench.harness --serve --port N" in result.stderr


@pytest.mark.slow
def test_the_bench_settings_add_the_tutorial_to_the_projects_own(tmp_path):
    code = (
        "import django; django.setup(); from django.conf import settings; import config.settings as c; "
        "from django.apps import apps; assert settings.INSTALLED_APPS == [*c.INSTALLED_APPS, 'bench.tutorial']; "
        "apps.get_model('bench_tutorial', 'ChatMessage'); "
        "from django.core.management import call_command; "
        "call_command('makemigrations', 'bench_tutorial', check=True, dry_run=True, verbosity=0)"
    )
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DJANGO_SETTINGS_MODULE="bench.settings", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
