"""Thin Celery tasks: ids in, call a service. Enqueued on commit through core.dispatch."""
from celery import shared_task


@shared_task(name="markets.tasks.target_reply", acks_late=True)
def target_reply(game_id: int, question_id: int) -> bool:
    from markets.services import target_reply_compose

    return target_reply_compose(game_id=game_id, question_id=question_id)


@shared_task(name="markets.tasks.target_deliver", acks_late=True)
def target_deliver(game_id: int, question_id: int, text: str) -> bool:
    from markets.services import target_reply_deliver

    return target_reply_deliver(game_id=game_id, question_id=question_id, text=text)


@shared_task(name="markets.tasks.answer_release", acks_late=True)
def answer_release(question_id: int) -> bool:
    from markets.services import answer_release as release

    return release(question_id=question_id)


@shared_task(name="markets.tasks.game_close", acks_late=True)
def game_close(game_id: int) -> bool:
    from markets.services import game_settle

    return game_settle(game_id=game_id).status == "settled"


@shared_task(name="markets.tasks.games_sweep")
def games_sweep() -> int:
    from markets.services import games_sweep as sweep

    return sweep()
