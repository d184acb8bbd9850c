"""The Λ* platform's writes. Views, consumers, tasks, the admin and the command call these only."""

from lambdastar.services.chunks import chunk_execute, experiment_execute, experiment_finalize
from lambdastar.services.experiments import (
    experiment_cancel,
    experiment_clone,
    experiment_create,
    experiment_launch,
    experiment_resume,
)
from lambdastar.services.quota import quota_check, quota_limit
