"""Seals: each conversation's hash chain closed and signed when its interrogation ends (core.hashchain)."""
from arena.models import ConversationSeal, Interrogation
from arena.signing import signing_key
from core import hashchain, signing


def seals_write(*, interrogation: Interrogation) -> list[ConversationSeal]:
    """Seal every conversation of an interrogation that has just ended: call it inside the transaction that
    ends it, after its conversations are marked ended, so their rows are locked and no message can be
    stored after the head that is signed (arena.services.appends checks the conversation's status)."""
    key = signing_key()
    seals = []
    for conversation in interrogation.conversations.all():
        messages = conversation.messages.order_by("-seq")
        head = messages.values_list("hash", flat=True).first() or hashchain.genesis_hash(conversation.public_id)
        seal = signing.seal_sign(hashchain.seal_unsigned(
            conversation_public_id=conversation.public_id, interrogation_public_id=interrogation.public_id,
            messages_count=messages.count(), head=head, ended_at=interrogation.ended_at), key)
        seals.append(ConversationSeal(
            conversation=conversation, message_count=seal.count, head_hash=seal.head, ended_at=interrogation.ended_at,
            key_id=seal.key_id, signature=seal.signature, version=seal.version))
    return ConversationSeal.objects.bulk_create(seals)
