"""Thin Celery tasks: one task per turn, enqueued on commit (in-process in the embedded default)."""
from celery import shared_task


@shared_task(name="tables.tasks.turn_task", acks_late=True)
def turn_task(game_id: int, number: int) -> bool:
    from tables.services.turns import turn_play

    return turn_play(game_id=game_id, number=number) is not None
