"""The rows every LPP import writes the same way: messages linked into the SHA-256 chain exactly as
arena's ``message_post`` links them, and the inactive users and entries that stand for a log's people."""

from __future__ import annotations

import datetime as dt
import math

from django.contrib.auth import get_user_model

from arena.models import Conversation, Entry, Interrogation, Message, Status
from core import hashchain
from lpp.models import ImportedTranscript
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


def ended_interrogation(
    *, judge, title: str, partners: int, started, ended, file_name: str, sha256: str, index: int, problems: list[str]
) -> Interrogation:
    """An ended interrogation and the record of where it came from (call inside a transaction)."""
    span = (ended - started).total_seconds() if started and ended else None
    interrogation = Interrogation.objects.create(
        judge=judge,
        title=title,
        status=Status.ENDED,
        kind=Interrogation.Kind.THREE_PARTY if partners == 2 else Interrogation.Kind.ONE_TO_ONE,
        time_limit_s=max(10, math.ceil(span)) if span is not None else 300,
        scheduled_at=started,
        started_at=started,
        deadline=ended,
        ended_at=ended,
        end_reason="imported",
    )
    ImportedTranscript.objects.create(
        interrogation=interrogation, file_name=file_name, sha256=sha256, index=index, problems="\n".join(problems)
    )
    return interrogation


def ended_conversation(interrogation: Interrogation, *, side: str, human: bool, name: str, confederate_user=None):
    """One ended conversation of an imported interrogation: its partner a human (``confederate_user``, else
    ``lpp-confederate-<name>``) or a program (the entry named ``name``)."""
    return Conversation.objects.create(
        interrogation=interrogation,
        interrogator=interrogation.judge,
        witness_entry=None if human else entry_for(name),
        witness_human=(confederate_user or user_for(f"lpp-confederate-{name or 'unknown'}")) if human else None,
        side=side,
        status=Status.ENDED,
        scheduled_at=interrogation.started_at,
        started_at=interrogation.started_at,
        ended_at=interrogation.ended_at,
        time_limit_s=interrogation.time_limit_s,
    )
