"""When the outlier test (studies.services.flags) runs: from a task after verdicts, debounced, never while
someone reads a page."""

from django.conf import settings
from django.core.cache import cache

from core.dispatch import enqueue_on_commit


def study_flags_schedule(*, study_id: int) -> bool:
    """After a verdict: re-run the outlier test once within STUDIES_FLAG_DELAY_S, however many verdicts
    come in meanwhile (the run reads them all). Returns whether this call scheduled it."""
    from studies.tasks import study_flags_refresh

    delay = settings.STUDIES_FLAG_DELAY_S
    if not cache.add(f"studies:flags-scheduled:{study_id}", 1, timeout=max(1, int(delay))):
        return False
    enqueue_on_commit(study_flags_refresh, study_id, countdown=delay)
    return True
