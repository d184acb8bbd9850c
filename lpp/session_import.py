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

from django.db import transaction

from arena.models import Conversation, Interrogation, Message
from arena.services.seals import seals_write
from core import hashchain
from lpp.import_rows import chained, ended_conversation, ended_interrogation, role_of, user_for
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
        interrogation = ended_interrogation(
            judge=judge_user or user_for(f"lpp-judge-{session.judge or 'unknown'}"),
            title=_title(session, parties),
            partners=len(parties),
            started=started,
            ended=ended,
            file_name=file_name,
            sha256=sha256,
            index=index,
            problems=session.problems,
        )
        for party in parties:
            conversation = ended_conversation(
                interrogation,
                side=party.side if len(parties) == 2 else Conversation.Side.SOLE,
                human=party.role == HUMAN,
                name=party.name,
                confederate_user=confederate_user,
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
