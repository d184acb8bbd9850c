"""The learner bot's corpus, Django side: consent, harvesting, purging, and the corpus the engine reads.

Consent is per participant (:class:`~arena.models.LearnerConsent`): a pair (the judge's question, the
human witness's answer) is harvested from an ended conversation only when both of them agreed.
Revoking consent deletes every pair either of them contributed. Texts go through
:func:`bots.engines.learner.scrub` first (no e-mail addresses, URLs, phone numbers or name
introductions are stored).

Matching: PostgreSQL trigram similarity in services mode (pg_trgm; the nearest prompts come straight
from a GiST index, then the previous exchange re-ranks them); rapidfuzz over the pairs held in memory
(reloaded when the table changes) on SQLite.
"""

import threading

from django.db import connection, transaction
from django.db.models import Count, FloatField, Max, Q, Value
from django.db.models.functions import Cast
from django.utils import timezone

from arena.models import Interrogation, LearnedPair, LearnerConsent, Message, Status

TRIGRAM_THRESHOLD = 0.3  # pg_trgm's own default for the % operator


# --- consent -----------------------------------------------------------------------------------


def learner_consent_give(*, user) -> LearnerConsent:
    consent, _ = LearnerConsent.objects.get_or_create(user=user, defaults={"agreed_at": timezone.now()})
    return consent


def learner_consent_revoke(*, user) -> int:
    """Withdraw consent and purge the user's pairs; returns how many pairs were deleted."""
    with transaction.atomic():
        LearnerConsent.objects.filter(user=user).delete()
        deleted, _ = LearnedPair.objects.filter(Q(prompt_author=user) | Q(reply_author=user)).delete()
    return deleted


# --- harvesting --------------------------------------------------------------------------------


def learner_harvest(*, interrogation_id: int) -> int:
    """Store the consenting humans' question-answer pairs of an ended interrogation (idempotent)."""
    from bots.engines.learner import scrub

    interrogation = Interrogation.objects.get(pk=interrogation_id)
    if interrogation.status not in (Status.ENDED,):
        return 0
    consenting = set(LearnerConsent.objects.values_list("user_id", flat=True))
    pairs = []
    for conversation in interrogation.conversations.filter(witness_human__isnull=False):
        if not {conversation.interrogator_id, conversation.witness_human_id} <= consenting:
            continue
        questions: list[str] = []
        last = None
        for message in conversation.messages.order_by("seq"):
            if message.sender_role == Message.Role.INTERROGATOR:
                questions.append(message.text)
            elif last is not None and last.sender_role == Message.Role.INTERROGATOR:
                prompt, reply = scrub(questions[-1]), scrub(message.text)
                if prompt and reply:
                    prev = scrub(questions[-2]) if len(questions) > 1 else ""
                    pairs.append(
                        LearnedPair(
                            prompt=prompt,
                            reply=reply,
                            prev_prompt=prev,
                            conversation=conversation,
                            reply_seq=message.seq,
                            prompt_author_id=conversation.interrogator_id,
                            reply_author_id=conversation.witness_human_id,
                        )
                    )
            last = message
    created = LearnedPair.objects.bulk_create(pairs, ignore_conflicts=True)
    return len(created)


def learner_harvest_schedule(*, interrogation_id: int) -> None:
    """Harvest an interrogation that is ending, by a task after commit, when anyone has consented at all.
    Called by the service that ends it (:func:`arena.services.interrogations.interrogation_end`)."""
    from arena.tasks import learner_harvest as task
    from core.dispatch import enqueue_on_commit

    if LearnerConsent.objects.exists():
        enqueue_on_commit(task, interrogation_id)


# --- the corpus the learner engine reads -------------------------------------------------------


class DatabaseCorpus:
    """:class:`bots.engines.learner.Corpus` over :class:`LearnedPair` rows; the engine gateway
    (:func:`arena.services.engines.entry_engine_build`) hands one to each learner engine it builds."""

    def __init__(self) -> None:
        self.trigram = connection.vendor == "postgresql"
        self.threshold = TRIGRAM_THRESHOLD if self.trigram else _memory()[0].threshold

    def candidates(self, message, previous, *, context_weight, limit):
        if not self.trigram:
            return _memory()[0].candidates(message, previous, context_weight=context_weight, limit=limit)
        from django.contrib.postgres.search import TrigramDistance, TrigramSimilarity

        from bots.engines.learner import Candidate, Pair

        # nearest prompts first, straight from the GiST index; the context blend re-ranks that short list
        rows = (
            LearnedPair.objects.annotate(d=TrigramDistance("prompt", message))
            .annotate(c=TrigramSimilarity("prev_prompt", previous) if previous else Cast(Value(0.0), FloatField()))
            .order_by("d")
            .values_list("pk", "prompt", "reply", "prev_prompt", "d", "c")[: limit * 4]
        )
        found = []
        for pk, prompt, reply, prev, distance, context in rows:
            similarity = 1.0 - distance
            if similarity < self.threshold:
                continue
            score = (1 - context_weight) * similarity + context_weight * context if previous else similarity
            found.append(Candidate(Pair(prompt, reply, prev, pk), score))
        found.sort(key=lambda c: -c.score)
        return found[:limit]


_cache_lock = threading.Lock()
_cache: list = [None, None]  # [MemoryCorpus, (count, max id)]


def _memory():
    from bots.engines.learner import MemoryCorpus, Pair

    stamp = tuple(LearnedPair.objects.aggregate(top=Max("pk"), n=Count("pk")).values())
    with _cache_lock:
        if _cache[0] is None or _cache[1] != stamp:
            rows = LearnedPair.objects.order_by("pk").values_list("pk", "prompt", "reply", "prev_prompt")
            _cache[0] = MemoryCorpus(Pair(prompt, reply, prev, pk) for pk, prompt, reply, prev in rows.iterator())
            _cache[1] = stamp
        return _cache[0], stamp
