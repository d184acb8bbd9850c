"""The built-in results source: the arena's own interrogations.  A three-party verdict is format
"three-party" (two outcomes: the witness picked as the human was judged human, the other not), a
one-to-one verdict "two-party" (one outcome: "human" or "machine").  Interrogations that another format
claims (it realised its meetings as arena interrogations and reports their verdicts itself) are left out."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, time, timedelta

from django.db.models import Prefetch

from arena.models import Conversation, Interrogation, Verdict
from arena.results.sources import Outcome, ResultsQuery, human_name, judge_key, sources_registered

THREE_PARTY = "three-party"
TWO_PARTY = "two-party"
KIND_FORMAT = {Interrogation.Kind.THREE_PARTY: THREE_PARTY, Interrogation.Kind.ONE_TO_ONE: TWO_PARTY}


def _witness(conversation: Conversation) -> str:
    if conversation.witness_entry_id:
        return conversation.witness_entry.display_name
    return human_name(conversation.witness_human.get_username())


def _day_start(day) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


class ArenaResults:
    name = "arena"
    formats = {
        THREE_PARTY: "Three-party (picked as the human of two witnesses)",
        TWO_PARTY: "Two-party (one witness judged human or machine)",
    }

    def verdicts(self, query: ResultsQuery):
        verdicts = (
            Verdict.objects.filter(interrogation__rehearsal=False)
            .select_related("interrogation", "judge")
            .prefetch_related(
                Prefetch(
                    "interrogation__conversations",
                    queryset=Conversation.objects.select_related("witness_entry", "witness_human"),
                )
            )
            .order_by("decided_at", "pk")
        )
        verdicts = verdicts_in_period(verdicts, query)
        if query.format is not None:
            kinds = [kind for kind, fmt in KIND_FORMAT.items() if fmt == query.format]
            verdicts = verdicts.filter(interrogation__kind__in=kinds)
        for source in sources_registered():
            claimed = getattr(source, "interrogations_claimed", None)
            if source is not self and callable(claimed):
                verdicts = verdicts.exclude(interrogation_id__in=claimed())
        return verdicts

    def outcomes(self, query: ResultsQuery) -> Iterable[Outcome]:
        if query.study is not None:  # the arena's own interrogations belong to no study
            return
        for verdict in self.verdicts(query):
            yield from verdict_outcomes(verdict, fmt=KIND_FORMAT[verdict.interrogation.kind])


def verdicts_in_period(verdicts, query: ResultsQuery, field: str = "decided_at"):
    """``verdicts`` (a queryset) narrowed to the query's days (whole UTC days) by their time ``field``."""
    if query.date_from is not None:
        verdicts = verdicts.filter(**{f"{field}__gte": _day_start(query.date_from)})
    if query.date_to is not None:
        verdicts = verdicts.filter(**{f"{field}__lt": _day_start(query.date_to + timedelta(days=1))})
    return verdicts


def verdict_outcomes(verdict: Verdict, *, fmt: str, study: str | None = None) -> Iterable[Outcome]:
    """The outcomes of one arena verdict (its interrogation's conversations prefetched), as ``fmt``: also
    for a format that realised its meetings as arena interrogations (tournaments.loebner.results)."""
    return choice_outcomes(
        verdict.interrogation,
        verdict.choice,
        fmt=fmt,
        study=study,
        at=verdict.decided_at,
        judge=judge_key(verdict.judge),
        decision=str(verdict.pk),
        confidence=verdict.confidence,
    )


def choice_outcomes(
    interrogation: Interrogation,
    choice: str,
    *,
    fmt: str,
    study: str | None,
    at: datetime,
    judge: str,
    decision: str,
    confidence: float | None = None,
) -> Iterable[Outcome]:
    """The outcomes of a choice ("human"/"machine" on a one-to-one, "left"/"right" on a three-party) made
    on ``interrogation`` (its conversations prefetched): also a verdict read from a transcript afterwards
    (studies.results)."""
    conversations = list(interrogation.conversations.all())
    names = {c.side: _witness(c) for c in conversations}
    for c in conversations:
        if c.side == Conversation.Side.SOLE:
            judged = choice == Verdict.Choice.HUMAN
            partner = None
        else:
            judged = choice == c.side
            partner = next((n for s, n in names.items() if s != c.side), None)
        yield Outcome(
            witness=names[c.side],
            witness_is_machine=c.witness_is_machine,
            judged_human=judged,
            format=fmt,
            study=study,
            at=at,
            judge=judge,
            decision=decision,
            partner=partner,
            confidence=confidence,
        )
