"""Running one chunk (idempotent: stored at most once under its unique key) and finishing an experiment."""

import socket
import time

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from lambdastar import engine, notify, selectors, sweep
from lambdastar.models import Aggregate, ChunkResult, Experiment, Run
from lambdastar.services.storage import chunk_store
from lambdastar.summary import summarise

Status = Experiment.Status
WORKER = socket.gethostname()


def chunk_execute(*, run_id: int, agent_type: str, index: int, worker: str = WORKER) -> str:
    """Compute and store one chunk unless it is stored already or its experiment stopped.

    Returns "stored", "duplicate" (a redelivered or resumed copy: counted once) or "skipped".
    Round trips: one read (run, experiment, stored already?), one write (chunk and its episodes),
    one count of the episodes stored, the first chunk's status change, and a progress push at most
    once a second per experiment. The chunk that completes the experiment finalizes it at once:
    each chunk counts after its own store has committed, so of two last chunks stored at the same
    moment the later count sees both. The chord's finalize step, queued behind, then finds it
    finished (it finishes it itself if the worker died between storing and finalizing).
    """
    stored = ChunkResult.objects.filter(run=OuterRef("pk"), agent_type=agent_type, index=index)
    run = Run.objects.select_related("experiment").annotate(stored=Exists(stored)).get(pk=run_id)
    experiment = run.experiment
    if experiment.status not in Experiment.ACTIVE:
        return "skipped"
    if run.stored:
        return "duplicate"
    chunk = selectors.chunk_locate(run=run, agent_type=agent_type, index=index)
    if chunk is None:
        raise ValueError(f"run {run_id} has no chunk {agent_type}/{index}")
    if experiment.status == Status.QUEUED:
        Experiment.objects.filter(pk=experiment.pk, status=Status.QUEUED).update(
            status=Status.RUNNING, started_at=timezone.now()
        )
    started = time.perf_counter()
    try:
        scores, complexities = _compute(run, chunk)
    except Exception as exc:
        _fail(experiment.pk, f"chunk {agent_type}/{index} of run {run.index + 1}: {exc}")
        raise
    if not chunk_store(
        run_id=run.pk,
        agent_type=agent_type,
        index=index,
        first=chunk.first,
        scores=scores,
        complexities=complexities,
        worker=worker,
        elapsed_s=time.perf_counter() - started,
    ):
        return "duplicate"
    if selectors.experiment_episodes_done(experiment=experiment) >= experiment.total_episodes:
        experiment_finalize(experiment_id=experiment.pk)
    else:
        notify.chunk_progress(experiment.pk)
    return "stored"


def _compute(run: Run, chunk: sweep.Chunk):
    config = engine.EngineConfig.from_dict(run.engine_config)
    episodes = range(chunk.first, chunk.stop)
    scores = engine.run(config, chunk.agent_type, episodes=episodes).tolist()
    complexities = None
    if config.rules == "paper":
        from lambdastar.engine import paper

        complexities = paper.episode_complexities(config, episodes).tolist()
    return scores, complexities


def _fail(experiment_id: int, message: str) -> None:
    with transaction.atomic():
        Experiment.objects.filter(pk=experiment_id, status__in=Experiment.ACTIVE).update(
            status=Status.FAILED, error=message[:2000]
        )
        notify.progress_on_commit(Experiment(pk=experiment_id))


def experiment_execute(*, experiment_id: int, on_chunk=None) -> bool:
    """Run every chunk not stored yet in this process, in plan order, then finalize; True if the
    experiment is finished.

    ``on_chunk(chunk, outcome)`` is called after each (a progress bar, a benchmark).
    """
    experiment = Experiment.objects.get(pk=experiment_id)
    stored = set(ChunkResult.objects.filter(run__experiment=experiment).values_list("run_id", "agent_type", "index"))
    for run, chunk in selectors.experiment_chunks(experiment=experiment):
        if (run.pk, chunk.agent_type, chunk.index) in stored:
            continue
        outcome = chunk_execute(run_id=run.pk, agent_type=chunk.agent_type, index=chunk.index)
        if on_chunk:
            on_chunk(chunk, outcome)
        if outcome == "skipped":  # cancelled meanwhile
            return False
    experiment_finalize(experiment_id=experiment_id)  # no-op if the last chunk finalized it
    return Experiment.objects.filter(pk=experiment_id, status=Status.FINISHED).exists()


def experiment_finalize(*, experiment_id: int) -> bool:
    """Aggregate and mark finished once every chunk is stored; False (and no change) otherwise,
    or if it is finished already."""
    with transaction.atomic():
        experiment = Experiment.objects.select_for_update().get(pk=experiment_id)
        if experiment.status not in Experiment.ACTIVE:
            return False
        missing = selectors.chunk_keys_missing(experiment=experiment)
        if missing:
            return False
        aggregates_compute(experiment=experiment)
        experiment.status = Status.FINISHED
        experiment.finished_at = timezone.now()
        experiment.started_at = experiment.started_at or experiment.finished_at
        experiment.save()
        notify.progress_on_commit(experiment)
    return True


def aggregates_compute(*, experiment) -> None:
    Aggregate.objects.filter(run__experiment=experiment).delete()
    runs = {run.index: run for run in experiment.runs.all()}
    rows = []
    for (run_index, agent_type), scores in selectors.episode_scores(experiment=experiment).items():
        s = summarise(scores)
        rows.append(
            Aggregate(
                run=runs[run_index],
                agent_type=agent_type,
                episodes=s.n,
                mean=s.mean,
                std=s.std,
                sem=s.sem,
                ci_low=s.ci_low,
                ci_high=s.ci_high,
            )
        )
    Aggregate.objects.bulk_create(rows)
