import unicodedata
from collections.abc import Callable

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena import notify
from arena.models import EXTERNAL_ENGINES, Conversation, Interrogation, Message, Status
from arena.services import appends, appends_pg
from arena.services.appends import check_sender, turn_refusal  # check_sender: keystrokes' too
from arena.services.spectators import message_release_schedule
from core.dispatch import enqueue_now
from core.errors import Closed, InvalidInput, NotAllowed


def clean_text(text, *, max_chars: int | None = None, what: str = "message", exact: bool = False) -> str:
    """The one rule set for text people type (messages, questions, answers). ``exact``: the text is
    kept as typed, no space trimmed (as protocols that relay lines verbatim need); only a CR LF line end
    becomes LF, as always; the other rules still apply."""
    if not isinstance(text, str):
        raise InvalidInput(f"The {what} text must be a string.")
    text = text.replace("\r\n", "\n")
    if not exact:
        text = text.strip()
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


def message_post(
    *, conversation_id: int, sender_role: str, text, user=None, exact: bool = False, max_chars: int | None = None
) -> Message:
    """Validate and store one message, linked into the hash chain, then notify on commit.

    The hot path of every chat message: under the conversation's row lock, check the sender, that
    the conversation runs, and for people (``user`` given) the interrogation's message policy (turn
    rule, length cap: a study's rules), then number, chain and insert the message (`appends`). On
    PostgreSQL that is one statement, so one round trip (`appends_pg`), inside a caller's transaction
    or not; elsewhere Django's atomic block around three. Portable: PostgreSQL locks the row, SQLite
    the whole database. ``exact`` and ``max_chars``: as ``clean_text`` takes them (a protocol's lines).
    """
    text = clean_text(text, exact=exact, max_chars=max_chars)
    append = appends_pg.message_append if appends_pg.usable() else appends.message_append
    found = append(
        conversation_id=conversation_id,
        sender_role=sender_role,
        user=user,
        text=text,
        now=timezone.now(),
        policy=user is not None,
    )
    if found.outcome != "ok":
        _refuse(found, sender_role=sender_role, user=user)
    push, later = message_stored_actions(found, sender_role=sender_role)
    for action in (push, *later):
        transaction.on_commit(action)
    return found.message


def message_stored_actions(
    found: appends.Appended, *, sender_role: str, leave_out: str | None = None
) -> tuple[Callable, list[Callable]]:
    """What follows a stored message, once committed, in this order: (its pushes, [its spectator
    release if its interrogation has a feed, a machine witness's reply if one is due]). The pushes
    never block (``core.notify``); the others may reach the broker. ``leave_out``: the member channel
    of the conversation's group that has the message already (``notify.message_stored``)."""
    message, conversation = found.message, found.conversation
    later = [] if found.feed_delay_s is None else [lambda: message_release_schedule(message, found.feed_delay_s)]
    if (
        sender_role == Message.Role.INTERROGATOR
        and conversation.witness_is_machine
        and found.witness_engine not in EXTERNAL_ENGINES
    ):  # an external program answers by itself
        from arena.tasks import bot_reply

        later.append(lambda: enqueue_now(bot_reply, conversation.pk, message.seq))
    return (
        lambda: notify.message_stored(message, conversation, witness_label=found.witness_label, leave_out=leave_out)
    ), later


def _refuse(found: appends.Appended, *, sender_role: str, user) -> None:
    """Raise the error that names why the append stored nothing."""
    from arena.services.interrogations import interrogation_close_if_due

    if found.outcome == "missing":
        raise NotAllowed("No such conversation.")
    if found.outcome == "sender":
        check_sender(found.conversation, sender_role=sender_role, user=user)
    if found.outcome == "closed":
        raise Closed(f"The conversation is {found.status}, not running.")
    if found.outcome == "time_up":
        interrogation_close_if_due(interrogation_id=found.conversation.interrogation_id)
        raise Closed("Time is up: the conversation has ended.")
    if found.outcome == "too_long":
        raise InvalidInput(f"Messages here are at most {found.cap} characters.", code="too_long")
    if found.outcome == "not_your_turn":  # a witness first (any rule but free) or twice in a row (alternate)
        why = turn_refusal(rule=Interrogation.TurnRule.ALTERNATE, sender_role=sender_role, last_role=found.last_role)
        raise InvalidInput(why or "Not your turn.", code="not_your_turn")
    raise NotAllowed(f"The message was refused ({found.outcome}).")


def typing_signal(*, conversation: Conversation, sender_role: str, user) -> None:
    check_sender(conversation, sender_role=sender_role, user=user)
    # the caller's conversation object may be older than the interrogation's start or end
    if Interrogation.objects.filter(pk=conversation.interrogation_id, status=Status.RUNNING).exists():
        notify.typing(conversation, by_role=sender_role)
