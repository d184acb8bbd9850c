from django.db import transaction

from arena.results.cache import version_bump


def results_version_bump() -> None:
    """Results changed (a verdict was recorded, a transcript published): the cached results pages are
    recomputed on their next request.  Call it from the service that records the change, inside its
    transaction: the version moves once that transaction commits (at once outside one), so no process can
    cache the old data under the new version."""
    transaction.on_commit(version_bump, robust=True)
