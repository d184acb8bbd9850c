"""Import judge sessions read as whole lines (``lpp.protocol.sessions``: the LPP2 reference server's round
logs, published text transcripts) as ended arena interrogations, linked and sealed as JComm imports are
(``lpp.importer``), without keystrokes.

A session whose partners' screen sides are known becomes one interrogation (three-party for two
partners); where the source does not say which partner sat on which side (the stock LPP2 judge page chose
at random), each partner's conversation becomes a one-to-one interrogation of its own, so no side is
recorded that nobody saw. Times are the file's modification time, plus each message's clock where the
source gives one.
"""

from __future__ import annotations

import datetime as dt
import math

from django.db import transaction

from arena.models import Conversation, Interrogation, Message, Status
from arena.services.seals import seals_write
from core import hashchain
from lpp.import_rows import chained, entry_for, role_of, user_for
from lpp.models import ImportedTranscript
from lpp.protocol.sessions import HUMAN, Party, Session

FORMAT_TITLE = {"lpp2": "LPP2 round log", "text": "Transcript"}


def session_units(session: Session) -> list[list[Party]]:
    """The interrogations a session becomes: all its partners together where each has a known side of
    its own, else one per partner."""
    sides = [p.side for p in session.parties]
    if len(sides) <= 2 and all(sides) and len(set(sides)) == len(sides):
        return [session.parties]
    if len(session.parties) == 1:
        return [session.parties]
    return [[party] for party in session.parties]


def import_unit(
    session: Session,
    parties: list[Party],
    *,
    file_name: str,
    sha256: str,
    index: int,
    base: dt.datetime,
    judge_user=None,
    confederate_user=None,
) -> Interrogation:
    times = [line.time for p in parties for line in p.lines if line.time is not None]
    span = (max(times) - min(times)) if times else 0.0
    started, ended = base, base + dt.timedelta(seconds=span)
    with transaction.atomic():
        judge = judge_user or user_for(f"lpp-judge-{session.judge or 'unknown'}")
        interrogation = Interrogation.objects.create(
            judge=judge,
            title=_title(session, parties),
            status=Status.ENDED,
            kind=Interrogation.Kind.THREE_PARTY if len(parties) == 2 else Interrogation.Kind.ONE_TO_ONE,
            time_limit_s=max(10, math.ceil(span)),
            scheduled_at=started,
            started_at=started,
            deadline=ended,
            ended_at=ended,
            end_reason="imported",
        )
        ImportedTranscript.objects.create(
            interrogation=interrogation,
            file_name=file_name,
            sha256=sha256,
            index=index,
            problems="\n".join(session.problems),
        )
        for party in parties:
            human = party.role == HUMAN
            conversation = Conversation.objects.create(
                interrogation=interrogation,
                interrogator=judge,
                witness_entry=None if human else entry_for(party.name or "unknown program"),
                witness_human=(confederate_user or user_for(f"lpp-confederate-{party.name or 'unknown'}"))
                if human
                else None,
                side=party.side if len(parties) == 2 else Conversation.Side.SOLE,
                status=Status.ENDED,
                scheduled_at=started,
                started_at=started,
                ended_at=ended,
                time_limit_s=interrogation.time_limit_s,
            )
            _store(conversation, party, started, min(times) if times else None)
        seals_write(interrogation=interrogation)
    return interrogation


def _store(conversation: Conversation, party: Party, started: dt.datetime, first: float | None) -> None:
    messages, prev = [], hashchain.genesis_hash(conversation.public_id)
    for seq, line in enumerate(party.lines, start=1):
        at = started if line.time is None or first is None else started + dt.timedelta(seconds=line.time - first)
        message = chained(
            conversation, seq=seq, prev_hash=prev, sender_role=role_of(line.sender), text=line.text, created_at=at
        )
        messages.append(message)
        prev = message.hash
    Message.objects.bulk_create(messages, batch_size=500)


def _title(session: Session, parties: list[Party]) -> str:
    details = [("judge", session.judge), ("round", session.round)]
    details += [("partner", p.name) for p in parties if p.name]
    text = ", ".join(f"{label} {value}" for label, value in details if value)
    title = session.title or FORMAT_TITLE.get(session.format, "Transcript")
    return (f"{title} ({text})" if text else title)[:200]
