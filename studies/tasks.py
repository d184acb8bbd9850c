"""Thin Celery tasks: ids in, call a service. Enqueued on commit through core.dispatch."""
from celery import shared_task


@shared_task(name="studies.tasks.lobby_timeout", acks_late=True)
def lobby_timeout(study_id: int) -> int:
    """Fall back (or cancel) for everyone whose wait for a human partner is over."""
    from studies.services.lobby import lobby_expire

    return len(lobby_expire(study_id=study_id))
