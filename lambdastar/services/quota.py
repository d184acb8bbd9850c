"""A per-owner ceiling on queued work: episodes × types × runs of all unfinished experiments."""

from django.conf import settings

from lambdastar.errors import QuotaExceeded
from lambdastar.models import Experiment


def quota_limit() -> int:
    """settings.LAMBDASTAR_QUOTA_EPISODES (from the environment variable of that name; 5,000,000)."""
    return settings.LAMBDASTAR_QUOTA_EPISODES


def quota_check(*, owner, episodes: int, exclude_id: int | None = None) -> None:
    """Refuse (QuotaExceeded) if this sweep plus the owner's queued and running ones pass the quota."""
    limit = quota_limit()
    active = Experiment.objects.filter(owner=owner, status__in=Experiment.ACTIVE).exclude(pk=exclude_id)
    used = sum(active.values_list("total_episodes", flat=True))
    if used + episodes > limit:
        raise QuotaExceeded(
            f"This sweep has {episodes:,} episodes × types × runs; with the {used:,} already queued or running "
            f"it passes the quota of {limit:,} for {owner.get_username()}. Make it smaller or wait."
        )
