"""Progress pushes to an experiment's page. A push is only a notification: the page can always ask again."""
from django.db import transaction

from arena.notify import push
from lambdastar import groups


def progress_now(experiment_id: int) -> None:
    from lambdastar import selectors
    from lambdastar.models import Experiment

    experiment = Experiment.objects.get(pk=experiment_id)
    push(groups.experiment_group(experiment_id), selectors.experiment_progress(experiment=experiment))


def progress_on_commit(experiment) -> None:
    experiment_id = experiment.pk
    transaction.on_commit(lambda: progress_now(experiment_id))
