"""Thin Celery tasks: ids in, call a service. Enqueued on commit through core.dispatch."""

from celery import shared_task


@shared_task(bind=True, name="markets.tasks.target_reply", acks_late=True, max_retries=None)
def target_reply(self, game_id: int, question_id: int, attempt: int = 0) -> bool:
    """As :func:`arena.tasks.bot_reply`: heavy engines hop to their own queue; transient engine failures
    are tried again later with the same backoff."""
    from functools import partial

    from arena.services.engines import reply_task_run
    from markets.services.target import target_reply_compose, target_reply_queue

    compose = partial(target_reply_compose, game_id=game_id, question_id=question_id)
    return reply_task_run(
        task=self,
        args=(game_id, question_id),
        attempt=attempt,
        queue=target_reply_queue(game_id=game_id),
        compose=compose,
    )


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
    """Turing Trade games past their deadline, and conversation markets in step with their interrogations."""
    from markets.services import games_sweep as sweep
    from markets.services import xmarkets_sweep

    return sweep() + xmarkets_sweep()
