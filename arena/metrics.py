"""The arena's gauges on /metrics (core.metrics), read from the database when scraped."""

from django.db.models import Count

from core import metrics


def _live_interrogations():
    from arena.models import Interrogation, Status

    rows = Interrogation.objects.filter(status=Status.RUNNING).values("kind").annotate(n=Count("pk"))
    return [({"kind": row["kind"]}, row["n"]) for row in rows]


def _open_breakers():
    from arena.models import EntryHealth

    return [({}, EntryHealth.objects.filter(unhealthy_since__isnull=False).count())]


def register() -> None:
    metrics.snapshot_register("arena_interrogations_live", "interrogations running, by kind", _live_interrogations)
    metrics.snapshot_register("arena_breakers_open", "entries whose engine's circuit breaker is open", _open_breakers)
