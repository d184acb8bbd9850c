"""Thin Celery tasks: ids in, call a service. Enqueued on commit through core.dispatch."""

from celery import shared_task


@shared_task(bind=True, name="arena.tasks.bot_reply", acks_late=True, max_retries=None)
def bot_reply(self, conversation_id: int, trigger_seq: int, attempt: int = 0) -> bool:
    """Heavy engines hop to their own queue; transient engine failures are tried again later with
    backoff (:func:`arena.services.engines.reply_task_run`)."""
    from functools import partial

    from arena.services import bot_reply_compose
    from arena.services.engines import reply_task_run
    from arena.services.witnesses import bot_reply_queue

    compose = partial(bot_reply_compose, conversation_id=conversation_id, trigger_seq=trigger_seq)
    return reply_task_run(
        task=self,
        args=(conversation_id, trigger_seq),
        attempt=attempt,
        queue=bot_reply_queue(conversation_id),
        compose=compose,
    )


@shared_task(name="arena.tasks.bot_deliver", acks_late=True)
def bot_deliver(conversation_id: int, trigger_seq: int, text: str) -> int | None:
    from arena.services import bot_reply_deliver

    message = bot_reply_deliver(conversation_id=conversation_id, trigger_seq=trigger_seq, text=text)
    return message.seq if message else None


@shared_task(name="arena.tasks.bot_typing")
def bot_typing(conversation_id: int, trigger_seq: int, remaining_s: float) -> None:
    """A machine witness is seen typing (after reading the judge's message), again every few seconds."""
    from arena.services.witnesses import bot_typing_signal
    from core.dispatch import enqueue_now

    again = bot_typing_signal(conversation_id=conversation_id, trigger_seq=trigger_seq, remaining_s=remaining_s)
    if again is not None:
        enqueue_now(bot_typing, conversation_id, trigger_seq, remaining_s - again, countdown=again)


@shared_task(name="arena.tasks.bot_type", acks_late=True)
def bot_type(conversation_id: int, trigger_seq: int, text: str, typed: int, per_char_s: float) -> bool:
    """Keystroke mode: one batch of a machine witness's keys; schedules the next batch."""
    from arena.services.witnesses import bot_reply_type
    from core.dispatch import enqueue_now

    following = bot_reply_type(
        conversation_id=conversation_id, trigger_seq=trigger_seq, text=text, typed=typed, per_char_s=per_char_s
    )
    if following is None:
        return True
    typed, countdown = following
    enqueue_now(bot_type, conversation_id, trigger_seq, text, typed, per_char_s, countdown=countdown)
    return False


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


@shared_task(name="arena.tasks.rehearsal_judge", acks_late=True)
def rehearsal_judge(interrogation_id: int) -> bool:
    """The scripted judge of a rehearsal: one look, then the next one scheduled while it goes on."""
    from arena.services.rehearsals import rehearsal_judge_step
    from core.dispatch import enqueue_now

    following = rehearsal_judge_step(interrogation_id=interrogation_id)
    if following is None:
        return True
    enqueue_now(rehearsal_judge, interrogation_id, countdown=following)
    return False


@shared_task(name="arena.tasks.spectator_release", acks_late=True)
def spectator_release(message_id: int) -> bool:
    from arena.services.spectators import spectator_release as release

    return release(message_id=message_id)
