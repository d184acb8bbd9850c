"""python manage.py lambdastar run|status|export mirrors the page."""

import csv
import importlib.util
import io
import json

import pytest
from django.core.management import CommandError, call_command

from lambdastar.models import Experiment
from tests.conftest import make_user

from .conftest import tiny


@pytest.fixture
def config_file(tmp_path, db):
    make_user("admin", staff=True)
    path = tmp_path / "sweep.json"
    path.write_text(json.dumps({**tiny(), "seed": 5}))
    return path


def test_run_status_and_export(config_file, tmp_path, capsys, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # in this process, whatever the mode
    call_command("lambdastar", "run", str(config_file))
    experiment = Experiment.objects.get()
    assert (experiment.status, experiment.seed, experiment.name) == ("finished", 5, "sweep")
    out = capsys.readouterr().out
    assert "finished, 56/56 episodes" in out and "ls: mean" in out
    call_command("lambdastar", "export", str(experiment.pk), "--format", "csv", "--output", str(tmp_path / "e.csv"))
    rows = list(csv.DictReader((tmp_path / "e.csv").open()))
    call_command("lambdastar", "export", str(experiment.pk), "--format", "jsonl")
    lines = capsys.readouterr().out.splitlines()
    assert len(rows) == len(lines) == 56 and json.loads(lines[-1])["episode"] == 13
    call_command("lambdastar", "export", str(experiment.pk), "--what", "aggregates")
    assert len(list(csv.DictReader(io.StringIO(capsys.readouterr().out)))) == 4


def test_a_bad_file_names_the_option(tmp_path, db):
    make_user("admin", staff=True)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(tiny(iterations=0)))
    with pytest.raises(CommandError, match="iterations: must be ≥ 1, got 0"):
        call_command("lambdastar", "run", str(path))
    if importlib.util.find_spec("yaml"):
        return
    with pytest.raises(CommandError, match="YAML needs PyYAML"):
        (tmp_path / "c.yaml").write_text("rules: paper")
        call_command("lambdastar", "run", str(tmp_path / "c.yaml"))
