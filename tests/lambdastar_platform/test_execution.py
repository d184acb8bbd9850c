"""Chunking invariance, idempotent chunks, resume after a lost or failed chunk, cancel."""

import pytest

from lambdastar import selectors, services, tasks
from lambdastar.models import Aggregate, ChunkResult, Experiment

from .conftest import tiny, wait_for_status

Status = Experiment.Status


def launched(owner, **overrides):
    experiment = services.experiment_create(owner=owner, name="tiny", configuration=tiny(**overrides), seed=7)
    return services.experiment_launch(experiment_id=experiment.pk, enqueue=False)


def run_inline(owner, **overrides):
    experiment = launched(owner, **overrides)
    assert services.experiment_execute(experiment_id=experiment.pk)
    experiment.refresh_from_db()
    return experiment


@pytest.mark.parametrize("rules", ["paper", "reference-2016"])
def test_one_chunk_and_seven_chunks_give_identical_results(researcher, rules):
    one = run_inline(researcher, rules=rules, chunk_episodes=14)
    seven = run_inline(researcher, rules=rules, chunk_episodes=2)
    assert one.runs.first().chunks.count() == 2 and seven.runs.first().chunks.count() == 14
    assert selectors.episode_scores(experiment=one) == selectors.episode_scores(experiment=seven)
    fields = ("run__index", "agent_type", "episodes", "mean", "std", "sem", "ci_low", "ci_high")
    assert list(Aggregate.objects.filter(run__experiment=one).values_list(*fields)) == list(
        Aggregate.objects.filter(run__experiment=seven).values_list(*fields)
    )
    assert one.status == Status.FINISHED and one.total_episodes == 14 * 2 * 2


def test_glibc_runs_each_type_as_one_chunk(researcher):
    experiment = run_inline(researcher, rules="reference-2016", rng="glibc", chunk_episodes=2)
    assert ChunkResult.objects.filter(run__experiment=experiment).count() == 2 * 2
    assert sum(map(len, selectors.episode_scores(experiment=experiment).values())) == 14 * 2 * 2


def test_a_chunk_delivered_twice_is_counted_once(researcher):
    experiment = launched(researcher)
    run = experiment.runs.first()
    first = tasks.chunk_run.apply(args=(run.pk, "ls", 3)).get()
    again = tasks.chunk_run.apply(args=(run.pk, "ls", 3)).get()
    assert (first, again) == ("stored", "duplicate")
    assert [len(c.scores) for c in ChunkResult.objects.filter(run=run, agent_type="ls")] == [2]
    assert selectors.experiment_episodes_done(experiment=experiment) == 2


def test_finalize_waits_for_every_chunk(researcher):
    experiment = launched(researcher)
    run = experiment.runs.first()
    services.chunk_execute(run_id=run.pk, agent_type="ls", index=0)
    assert services.experiment_finalize(experiment_id=experiment.pk) is False
    experiment.refresh_from_db()
    assert experiment.status == Status.RUNNING and not Aggregate.objects.exists()


def test_the_last_chunk_stored_finishes_the_experiment(researcher):
    """No finalize step needed after it (the chord's, queued behind it, finds it finished)."""
    experiment = launched(researcher)
    for run, chunk in selectors.experiment_chunks(experiment=experiment):
        services.chunk_execute(run_id=run.pk, agent_type=chunk.agent_type, index=chunk.index)
    experiment.refresh_from_db()
    assert experiment.status == Status.FINISHED and experiment.finished_at is not None
    assert Aggregate.objects.filter(run__experiment=experiment).count() == 4
    assert services.experiment_finalize(experiment_id=experiment.pk) is False


def test_cancel_stops_pending_chunks(researcher):
    experiment = launched(researcher)
    services.experiment_cancel(experiment_id=experiment.pk)
    assert tasks.chunk_run.apply(args=(experiment.runs.first().pk, "ls", 0)).get() == "skipped"
    assert services.experiment_execute(experiment_id=experiment.pk) is False
    assert not ChunkResult.objects.exists()


def test_clone_is_a_draft_with_the_same_configuration(researcher):
    source = run_inline(researcher)
    clone = services.experiment_clone(experiment_id=source.pk, owner=researcher)
    assert (clone.status, clone.configuration, clone.seed, clone.cloned_from) == (
        Status.DRAFT,
        source.configuration,
        source.seed,
        source,
    )


def test_resume_runs_the_lost_chunks_to_completion(researcher, executor):
    """A worker lost mid-experiment: one chunk never ran, another failed half-way."""
    reference = run_inline(researcher)
    experiment = launched(researcher)
    plan = selectors.experiment_chunks(experiment=experiment)
    for run, chunk in plan[:-3]:  # the worker died before the last three chunks
        services.chunk_execute(run_id=run.pk, agent_type=chunk.agent_type, index=chunk.index)
    assert services.experiment_finalize(experiment_id=experiment.pk) is False
    ChunkResult.objects.filter(run__experiment=experiment).first().delete()  # and one result was lost
    assert services.experiment_resume(experiment_id=experiment.pk) == 4
    wait_for_status(experiment, Status.FINISHED)
    assert selectors.episode_scores(experiment=experiment) == selectors.episode_scores(experiment=reference)


def test_a_failing_chunk_fails_the_experiment_until_resumed(researcher, executor, monkeypatch):
    from lambdastar.services import chunks

    real = chunks._compute
    monkeypatch.setattr(chunks, "_compute", lambda run, chunk: 1 / 0)
    experiment = launched(researcher)
    with pytest.raises(ZeroDivisionError):
        services.experiment_execute(experiment_id=experiment.pk)
    experiment.refresh_from_db()
    assert experiment.status == Status.FAILED and "division by zero" in experiment.error
    monkeypatch.setattr(chunks, "_compute", real)
    services.experiment_resume(experiment_id=experiment.pk)
    wait_for_status(experiment, Status.FINISHED)
    assert selectors.experiment_episodes_done(experiment=experiment) == experiment.total_episodes


@pytest.mark.slow
def test_a_worker_runs_a_small_experiment_end_to_end(researcher, executor):
    """Services mode: a real Celery worker on Redis; embedded default: the in-process chord."""
    reference = run_inline(researcher, chunk_episodes=14)
    experiment = services.experiment_create(owner=researcher, name="tiny", configuration=tiny(), seed=7)
    services.experiment_launch(experiment_id=experiment.pk)
    wait_for_status(experiment, Status.FINISHED)
    assert selectors.episode_scores(experiment=experiment) == selectors.episode_scores(experiment=reference)
    assert Aggregate.objects.filter(run__experiment=experiment).count() == 4


def unchunked(**overrides) -> dict:
    config = tiny(**overrides)
    del config["chunk_episodes"]
    return config


def test_without_chunk_episodes_costly_types_get_more_chunks_and_the_same_numbers(researcher, monkeypatch):
    """The platform sizes chunks by estimated cost: a learning type in many, a cheap type in few."""
    from lambdastar import sweep

    monkeypatch.setattr(sweep, "CHUNK_MIN_S", 0.001)  # this experiment is far smaller than a real one
    experiment = services.experiment_create(
        owner=researcher, name="auto", seed=7, configuration=unchunked(types=["ls", "ql"], episodes=300)
    )
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    sizes = [run.chunk_episodes for run in experiment.runs.order_by("index")]
    assert all(size["ql"] < size["ls"] for size in sizes)
    assert services.experiment_execute(experiment_id=experiment.pk)
    reference = run_inline(researcher, types=["ls", "ql"], episodes=300, chunk_episodes=300)
    assert selectors.episode_scores(experiment=experiment) == selectors.episode_scores(experiment=reference)


def test_chunk_sizes_are_fixed_at_launch(researcher, monkeypatch):
    """Retuning the cost model does not move the chunks of an experiment already launched."""
    from lambdastar import sweep

    experiment = services.experiment_create(
        owner=researcher, name="auto", seed=7, configuration=unchunked(types=["ls", "ql"], episodes=300)
    )
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    plan = [c for _, c in selectors.experiment_chunks(experiment=experiment)]
    monkeypatch.setattr(sweep, "LEARNING_STEP_S", sweep.LEARNING_STEP_S * 100)
    assert [c for _, c in selectors.experiment_chunks(experiment=experiment)] == plan
    assert services.experiment_execute(experiment_id=experiment.pk)
    experiment.refresh_from_db()
    assert selectors.experiment_episodes_done(experiment=experiment) == experiment.total_episodes


def test_the_costliest_chunks_are_queued_first(researcher):
    """So that the last chunks to finish are short and no worker waits long for another."""
    experiment = services.experiment_create(
        owner=researcher, name="order", seed=7, configuration=tiny(types=["ls", "ql"], episodes=6)
    )
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    queued = selectors.chunk_keys_missing(experiment=experiment)
    assert [t for _, t, _ in queued] == ["ql"] * 6 + ["ls"] * 6
    assert [run_id for run_id, _, _ in queued[:3]] == [experiment.runs.get(index=1).pk] * 3  # N = 2 before N = 1


def test_a_chunk_is_found_where_the_plan_lists_it():
    """A worker finds its chunk's episodes without listing the whole plan; both must agree."""
    from lambdastar import sweep

    configs = [c for _, c in sweep.run_configs({**tiny(types=["ls", "ql"], episodes=15), "chunk_episodes": 4}, 1)]
    sizes = sweep.chunk_sizes(configs, 4)
    plan = sweep.chunk_plan(configs, sizes)
    assert [
        sweep.chunk_at(configs[c.run_index], sizes[c.run_index], c.run_index, c.agent_type, c.index) for c in plan
    ] == plan
    assert sweep.chunk_at(configs[0], sizes[0], 0, "ls", 4) is None  # 15 episodes: chunks 0..3
    assert sweep.chunk_at(configs[0], sizes[0], 0, "random", 0) is None  # not a type of this run


def test_a_failing_progress_push_does_not_fail_the_experiment(researcher, monkeypatch):
    """Live updates are a convenience: if pushing one breaks, the chunks and the results still land."""
    from lambdastar import notify

    def broken(group, payload):
        raise ImportError("the channel layer is broken")

    monkeypatch.setattr(notify, "push", broken)
    experiment = run_inline(researcher)
    assert experiment.status == Status.FINISHED
    assert selectors.experiment_episodes_done(experiment=experiment) == experiment.total_episodes
