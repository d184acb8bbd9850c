"""Seals: each conversation's hash chain closed and signed when its interrogation ends (core.hashchain)."""

from django.db.models import Count, IntegerField, OuterRef, Subquery

from arena.models import Conversation, ConversationSeal, Interrogation, Message
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


def seals_write(
    *, interrogation: Interrogation, conversations: list[Conversation] | None = None
) -> list[ConversationSeal]:
    """Seal every conversation of an interrogation that has just ended: call it inside the transaction that
    ends it, after its conversations are marked ended, so their rows are locked and no message can be
    stored after the head that is signed (arena.services.appends checks the conversation's status).
    ``conversations``: :func:`conversations_to_seal`'s list, read after that update (else read here)."""
    key = signing_key()
    seals = []
    for conversation in conversations_to_seal(interrogation) if conversations is None else conversations:
        head = conversation.head or hashchain.genesis_hash(conversation.public_id)
        seal = signing.seal_sign(
            hashchain.seal_unsigned(
                conversation_public_id=conversation.public_id,
                interrogation_public_id=interrogation.public_id,
                messages_count=conversation.message_count or 0,
                head=head,
                ended_at=interrogation.ended_at,
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
    return ConversationSeal.objects.bulk_create(seals)
