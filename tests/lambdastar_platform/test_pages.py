"""The experiment page, its plots and downloads, the REST endpoints: what an owner and others see."""

import csv
import io
import json

import pytest

from lambdastar import figures, services
from tests.conftest import make_user

from .conftest import tiny


@pytest.fixture
def finished(researcher):
    config = tiny(sweep={"agents": [1, 2], "grid": [5, 6]}, types=["ls", "woc", "random"], episodes=6)
    del config["grid"]
    experiment = services.experiment_create(owner=researcher, name="grid <and> N", configuration=config, seed=3)
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    services.experiment_execute(experiment_id=experiment.pk)
    experiment.refresh_from_db()
    return experiment


def body(response) -> str:
    return b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()


def test_the_owner_sees_every_plot_with_its_data(client, researcher, finished):
    client.force_login(researcher)
    page = client.get(f"/lambdastar/experiments/{finished.pk}/").content.decode()
    assert figures.figures_available(experiment=finished) == ["types", "grid", "agents", "complexity"]
    results = client.get(f"/lambdastar/experiments/{finished.pk}/results.json").json()
    assert [f["name"] for f in results["figures"]] == ["types", "grid", "agents", "complexity"]
    for name in ("types", "grid", "agents", "complexity"):
        assert f'plots/{name}.svg"' in page  # the plots without JavaScript
        rows = list(
            csv.DictReader(io.StringIO(body(client.get(f"/lambdastar/experiments/{finished.pk}/plots/{name}.csv"))))
        )
        assert rows and set(rows[0]) == set(figures.CSV_FIELDS)
    assert "grid &lt;and&gt; N" in page and "<and>" not in page
    assert any(r["series"] == "woc (collective)" for r in results["figures"][1]["rows"])
    types = {r["x"]: r for r in figures.figure_rows(experiment=finished, name="types")}
    assert set(types) == {"ls", "woc", "random"} and types["ls"]["n"] == 6 * 4
    assert len(results["table"]) == 12 and page.count('<td class="ci">') == 12
    svg = client.get(f"/lambdastar/experiments/{finished.pk}/plots/types.svg")
    assert svg["Content-Type"] == "image/svg+xml" and body(svg).startswith("<svg")


def test_every_episode_downloads_as_csv_and_json_lines(client, researcher, finished):
    client.force_login(researcher)
    rows = list(csv.DictReader(io.StringIO(body(client.get(f"/lambdastar/experiments/{finished.pk}/episodes.csv")))))
    lines = body(client.get(f"/lambdastar/experiments/{finished.pk}/episodes.jsonl")).splitlines()
    assert len(rows) == len(lines) == finished.total_episodes == 6 * 3 * 4
    first = json.loads(lines[0])
    assert first["seed"] == 3 and first["episode"] == 0 and first["run"] == 1 and first["complexity"] is not None
    assert float(rows[0]["score"]) == first["score"]


def test_others_see_nothing_of_a_draft_or_a_running_experiment(client, researcher):
    draft = services.experiment_create(owner=researcher, name="secret-draft", configuration=tiny(), seed=3)
    queued = services.experiment_create(owner=researcher, name="secret-queued", configuration=tiny(), seed=3)
    services.experiment_launch(experiment_id=queued.pk, enqueue=False)
    client.force_login(make_user("oscar"))
    for experiment in (draft, queued):
        for suffix in ("", "results.json", "episodes.csv", "plots/types.csv", "launch/"):
            assert client.get(f"/lambdastar/experiments/{experiment.pk}/{suffix}").status_code == 404
    assert client.get("/api/lambdastar/episodes/").json()["count"] == 0
    assert "secret-" not in client.get("/lambdastar/experiments/").content.decode()


def test_the_api_lists_experiments_runs_aggregates_and_paginated_episodes(client, researcher, finished):
    client.force_login(researcher)
    experiments = client.get("/api/lambdastar/experiments/").json()
    assert [e["id"] for e in experiments["results"]] == [finished.pk]
    assert client.get(f"/api/lambdastar/runs/?experiment={finished.pk}").json()["count"] == 4
    assert client.get(f"/api/lambdastar/aggregates/?experiment={finished.pk}").json()["count"] == 12
    page = client.get(f"/api/lambdastar/episodes/?experiment={finished.pk}").json()
    assert page["count"] == 72 and len(page["results"]) == 72 and page["next"] is None
    small = client.get(f"/api/lambdastar/episodes/?experiment={finished.pk}&page=2&page_size=10").json()
    assert small["count"] == 72 and [e["episode"] for e in small["results"]] == [4, 5, 0, 1, 2, 3, 4, 5, 0, 1]
