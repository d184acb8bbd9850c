"""Thin Celery tasks: ids in, call a service. Enqueued on commit through arena.dispatch."""
from celery import shared_task


@shared_task(name="arena.tasks.bot_reply", acks_late=True)
def bot_reply(conversation_id: int, trigger_seq: int) -> bool:
    from arena.services import bot_reply_compose

    return bot_reply_compose(conversation_id=conversation_id, trigger_seq=trigger_seq)


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
