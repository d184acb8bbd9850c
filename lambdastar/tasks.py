"""Thin Celery tasks on the ``lambdastar`` queue: ids in, call a service.

Start workers for them with ``celery -A config worker -Q lambdastar`` (on any machine sharing the
database and Redis). Chunk tasks are acknowledged late: a worker that dies mid-chunk leaves the
message to be redelivered, and a redelivered chunk is stored once.
"""

from celery import Task, chord, group, shared_task

QUEUE = "lambdastar"


class LambdaStarTask(Task):
    """Sent to the lambdastar queue unless the caller names another."""

    def apply_async(self, args=None, kwargs=None, **options):
        options.setdefault("queue", QUEUE)
        return super().apply_async(args, kwargs, **options)


@shared_task(name="lambdastar.tasks.experiment_dispatch", base=LambdaStarTask, acks_late=True)
def experiment_dispatch(experiment_id: int, chunk_keys: list | None = None) -> int:
    """One chord per experiment: the chunks (all, or those given) then the finalize step."""
    from lambdastar import selectors
    from lambdastar.models import Experiment

    if chunk_keys is None:
        chunk_keys = selectors.chunk_keys_missing(experiment=Experiment.objects.get(pk=experiment_id))
    finalize = experiment_finalize.si(experiment_id)
    if not chunk_keys:
        finalize.apply_async()
        return 0
    header = group(chunk_run.si(*key) for key in chunk_keys)
    chord(header, finalize).apply_async()
    return len(chunk_keys)


@shared_task(name="lambdastar.tasks.chunk_run", base=LambdaStarTask, acks_late=True, reject_on_worker_lost=True)
def chunk_run(run_id: int, agent_type: str, index: int) -> str:
    from lambdastar.services import chunk_execute

    return chunk_execute(run_id=run_id, agent_type=agent_type, index=index)


@shared_task(name="lambdastar.tasks.experiment_finalize", base=LambdaStarTask, acks_late=True)
def experiment_finalize(experiment_id: int) -> bool:
    from lambdastar.services import experiment_finalize as finalize

    return finalize(experiment_id=experiment_id)
