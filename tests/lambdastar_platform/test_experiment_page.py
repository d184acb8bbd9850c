"""The experiment page: who sees what (the list and the page agree for every role),
a draft's planned total, launch/cancel/resume/clone from the page, partial results while chunks run,
a time-left estimate from the cost model, and every bad option reported at once."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from lambdastar import figures, selectors, services, sweep
from lambdastar.engine import ConfigError, EngineConfig
from lambdastar.models import ChunkResult, Experiment

from .conftest import tiny

ROLES = ("olivia", "jude", "connie", "oscar", "rita")  # organiser, judge, confederate, outsider, owner


@pytest.fixture
def world(cast, researcher):
    """rita's finished, running and draft experiments."""
    finished = services.experiment_create(owner=researcher, name="Rita-finished", configuration=tiny(), seed=1)
    services.experiment_launch(experiment_id=finished.pk, enqueue=False)
    services.experiment_execute(experiment_id=finished.pk)
    running = services.experiment_create(owner=researcher, name="Rita-running", configuration=tiny(), seed=1)
    services.experiment_launch(experiment_id=running.pk, enqueue=False)
    draft = services.experiment_create(owner=researcher, name="Rita-draft", configuration=tiny(), seed=1)
    users = {"olivia": cast.olivia, "jude": cast.jude, "connie": cast.connie, "oscar": cast.oscar, "rita": researcher}
    return users, {"finished": finished, "running": running, "draft": draft}


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# every role: what the list shows, the page opens (never a 404 for something listed)
SEES = {
    "olivia": {"finished", "running", "draft"},
    "rita": {"finished", "running", "draft"},
    "jude": {"finished"},
    "connie": {"finished"},
    "oscar": {"finished"},
}


@pytest.mark.parametrize("role", ROLES)
def test_the_list_and_the_page_agree_for_every_role(world, role):
    users, experiments = world
    client = _client(users[role])
    listing = client.get("/lambdastar/experiments/").content.decode()
    for key, experiment in experiments.items():
        listed = f"Rita-{key}" in listing
        page = client.get(f"/lambdastar/experiments/{experiment.pk}/").status_code
        results = client.get(f"/lambdastar/experiments/{experiment.pk}/results.json").status_code
        assert listed == (key in SEES[role]), (role, key)
        assert (page, results) == ((200, 200) if listed else (404, 404)), (role, key)
    assert client.get(f"/api/lambdastar/experiments/{experiments['finished'].pk}/").status_code == 200


def test_a_judge_reads_a_finished_experiment_but_cannot_act_on_it(world):
    users, experiments = world
    client = _client(users["jude"])
    page = client.get(f"/lambdastar/experiments/{experiments['finished'].pk}/").content.decode()
    assert 'id="action-' not in page and "Rita-finished" in page
    assert client.get(f"/lambdastar/experiments/{experiments['finished'].pk}/clone/").status_code == 403
    assert client.post(f"/lambdastar/experiments/{experiments['finished'].pk}/clone/").status_code == 403
    assert Experiment.objects.count() == 3


def test_lambdastar_is_linked_from_the_nav_bar_and_the_home_page(world):
    users, _ = world
    home = _client(users["jude"]).get("/").content.decode()
    nav = home[home.index("<nav") : home.index("</nav>")]
    assert 'href="/lambdastar/experiments/"' in nav
    assert home.count('href="/lambdastar/experiments/"') >= 2


def test_a_draft_shows_its_planned_total(world):
    users, experiments = world
    draft = experiments["draft"]
    progress = selectors.experiment_progress(experiment=draft)
    assert (progress["done"], progress["total"]) == (0, 14 * 2 * 2)  # episodes × types × runs
    page = _client(users["rita"]).get(f"/lambdastar/experiments/{draft.pk}/").content.decode()
    assert '<span id="total">56</span>' in page and "planned" in page


def test_the_owner_launches_a_draft_from_its_page_after_confirming(world, settings):
    users, experiments = world
    draft = experiments["draft"]
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["rita"])
    page = client.get(f"/lambdastar/experiments/{draft.pk}/").content.decode()
    assert f'href="/lambdastar/experiments/{draft.pk}/launch/"' in page and "action-cancel" not in page
    confirm = client.get(f"/lambdastar/experiments/{draft.pk}/launch/")
    assert confirm.status_code == 200 and "Launch this experiment?" in confirm.content.decode()
    draft.refresh_from_db()
    assert draft.status == "draft"  # opening the confirmation changes nothing
    assert client.post(f"/lambdastar/experiments/{draft.pk}/launch/").status_code == 403  # no CSRF token
    token = confirm.context["csrf_token"]
    answer = client.post(f"/lambdastar/experiments/{draft.pk}/launch/", {"csrfmiddlewaretoken": str(token)})
    assert answer.status_code == 302 and answer["Location"] == f"/lambdastar/experiments/{draft.pk}/"
    draft.refresh_from_db()
    assert draft.status in ("queued", "running", "finished") and draft.total_episodes == 56
    again = client.post(f"/lambdastar/experiments/{draft.pk}/launch/", {"csrfmiddlewaretoken": str(token)})
    assert again.status_code == 409 and "“launch” is not possible now" in again.content.decode()
    assert 'id="confirm"' not in again.content.decode()


def test_an_organiser_cancels_and_resumes_from_the_page(world):
    users, experiments = world
    running = experiments["running"]
    client = _client(users["olivia"])
    page = client.get(f"/lambdastar/experiments/{running.pk}/").content.decode()
    assert "action-cancel" in page and "action-resume" not in page  # while it runs, its workers are at it
    long_ago = timezone.now() - selectors.STALLED_AFTER - timedelta(minutes=1)
    Experiment.objects.filter(pk=running.pk).update(created_at=long_ago, queued_at=long_ago, started_at=long_ago)
    page = client.get(f"/lambdastar/experiments/{running.pk}/").content.decode()  # stalled: nothing stored since
    assert "action-cancel" in page and "action-resume" in page and "action-launch" not in page
    assert client.post(f"/lambdastar/experiments/{running.pk}/cancel/").status_code == 302
    running.refresh_from_db()
    assert running.status == "cancelled"
    refused = client.post(f"/lambdastar/experiments/{running.pk}/resume/")
    assert refused.status_code == 409 and "is cancelled: “resume” is not possible now" in refused.content.decode()
    clone = client.post(f"/lambdastar/experiments/{running.pk}/clone/")
    copy = Experiment.objects.get(cloned_from=running)
    assert clone["Location"] == f"/lambdastar/experiments/{copy.pk}/" and copy.owner == users["olivia"]


def test_a_refused_launch_names_every_bad_option_on_the_page(world):
    users, _ = world
    bad = services.experiment_create(owner=users["rita"], name="bad", configuration=tiny(), seed=1)
    Experiment.objects.filter(pk=bad.pk).update(configuration=tiny(rules="paper2", episodes=0, colour="red"))
    answer = _client(users["rita"]).post(f"/lambdastar/experiments/{bad.pk}/launch/")
    text = answer.content.decode()
    assert answer.status_code == 400
    assert "colour: unknown configuration option" in text and "rules: unknown rule set" in text
    assert "episodes: must be ≥ 1" in text and "3 problems:" in text


# --- partial results ------------------------------------------------------------------------------


def test_plots_and_the_table_fill_in_as_chunks_are_stored(researcher):
    experiment = services.experiment_create(owner=researcher, name="partial", configuration=tiny(), seed=4)
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    empty = figures.experiment_results(experiment=experiment)
    assert empty["table"] == [] and all(f["rows"] == [] for f in empty["figures"])
    chunks = selectors.experiment_chunks(experiment=experiment)
    for run, chunk in chunks[:3]:
        services.chunk_execute(run_id=run.pk, agent_type=chunk.agent_type, index=chunk.index)
    partial = figures.experiment_results(experiment=experiment)
    stored = sum(c.episodes for _, c in chunks[:3])
    assert sum(r["n"] for r in partial["table"]) == stored
    types = next(f for f in partial["figures"] if f["name"] == "types")
    assert sum(r["n"] for r in types["rows"]) == stored and all(
        r["ci_low"] <= r["mean"] <= r["ci_high"] for r in types["rows"]
    )
    services.experiment_execute(experiment_id=experiment.pk)
    experiment.refresh_from_db()
    final = figures.experiment_results(experiment=experiment)
    assert sum(r["n"] for r in final["table"]) == 56
    # the pooled partial numbers are the aggregates' numbers once every chunk is in
    experiment.status = Experiment.Status.RUNNING
    live = figures.experiment_results(experiment=experiment)
    for a, b in zip(final["table"], live["table"]):
        assert a["n"] == b["n"] and a["mean"] == pytest.approx(b["mean"]) and a["std"] == pytest.approx(b["std"])


# --- time left ------------------------------------------------------------------------------------


def test_time_left_comes_from_the_cost_model_when_costly_chunks_run_first(researcher):
    """A synthetic schedule: the learning type (≈75× the cost per episode here) queued first, as the
    platform queues them; each chunk takes about its modelled cost on the clock (the model 20 % off). After 10 %
    of the chunks the estimate is within 25 % of the truth; the early episode rate would have been off by far more."""
    config = {
        "rules": "paper",
        "rng": "pcg64",
        "episodes": 400,
        "types": ["ql", "random", "ls"],
        "iterations": 20,
        "grid": 6,
        "sweep": {"agents": [1, 3]},
        "chunk_episodes": 20,
    }
    experiment = services.experiment_create(owner=researcher, name="eta", configuration=config, seed=1)
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    plan = selectors.experiment_chunks(experiment=experiment)
    configs = {run.pk: EngineConfig.from_dict(run.engine_config) for run, _ in plan}
    order = sorted(plan, key=lambda rc: -sweep.chunk_seconds(configs[rc[0].pk], rc[1]))  # costliest first
    # "real" seconds: the modelled cost, off by +20 % for the learning type and -20 % for the others
    cost = [
        sweep.chunk_seconds(configs[run.pk], chunk) * 1000 * (1.2 if chunk.agent_type == "ql" else 0.8)
        for run, chunk in order
    ]
    truth = sum(cost)
    tenth = len(order) // 10
    started = timezone.now() - timedelta(seconds=sum(cost[:tenth]))
    Experiment.objects.filter(pk=experiment.pk).update(status="running", started_at=started)
    ChunkResult.objects.bulk_create(
        [
            ChunkResult(
                run=run,
                agent_type=c.agent_type,
                index=c.index,
                first_episode=c.first,
                stop_episode=c.stop,
                scores=[0.0] * c.episodes,
            )
            for run, c in order[:tenth]
        ]
    )
    now = timezone.now()
    progress = selectors.experiment_progress(experiment=experiment, now=now)
    left = truth - sum(cost[:tenth])
    assert progress["done"] == sum(c.episodes for _, c in order[:tenth]) and progress["total"] == 400 * 3 * 2
    assert progress["eta_s"] == pytest.approx(left, rel=0.25)
    by_rate = (progress["total"] - progress["done"]) / progress["rate"]
    assert by_rate > 3 * left  # what the page showed before (≈6×): the early rate says little about the rest


# --- every bad option at once ---------------------------------------------------------------------


def test_every_bad_option_is_reported_at_once(researcher):
    bad = tiny(
        rules="paper2",
        types=["ls", "nobody"],
        episodes=0,
        colour="red",
        chunk_episodes=0,
        sweep={"agents": [1, 30], "speed": [1]},
    )
    with pytest.raises(ValidationError) as caught:
        Experiment.objects.create(owner=researcher, name="bad", configuration=bad)
    messages = caught.value.message_dict["configuration"]
    for start in (
        "colour: unknown configuration option",
        "chunk_episodes: must be an integer ≥ 1",
        "speed: not a factor that can be swept",
        "rules: unknown rule set 'paper2'",
        "types: unknown agent type 'nobody'",
        "episodes: must be ≥ 1",
    ):
        assert sum(m.startswith(start) for m in messages) == 1, (start, messages)  # each once, not once per run
    assert len(messages) == 6, messages  # agents=30 needs known rules to be judged


def test_an_error_of_some_runs_names_them():
    with pytest.raises(ConfigError) as caught:
        sweep.run_configs(tiny(sweep={"agents": [1, 30, 40], "observation_range": [1, 3]}), 0)
    messages = [str(e) for e in caught.value.errors]
    agents = next(m for m in messages if m.startswith("agents: more agents than cells"))
    assert "(run 3: grid=5, agents=30, observation_range=1; run 4: " in agents and "; and 1 more)" in agents
    window = next(m for m in messages if m.startswith("observation_range: the observation window"))
    assert "(run 2: grid=5, agents=1, observation_range=3; run 4" in window and len(messages) == 2


def test_the_engine_command_line_reports_every_bad_option(capsys):
    from lambdastar.engine import cli

    with pytest.raises(SystemExit):
        cli.main(["run", "--rules", "paper", "--grid", "3", "--agents", "30", "--episodes", "0", "--types", "nobody"])
    err = capsys.readouterr().err
    assert "--types" in err and "--episodes" in err and "--agents" in err


def test_the_management_command_reports_every_bad_option(tmp_path, researcher):
    import json

    from django.core.management import CommandError, call_command

    path = tmp_path / "bad.json"
    path.write_text(json.dumps(tiny(colour="red", chunk_episodes=0)))
    with pytest.raises(CommandError) as caught:
        call_command("lambdastar", "run", str(path), "--owner", "rita")
    assert "colour: unknown configuration option" in str(caught.value) and "chunk_episodes" in str(caught.value)


def test_open_pages_share_one_results_snapshot_per_stored_chunk(researcher, django_assert_num_queries):
    experiment = services.experiment_create(owner=researcher, name="shared", configuration=tiny(), seed=4)
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    (run, chunk), *_ = selectors.experiment_chunks(experiment=experiment)
    services.chunk_execute(run_id=run.pk, agent_type=chunk.agent_type, index=chunk.index)
    experiment.refresh_from_db()
    first = figures.experiment_results_shared(experiment=experiment)
    with django_assert_num_queries(1):  # the episodes stored: the rest is the snapshot
        assert figures.experiment_results_shared(experiment=experiment) == first
    (run, chunk) = selectors.experiment_chunks(experiment=experiment)[1]
    services.chunk_execute(run_id=run.pk, agent_type=chunk.agent_type, index=chunk.index)
    assert sum(r["n"] for r in figures.experiment_results_shared(experiment=experiment)["table"]) == 4


def test_the_sections_root_leads_to_its_experiments(world):
    users, _ = world
    response = _client(users["jude"]).get("/lambdastar/")
    assert response.status_code == 302 and response["Location"] == "/lambdastar/experiments/"
