"""Progress pushes to an experiment's page. A push is only a notification: the page can always ask again."""

import logging
import math
import threading
import time

from django.db import transaction

from core.notify import push
from lambdastar import groups

log = logging.getLogger(__name__)

#: After a stored chunk, at most one push per experiment and process in this many seconds: a page
#: following a fast experiment gets a steady beat instead of a push (and its queries) per chunk.
#: Status changes (running, finished, failed, cancelled) always push.
CHUNK_PUSH_INTERVAL_S = 1.0
_last_chunk_push: dict[int, float] = {}
_lock = threading.Lock()


def progress_now(experiment_id: int) -> None:
    """Push the experiment's progress. Never raises: whatever fails here, the chunk or the status
    change that asked for it is stored already and must not be reported (or retried) as failed."""
    from lambdastar import selectors
    from lambdastar.models import Experiment

    try:
        progress = selectors.experiment_progress(experiment=Experiment(pk=experiment_id))  # one read of the row
        push(groups.experiment_group(experiment_id), progress)
    except Exception:
        log.exception("progress push for experiment %s failed", experiment_id)


def progress_on_commit(experiment) -> None:
    experiment_id = experiment.pk
    transaction.on_commit(lambda: progress_now(experiment_id))


def chunk_progress(experiment_id: int) -> None:
    """After a chunk is stored: push unless this process pushed for the experiment very recently."""
    now = time.monotonic()
    with _lock:
        if now - _last_chunk_push.get(experiment_id, -math.inf) < CHUNK_PUSH_INTERVAL_S:
            return
        if len(_last_chunk_push) > 1000:  # a long-lived worker: forget experiments long finished
            _last_chunk_push.clear()
        _last_chunk_push[experiment_id] = now
    transaction.on_commit(lambda: progress_now(experiment_id))
