"""Machine witnesses: ask the entry's engine for a reply, then deliver it after a typing delay."""
import logging
import random

from django.conf import settings

from arena import notify
from arena.dispatch import enqueue_now
from arena.errors import Closed
from arena.models import Conversation, Message, Status

log = logging.getLogger(__name__)


def _context(conversation: Conversation, trigger_seq: int):
    from bots.base import ReplyContext, Turn

    messages = list(conversation.messages.filter(seq__lte=trigger_seq).order_by("seq"))
    *earlier, trigger = messages
    persona = {k: str(v) for k, v in (conversation.witness_entry.settings.get("persona") or {}).items()}
    return ReplyContext(
        conversation_key=str(conversation.public_id),
        history=tuple(Turn(role=m.sender_role, text=m.text) for m in earlier),
        message=trigger.text,
        persona=persona,
    )


def bot_reply_compose(*, conversation_id: int, trigger_seq: int) -> bool:
    """Compute the engine's reply to message `trigger_seq` and schedule its delivery.

    Returns False when there is nothing to do (conversation over, not a machine, or the engine
    failed: the failure is logged for the organiser and never shown to the judge).
    """
    from arena.tasks import bot_deliver
    from bots.base import EngineError
    from bots.registry import get_engine
    from bots.sanitize import clean_reply
    from bots.typing_delay import TypingModel

    conversation = Conversation.objects.select_related("interrogation", "witness_entry").get(pk=conversation_id)
    if not conversation.witness_is_machine or conversation.interrogation.status != Status.RUNNING:
        return False
    if conversation.witness_entry.is_external:
        return False  # answered by its own process (e.g. manage.py lpp_bridge), not by a bots engine
    trigger = conversation.messages.filter(seq=trigger_seq).first()
    if trigger is None or trigger.sender_role != Message.Role.INTERROGATOR:
        return False
    entry = conversation.witness_entry
    try:
        engine = get_engine(entry.engine, entry.settings)
        text = clean_reply(engine.reply(_context(conversation, trigger_seq)), max_chars=settings.ARENA_BOT_REPLY_MAX_CHARS)
    except (EngineError, KeyError, ValueError):
        log.exception("entry %s (%s) failed to reply in conversation %s", entry.pk, entry.engine, conversation.pk)
        return False
    delay = TypingModel.from_settings(entry.settings).delay(text, random.Random())
    notify.typing(conversation, by_role="witness")
    enqueue_now(bot_deliver, conversation.pk, trigger_seq, text, countdown=delay)
    return True


def bot_reply_deliver(*, conversation_id: int, trigger_seq: int, text: str) -> Message | None:
    from arena.services.messages import message_post

    try:
        return message_post(conversation_id=conversation_id, sender_role=Message.Role.WITNESS, text=text, user=None)
    except Closed:
        return None  # time ran out while the bot was "typing": the reply is dropped, as a human's would be
