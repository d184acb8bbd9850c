"""The rows every LPP import writes the same way: messages linked into the SHA-256 chain exactly as
arena's ``message_post`` links them, and the inactive users and entries that stand for a log's people."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from arena.models import Conversation, Entry, Message
from core import hashchain
from lpp.protocol.model import JUDGE


def when(seconds: float | None) -> dt.datetime | None:
    return None if seconds is None else dt.datetime.fromtimestamp(seconds, tz=dt.UTC)


def chained(conversation: Conversation, *, seq, prev_hash, sender_role, text, created_at) -> Message:
    """An unsaved Message linked into the chain exactly as arena's message_post links one."""
    digest = hashchain.message_hash(
        prev_hash=prev_hash, seq=seq, sender_role=sender_role, text=text, created_at=created_at
    )
    return Message(
        conversation=conversation,
        seq=seq,
        sender_role=sender_role,
        text=text,
        created_at=created_at,
        prev_hash=prev_hash,
        hash=digest,
    )


def role_of(sender: str) -> str:
    return Message.Role.INTERROGATOR if sender == JUDGE else Message.Role.WITNESS


def user_for(username: str):
    """The user of that name, created inactive without a usable password if missing."""
    user, created = get_user_model().objects.get_or_create(username=username[:150], defaults={"is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def entry_for(program: str) -> Entry:
    entry, _ = Entry.objects.get_or_create(
        display_name=(program or "unknown program")[:100], defaults={"engine": "simple", "active": False}
    )
    return entry
