"""Thin Celery tasks: call a service."""

from celery import shared_task


@shared_task(name="wager.tasks.interviews_start_due")
def interviews_start_due() -> int:
    """Start every interview whose scheduled time has come (Celery beat, every 5 s)."""
    from tournaments.wager.services.starts import interviews_start_due as start_due

    return len(start_due())
