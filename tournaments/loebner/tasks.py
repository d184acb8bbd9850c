"""Thin Celery tasks: ids in, call a service. Enqueued on commit through core.dispatch."""

from celery import shared_task


@shared_task(name="loebner.tasks.qualifying_ask", acks_late=True)
def qualifying_ask_task(subject_id: int) -> str:
    from tournaments.loebner.services import qualifying_ask

    return qualifying_ask(subject_id=subject_id).status


@shared_task(name="loebner.tasks.round_tick", acks_late=True)
def round_tick_task(round_id: int) -> str:
    from tournaments.loebner.services import round_tick

    return round_tick(round_id=round_id)["phase"]
