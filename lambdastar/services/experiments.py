"""An experiment's life: create (validated), launch (quota, runs, chord), cancel, resume, clone."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from core.dispatch import enqueue_on_commit
from lambdastar import notify, sweep
from lambdastar.errors import ExperimentError
from lambdastar.models import Experiment, Run, configuration_errors
from lambdastar.services.quota import quota_check

Status = Experiment.Status


def experiment_create(*, owner, name: str, configuration: dict, seed: int | None = None) -> Experiment:
    """A draft; a ``seed`` key of the configuration (as in a file) moves to the seed field."""
    configuration = dict(configuration) if isinstance(configuration, dict) else configuration
    if seed is None and isinstance(configuration, dict):
        seed = configuration.pop("seed", 0)
    return Experiment.objects.create(owner=owner, name=name, configuration=configuration, seed=seed)


def _locked(experiment_id: int) -> Experiment:
    return Experiment.objects.select_for_update().get(pk=experiment_id)


def experiment_launch(*, experiment_id: int, enqueue: bool = True) -> Experiment:
    """Validate, check the owner's quota, store the runs and queue every chunk (after commit).

    ``enqueue=False``: the caller runs the chunks itself (see ``experiment_execute``).
    """
    from lambdastar import tasks

    with transaction.atomic():
        experiment = _locked(experiment_id)
        if experiment.status != Status.DRAFT:
            raise ExperimentError(f"Only a draft can be launched; this one is {experiment.status}.")
        errors = configuration_errors(experiment.configuration, experiment.seed)
        if errors:
            raise ValidationError(errors)
        configs = sweep.run_configs(experiment.configuration, experiment.seed)
        total = sweep.workload([c for _, c in configs])
        quota_check(owner=experiment.owner, episodes=total, exclude_id=experiment.pk)
        sizes = sweep.chunk_sizes([c for _, c in configs], sweep.chunk_episodes(experiment.configuration))
        experiment.runs.all().delete()
        Run.objects.bulk_create(
            [_run(experiment, i, point, config, size) for i, ((point, config), size) in enumerate(zip(configs, sizes))]
        )
        experiment.total_episodes = total
        experiment.status = Status.QUEUED
        experiment.queued_at = timezone.now()
        experiment.error = ""
        experiment.save()
        if enqueue:
            enqueue_on_commit(tasks.experiment_dispatch, experiment.pk)
        notify.progress_on_commit(experiment)
    return experiment


def _run(experiment, index, point, config, chunk_episodes) -> Run:
    return Run(
        experiment=experiment,
        index=index,
        factors=point,
        engine_config=config.to_dict(),
        chunk_episodes=chunk_episodes,
        width=config.width,
        height=config.height,
        iterations=config.iterations,
        agents=config.agents,
        observation_range=config.observation_range,
        complexity_min=config.complexity_min,
        complexity_max=config.complexity_max,
        coordination=config.coordination,
    )


def experiment_cancel(*, experiment_id: int) -> Experiment:
    """Pending chunks see the status and skip; chunks already stored stay (and export)."""
    with transaction.atomic():
        experiment = _locked(experiment_id)
        if experiment.status in (Status.FINISHED, Status.CANCELLED):
            raise ExperimentError(f"This experiment is already {experiment.status}.")
        experiment.status = Status.CANCELLED
        experiment.finished_at = timezone.now()
        experiment.save()
        notify.progress_on_commit(experiment)
    return experiment


def experiment_resume(*, experiment_id: int) -> int:
    """Queue the chunks not stored yet (a worker died, a message was lost) and the finalize step.

    Returns how many chunks were queued. Chunks that are merely slow and later finish anyway are
    stored once, whichever copy finishes first.
    """
    from lambdastar import selectors, tasks

    with transaction.atomic():
        experiment = _locked(experiment_id)
        if experiment.status not in (Status.QUEUED, Status.RUNNING, Status.FAILED):
            raise ExperimentError(
                f"Only a queued, running or failed experiment can resume; this one is {experiment.status}."
            )
        missing = selectors.chunk_keys_missing(experiment=experiment)
        if experiment.status == Status.FAILED:
            experiment.status = Status.RUNNING if experiment.started_at else Status.QUEUED
            experiment.error = ""
            experiment.save()
        enqueue_on_commit(tasks.experiment_dispatch, experiment.pk, missing)
        notify.progress_on_commit(experiment)
    return len(missing)


def experiment_clone(*, experiment_id: int, owner) -> Experiment:
    """A new draft with the same configuration and seed (so, unchanged, the same numbers)."""
    source = Experiment.objects.get(pk=experiment_id)
    return Experiment.objects.create(
        owner=owner,
        name=f"{source.name} (copy)"[:200],
        configuration=source.configuration,
        seed=source.seed,
        cloned_from=source,
    )
