"""Thin Celery tasks: ids in, call a service. Enqueued on commit through core.dispatch."""

from celery import shared_task


@shared_task(name="studies.tasks.lobby_timeout", acks_late=True)
def lobby_timeout(study_id: int) -> int:
    """Fall back (or cancel) for everyone whose wait for a human partner is over."""
    from studies.services.lobby import lobby_expire

    return len(lobby_expire(study_id=study_id))


@shared_task(name="studies.tasks.study_flags_refresh", acks_late=True)
def study_flags_refresh(study_id: int) -> int:
    """Re-run the outlier test over a study's verdicts (scheduled, debounced, after verdicts)."""
    from studies.models import Study
    from studies.services.flags import study_outliers_flag

    study = Study.objects.filter(pk=study_id).first()
    return len(study_outliers_flag(study=study)) if study else 0
