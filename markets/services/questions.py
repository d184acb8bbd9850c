"""Questions and answers (the Turing Trade rules): per-bettor FIFO queues, one current question, round-robin."""

import datetime as dt

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from arena.services.messages import clean_text
from core.dispatch import enqueue_now, enqueue_on_commit
from core.errors import Closed, InvalidInput, NotAllowed
from markets import notify
from markets.models import Answer, Game, Participant, Question

QS = Question.Status


def _running_game(game_id: int, now) -> Game:
    """Lock the game row (questions and answers serialise on it, trades on the market row)."""
    game = Game.objects.select_for_update(of=("self",)).get(pk=game_id)
    if game.status != Game.Status.RUNNING or (game.deadline and now >= game.deadline):
        raise Closed("The game is not running.")
    return game


def question_ask(*, game_id: int, user, text) -> Question:
    """Becomes the current question if there is none, else waits in the asker's own queue."""
    text = clean_text(text, what="question")
    now = timezone.now()
    with transaction.atomic():
        game = _running_game(game_id, now)
        asker = Participant.objects.filter(game=game, user_id=getattr(user, "pk", None)).first()
        if asker is None:
            raise NotAllowed("Only the bettors of this game can ask questions.")
        question = Question.objects.create(game=game, asker=asker, text=text, asked_at=now)
        if not game.questions.filter(status=QS.CURRENT).exists():
            _make_current(game, question, now)
        else:
            transaction.on_commit(lambda: notify.question_queued(question))
    return question


def _make_current(game: Game, question: Question, now) -> None:
    from markets.tasks import target_reply

    last = game.questions.aggregate(n=Max("number"))["n"] or 0
    question.status, question.number, question.current_at = QS.CURRENT, last + 1, now
    question.save(update_fields=["status", "number", "current_at"])
    transaction.on_commit(lambda: notify.question_current(question))
    if game.target_entry_id:
        enqueue_on_commit(target_reply, game.pk, question.pk)


def next_question(game: Game, after: Participant) -> Question | None:
    """The oldest queued question of the first non-empty queue after `after`'s, round-robin."""
    numbers = list(game.participants.order_by("number").values_list("pk", "number"))
    index = next(i for i, (pk, _) in enumerate(numbers) if pk == after.pk)
    for step in range(1, len(numbers) + 1):
        participant_id = numbers[(index + step) % len(numbers)][0]
        queued = game.questions.filter(asker_id=participant_id, status=QS.QUEUED).order_by("asked_at", "id").first()
        if queued:
            return queued
    return None


def answer_submit(*, game_id: int, question_id: int, text, user=None, machine: bool = False) -> Answer:
    """The target answers the current question, once. `machine` is the bot task's own call."""
    from markets.tasks import answer_release

    if not isinstance(question_id, int) or isinstance(question_id, bool):
        raise InvalidInput("question must be the id of the current question.")
    text = clean_text(text, what="answer")
    now = timezone.now()
    with transaction.atomic():
        game = _running_game(game_id, now)
        is_target = (
            bool(game.target_entry_id)
            if machine
            else (user is not None and user.is_authenticated and game.target_human_id == user.pk)
        )
        if not is_target:
            raise NotAllowed("Only this game's target can answer.")
        question = game.questions.select_related("asker").filter(pk=question_id).first()
        if question is None or question.status != QS.CURRENT:
            raise Closed("That is not the current question (it may already be answered).")
        answer = Answer.objects.create(
            question=question, text=text, answered_at=now, public_at=now + dt.timedelta(seconds=game.answer_delay_s)
        )
        question.status = QS.ANSWERED
        question.save(update_fields=["status"])
        transaction.on_commit(lambda: notify.answer_given(question))
        enqueue_on_commit(answer_release, question.pk, countdown=game.answer_delay_s)
        following = next_question(game, question.asker)
        if following:
            _make_current(game, following, now)
    return answer


def answer_release(*, question_id: int) -> bool:
    """Push an answer's text to every bettor, if (and only if) its stored public time has passed."""
    question = Question.objects.select_related("answer", "asker").filter(pk=question_id).first()
    if question is None or not hasattr(question, "answer"):
        return False
    early = (question.answer.public_at - timezone.now()).total_seconds()
    if early > 0:  # a timer that fired early (clock skew): try again at the stored time
        from markets.tasks import answer_release as task

        enqueue_now(task, question.pk, countdown=early + 0.01)
        return False
    notify.answer_public(question)
    return True
