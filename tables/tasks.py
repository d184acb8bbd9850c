"""Thin Celery tasks: a game's turns, enqueued on commit (in-process in the embedded default). A task
plays turns of its game for a short slice, then enqueues the next (tables.services.turns.turns_run)."""

from celery import shared_task


@shared_task(name="tables.tasks.turn_task", acks_late=True)
def turn_task(game_id: int, number: int) -> int:
    from tables.services.turns import turns_run

    return turns_run(game_id=game_id, number=number)
