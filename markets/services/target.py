"""A machine target answers through the engine gateway (its entry's engine, guarded), after a human-like
typing delay."""

from arena.services.engines import engine_reply, reply_context_build, reply_queue_pick
from core.dispatch import enqueue_now
from core.errors import ArenaError
from markets.models import Game, Question


def _context(game: Game, question: Question):
    history = []
    for earlier in (
        game.questions.filter(number__lt=question.number, answer__isnull=False)
        .select_related("answer", "asker")
        .order_by("number")
    ):
        history += [
            ("interrogator", f"[bettor {earlier.asker.number}] {earlier.text}"),
            ("witness", earlier.answer.text),
        ]
    return reply_context_build(
        key=f"markets-{game.public_id}",
        history=history,
        message=question.text,
        persona=game.target_entry.settings.get("persona"),
    )


def target_reply_queue(*, game_id: int) -> str:
    """The Celery queue for the machine target's replies (:func:`arena.services.engines.reply_queue_pick`)."""
    engine = Game.objects.filter(pk=game_id).values_list("target_entry__engine", flat=True).first()
    return reply_queue_pick(engine=engine)


def target_reply_compose(*, game_id: int, question_id: int, attempt: int = 0, retry=None) -> bool:
    """Compute the machine target's answer to the current question and schedule its delivery.

    Asked through the engine gateway (:func:`arena.services.engines.engine_reply`), as an interrogation's
    witness is: skipped while the entry's breaker is open, every call logged in EngineCall, a transient
    failure retried through ``retry(countdown)``. Returns False when there is nothing to do (game over,
    question no longer current, breaker open, or the engine failed).
    """
    from markets.tasks import target_deliver

    game = Game.objects.select_related("target_entry").get(pk=game_id)
    question = Question.objects.select_related("asker").filter(pk=question_id, game=game).first()
    if game.status != Game.Status.RUNNING or not game.target_entry_id or question is None:
        return False
    if question.status != Question.Status.CURRENT or game.target_entry.is_external:
        return False
    subject = f"markets game {game.pk} question {question.number}"
    reply = engine_reply(
        entry=game.target_entry, context=_context(game, question), subject=subject, attempt=attempt, retry=retry
    )
    if reply is None:
        return False
    enqueue_now(target_deliver, game.pk, question.pk, reply.text, countdown=reply.delay_s)
    return True


def target_reply_deliver(*, game_id: int, question_id: int, text: str) -> bool:
    from markets.services.questions import answer_submit

    try:
        answer_submit(game_id=game_id, question_id=question_id, text=text, machine=True)
    except ArenaError:
        return False  # the game ended while the bot was "typing": the answer is dropped
    return True
