"""The shape of what Λ* pushes to browsers: one progress payload, from the worker and the consumer alike."""

from typing import TypedDict

from core.payloads import iso


class Progress(TypedDict):
    type: str  # "progress"
    experiment: int
    status: str
    done: int  # episodes stored (episodes × types over all runs)
    total: int  # planned: a draft's from its configuration
    rate: float | None  # episodes per second since the first chunk started
    eta_s: float | None  # seconds left: the estimated cost still to run at the pace of the cost done
    started_at: str | None
    finished_at: str | None
    error: str


def progress(experiment, *, done: int, total: int, done_cost: float, total_cost: float, now) -> Progress:
    """``done_cost``/``total_cost``: estimated engine seconds of the chunks stored and of all (the
    chunk cost model); time left = the cost still to run × the wall time each unit of cost took."""
    rate = eta = None
    if experiment.started_at and done:
        elapsed = ((experiment.finished_at or now) - experiment.started_at).total_seconds()
        if elapsed > 0:
            rate = done / elapsed
            if done_cost > 0:
                eta = max(0.0, total_cost - done_cost) * elapsed / done_cost
            else:
                eta = max(0, total - done) / rate
    return Progress(
        type="progress",
        experiment=experiment.pk,
        status=experiment.status,
        done=done,
        total=total,
        rate=rate,
        eta_s=eta,
        started_at=iso(experiment.started_at),
        finished_at=iso(experiment.finished_at),
        error=experiment.error,
    )
