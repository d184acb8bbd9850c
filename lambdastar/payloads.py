"""The shape of what Λ* pushes to browsers: one progress payload, from the worker and the consumer alike."""
from typing import TypedDict

from core.payloads import iso


class Progress(TypedDict):
    type: str  # "progress"
    experiment: int
    status: str
    done: int  # episodes stored (episodes × types over all runs)
    total: int
    rate: float | None  # episodes per second since the first chunk started
    eta_s: float | None  # seconds left at that rate
    started_at: str | None
    finished_at: str | None
    error: str


def progress(experiment, *, done: int, now) -> Progress:
    rate = eta = None
    if experiment.started_at and done:
        elapsed = ((experiment.finished_at or now) - experiment.started_at).total_seconds()
        if elapsed > 0:
            rate = done / elapsed
            eta = max(0, experiment.total_episodes - done) / rate
    return Progress(
        type="progress", experiment=experiment.pk, status=experiment.status, done=done,
        total=experiment.total_episodes, rate=rate, eta_s=eta, started_at=iso(experiment.started_at),
        finished_at=iso(experiment.finished_at), error=experiment.error,
    )
