"""A machine target answers through its entry's bots engine, after a human-like typing delay."""
import logging
import random

from django.conf import settings

from core.dispatch import enqueue_now
from core.errors import ArenaError
from markets.models import Game, Question

log = logging.getLogger(__name__)


def _context(game: Game, question: Question):
    from bots.base import ReplyContext, Turn

    history = []
    for earlier in game.questions.filter(number__lt=question.number, answer__isnull=False).select_related("answer", "asker").order_by("number"):
        history += [Turn(role="interrogator", text=f"[bettor {earlier.asker.number}] {earlier.text}"),
                    Turn(role="witness", text=earlier.answer.text)]
    persona = {k: str(v) for k, v in (game.target_entry.settings.get("persona") or {}).items()}
    return ReplyContext(conversation_key=f"markets-{game.public_id}", history=tuple(history),
                        message=question.text, persona=persona)


def target_reply_compose(*, game_id: int, question_id: int) -> bool:
    """Compute the machine target's answer to the current question and schedule its delivery."""
    from bots.base import EngineError
    from bots.registry import get_engine
    from bots.sanitize import clean_reply
    from bots.typing_delay import TypingModel
    from markets.tasks import target_deliver

    game = Game.objects.select_related("target_entry").get(pk=game_id)
    question = Question.objects.select_related("asker").filter(pk=question_id, game=game).first()
    if game.status != Game.Status.RUNNING or not game.target_entry_id or question is None:
        return False
    if question.status != Question.Status.CURRENT or game.target_entry.is_external:
        return False
    entry = game.target_entry
    try:
        engine = get_engine(entry.engine, entry.settings)
        text = clean_reply(engine.reply(_context(game, question)), max_chars=settings.ARENA_BOT_REPLY_MAX_CHARS)
    except (EngineError, KeyError, ValueError):
        log.exception("entry %s (%s) failed to answer in game %s", entry.pk, entry.engine, game.pk)
        return False
    delay = TypingModel.from_settings(entry.settings).delay(text, random.Random())
    enqueue_now(target_deliver, game.pk, question.pk, text, countdown=delay)
    return True


def target_reply_deliver(*, game_id: int, question_id: int, text: str) -> bool:
    from markets.services.questions import answer_submit

    try:
        answer_submit(game_id=game_id, question_id=question_id, text=text, machine=True)
    except ArenaError:
        return False  # the game ended while the bot was "typing": the answer is dropped
    return True
