"""Seals: each conversation's hash chain closed and signed when its interrogation ends, and the whole record
(every conversation, the metadata, the verdict) sealed beside them, again once the verdict is given
(core.hashchain)."""

from django.db.models import Count, IntegerField, OuterRef, Subquery

from arena.models import Conversation, ConversationSeal, Interrogation, InterrogationSeal, Message, Verdict
from arena.transcript_keys import signing_key
from core import hashchain, signing


def conversations_to_seal(interrogation: Interrogation) -> list[Conversation]:
    """The interrogation's conversations, each with its chain's head (``head``: the last message's hash,
    None before the first message) and ``message_count``, read in one query however many there are."""
    messages = Message.objects.filter(conversation=OuterRef("pk"))
    count = messages.order_by().values("conversation").annotate(n=Count("pk")).values("n")
    return list(
        interrogation.conversations.annotate(
            head=Subquery(messages.order_by("-seq").values("hash")[:1]),
            message_count=Subquery(count, output_field=IntegerField()),
        )
    )


def witness_kind(conversation: Conversation) -> str:
    return "machine" if conversation.witness_is_machine else "human"


def verdict_fields(verdict: Verdict | None) -> dict | None:
    """The verdict as a transcript shows it, and its record seals it."""
    if verdict is None:
        return None
    return {
        "choice": verdict.choice,
        "confidence": verdict.confidence,
        "reason": verdict.reason,
        "correct": verdict.correct,
        "time_to_decision_s": verdict.time_to_decision_s,
    }


def record_conversations(conversations) -> list[dict]:
    """:func:`conversations_to_seal`'s rows as a record seals them."""
    return [
        hashchain.record_conversation(
            public_id=c.public_id,
            side=c.side,
            witness_kind=witness_kind(c),
            count=c.message_count or 0,
            head=c.head,
        )
        for c in conversations
    ]


def record_fields(interrogation: Interrogation, conversations=None) -> dict:
    """The interrogation's record as the database holds it: {"conversations", "metadata", "verdict"}."""
    rows = conversations_to_seal(interrogation) if conversations is None else conversations
    return {
        "conversations": record_conversations(rows),
        "metadata": hashchain.record_metadata(vars(interrogation)),
        "verdict": verdict_fields(Verdict.objects.filter(interrogation=interrogation).first()),
    }


def _record_signed(interrogation: Interrogation, *, conversations: list, metadata: dict, verdict: dict | None) -> dict:
    """The record signed: an InterrogationSeal's fields but the interrogation."""
    seal = signing.seal_sign(
        hashchain.record_unsigned(
            interrogation_public_id=interrogation.public_id,
            conversations=conversations,
            metadata=metadata,
            verdict=verdict,
        ),
        signing_key(),
    )
    record = {"conversations": seal.conversations, "metadata": seal.metadata, "verdict": seal.verdict}
    return {"record": record, "key_id": seal.key_id, "signature": seal.signature, "version": seal.version}


def seals_write(
    *, interrogation: Interrogation, conversations: list[Conversation] | None = None
) -> list[ConversationSeal]:
    """Seal every conversation of an interrogation that has just ended, and its whole record: call it inside
    the transaction that ends it, after its conversations are marked ended, so their rows are locked and no
    message can be stored after the head that is signed (arena.services.appends checks the conversation's
    status). ``conversations``: :func:`conversations_to_seal`'s list, read after that update (else read here)."""
    key = signing_key()
    rows = conversations_to_seal(interrogation) if conversations is None else conversations
    seals = []
    for conversation in rows:
        head = conversation.head or hashchain.genesis_hash(conversation.public_id)
        seal = signing.seal_sign(
            hashchain.seal_unsigned(
                conversation_public_id=conversation.public_id,
                interrogation_public_id=interrogation.public_id,
                messages_count=conversation.message_count or 0,
                head=head,
                ended_at=interrogation.ended_at,
                version=hashchain.RECORD_VERSION,
            ),
            key,
        )
        seals.append(
            ConversationSeal(
                conversation=conversation,
                message_count=seal.count,
                head_hash=seal.head,
                ended_at=interrogation.ended_at,
                key_id=seal.key_id,
                signature=seal.signature,
                version=seal.version,
            )
        )
    written = ConversationSeal.objects.bulk_create(seals)
    # a record that has just ended has no verdict (one is given to an ended interrogation: record_seal_verdict)
    signed = _record_signed(
        interrogation,
        conversations=record_conversations(rows),
        metadata=hashchain.record_metadata(vars(interrogation)),
        verdict=None,
    )
    InterrogationSeal.objects.create(interrogation=interrogation, **signed)
    return written


def record_seal_verdict(*, interrogation: Interrogation, verdict: Verdict) -> None:
    """Sign the record again with its verdict, in the transaction that stores the verdict, with the
    interrogation's row locked (every seal of it is written under that lock). The conversations and
    metadata are the sealed ones, never read again: an edit made since the end stays visible. A record
    sealed before records were (none here) stays so. The seal row is the one read with the locked
    interrogation (``select_related("record_seal")``) when it was, else read here."""
    try:
        row = interrogation.record_seal
    except InterrogationSeal.DoesNotExist:
        return
    signed = _record_signed(
        interrogation,
        conversations=row.record["conversations"],
        metadata=row.record["metadata"],
        verdict=verdict_fields(verdict),
    )
    for name, value in signed.items():
        setattr(row, name, value)
    row.save(update_fields=[*signed, "signed_at"])


def record_seal(*, interrogation: Interrogation) -> hashchain.RecordSeal | None:
    row = InterrogationSeal.objects.filter(interrogation=interrogation).first()
    if row is None:
        return None
    return hashchain.RecordSeal(
        interrogation=str(interrogation.public_id),
        conversations=row.record["conversations"],
        metadata=row.record["metadata"],
        verdict=row.record["verdict"],
        key_id=row.key_id,
        signature=row.signature,
        version=row.version,
    )
