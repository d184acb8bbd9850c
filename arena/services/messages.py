import unicodedata

from django.conf import settings
from django.utils import timezone

from arena import notify
from arena.models import Conversation, Interrogation, Message, Status
from arena.services import appends_pg
from arena.services.spectators import message_release_schedule
from core import hashchain
from core.dispatch import enqueue_now
from core.errors import Closed, InvalidInput, NotAllowed


def clean_text(text, *, max_chars: int | None = None, what: str = "message") -> str:
    """The one rule set for text people type (messages, questions, answers)."""
    if not isinstance(text, str):
        raise InvalidInput(f"The {what} text must be a string.")
    text = text.replace("\r\n", "\n").strip()
    if not any(ch.isprintable() and not ch.isspace() and unicodedata.category(ch) != "Cf" for ch in text):
        raise InvalidInput(f"The {what} is empty.")  # nothing but spaces or invisible format characters
    cap = max_chars or settings.ARENA_MAX_MESSAGE_CHARS
    if len(text) > cap:
        raise InvalidInput(f"The {what} is longer than {cap} characters.", code="too_long")
    if any(ord(ch) < 32 and ch not in "\n\t" for ch in text):
        raise InvalidInput(f"The {what} contains control characters.")
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise InvalidInput(f"The {what} contains an invalid character (a lone surrogate).")
    return text


def check_sender(conversation: Conversation, *, sender_role: str, user) -> None:
    """user=None means the platform itself (a bot reply delivered by a task)."""
    if sender_role == Message.Role.INTERROGATOR:
        if user is None or user.pk != conversation.interrogator_id:
            raise NotAllowed("Only this conversation's interrogator can write as interrogator.")
    elif sender_role == Message.Role.WITNESS:
        if conversation.witness_human_id:
            if user is None or user.pk != conversation.witness_human_id:
                raise NotAllowed("Only this conversation's witness can write as witness.")
        elif user is not None:
            raise NotAllowed("A machine witness's replies come from its engine only.")
    else:
        raise InvalidInput(f"Unknown sender role {sender_role!r}.")


def message_post(*, conversation_id: int, sender_role: str, text, user=None) -> Message:
    """Validate and store one message, linked into the hash chain, then notify on commit.

    The hot path of every chat message, so it speaks SQL through Django's cursor instead of building
    ORM queries, which cost four times as much CPU: lock the conversation, read the chain's last link,
    insert, commit. On PostgreSQL outside a caller's transaction that is two round trips (lock and
    last link, then insert and commit: `appends_pg`), elsewhere Django's atomic block around them.
    Portable: PostgreSQL locks the row, SQLite the whole database.
    """
    from arena.services.interrogations import interrogation_close_if_due

    text = clean_text(text)
    with appends_pg.append_open(conversation_id) as append:
        if append.locked is None:
            raise NotAllowed("No such conversation.")
        conversation, status, deadline, witness_label = append.locked
        check_sender(conversation, sender_role=sender_role, user=user)
        if status != Status.RUNNING:
            raise Closed(f"The conversation is {status}, not running.")
        now = timezone.now()
        if deadline is not None and now >= deadline:
            message = None
        else:
            message = _append(append, conversation, sender_role=sender_role, text=text, now=now,
                              witness_label=witness_label)
    if message is None:
        interrogation_close_if_due(interrogation_id=conversation.interrogation_id)
        raise Closed("Time is up: the conversation has ended.")
    return message


def _append(append, conversation: Conversation, *, sender_role: str, text: str, now, witness_label: str) -> Message:
    from arena.tasks import bot_reply

    last = append.last_link()
    seq = last[0] + 1 if last else 1
    prev_hash = last[1] if last else hashchain.genesis_hash(conversation.public_id)
    digest = hashchain.message_hash(prev_hash=prev_hash, seq=seq, sender_role=sender_role, text=text, created_at=now)
    message = append.insert(
        conversation_id=conversation.pk, seq=seq, sender_role=sender_role, text=text, created_at=now,
        prev_hash=prev_hash, digest=digest,
    )
    append.on_commit(lambda: notify.message_stored(message, conversation, witness_label=witness_label))
    append.on_commit(lambda: message_release_schedule(message, conversation))
    if sender_role == Message.Role.INTERROGATOR and conversation.witness_is_machine:
        append.on_commit(lambda: enqueue_now(bot_reply, conversation.pk, seq))
    return message


def typing_signal(*, conversation: Conversation, sender_role: str, user) -> None:
    check_sender(conversation, sender_role=sender_role, user=user)
    # the caller's conversation object may be older than the interrogation's start or end
    if Interrogation.objects.filter(pk=conversation.interrogation_id, status=Status.RUNNING).exists():
        notify.typing(conversation, by_role=sender_role)
