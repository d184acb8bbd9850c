"""Thin Celery tasks: ids in, call a service. Enqueued on commit through arena.dispatch."""
from celery import shared_task


@shared_task(bind=True, name="arena.tasks.bot_reply", acks_late=True, max_retries=None)
def bot_reply(self, conversation_id: int, trigger_seq: int, attempt: int = 0) -> bool:
    """Transient engine failures are tried again later: Celery's retry with a countdown on a worker,
    a fresh in-process timer in the embedded default (where Celery's eager retry would not wait)."""
    from arena.dispatch import enqueue_now
    from arena.services import bot_reply_compose

    attempt = max(attempt, self.request.retries or 0)

    def retry(countdown: float) -> None:
        if self.request.is_eager:
            enqueue_now(bot_reply, conversation_id, trigger_seq, attempt + 1, countdown=countdown)
        else:
            raise self.retry(countdown=countdown)

    return bot_reply_compose(conversation_id=conversation_id, trigger_seq=trigger_seq, attempt=attempt, retry=retry)


@shared_task(name="arena.tasks.bot_deliver", acks_late=True)
def bot_deliver(conversation_id: int, trigger_seq: int, text: str) -> int | None:
    from arena.services import bot_reply_deliver

    message = bot_reply_deliver(conversation_id=conversation_id, trigger_seq=trigger_seq, text=text)
    return message.seq if message else None


@shared_task(name="arena.tasks.interrogation_close", acks_late=True)
def interrogation_close(interrogation_id: int) -> bool:
    from arena.services import interrogation_close_if_due

    return interrogation_close_if_due(interrogation_id=interrogation_id)


@shared_task(name="arena.tasks.conversations_sweep")
def conversations_sweep() -> int:
    from arena.services import interrogations_sweep

    return interrogations_sweep()


@shared_task(name="arena.tasks.learner_harvest", acks_late=True)
def learner_harvest(interrogation_id: int) -> int:
    from arena.learning import learner_harvest as harvest

    return harvest(interrogation_id=interrogation_id)
