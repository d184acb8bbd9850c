"""The studies' results source for the arena's results pages (arena.results), each outcome carrying its
study's slug as `study` (so `?study=<slug>` shows one study).

- Live games ("study-two-party", "study-three-party"): the interrogator's verdict on an ordinary arena
  interrogation, read as the arena reads it; these interrogations are claimed, so the arena's own
  "two-party"/"three-party" never count them again.
- Transcript-only judging ("transcript-human", "transcript-llm"): a finished game's transcript judged
  afterwards by a "displaced" human (judge key `user:<pk>` of the participant's player account) or an
  "inverted" language model (`model:<entry name>`).

Voided games (a witness leaked its identity) count nowhere, and neither do the verdicts of excluded
participants (an interrogator's live verdicts, a displaced judge's transcript verdicts), as in the study's
own analysis; rehearsal interrogations count nowhere either."""

from collections.abc import Iterable

from django.db.models import Prefetch

from arena.models import Conversation, Interrogation, Verdict
from arena.results.arena_source import choice_outcomes, verdict_outcomes, verdicts_in_period
from arena.results.sources import Outcome, ResultsQuery, judge_key
from studies.models import Exclusion, Game, TranscriptVerdict

LIVE = {Interrogation.Kind.ONE_TO_ONE: "study-two-party", Interrogation.Kind.THREE_PARTY: "study-three-party"}
TRANSCRIPT = {TranscriptVerdict.Kind.DISPLACED: "transcript-human", TranscriptVerdict.Kind.INVERTED: "transcript-llm"}


def _conversations(prefix: str) -> Prefetch:
    return Prefetch(
        f"{prefix}interrogation__conversations",
        queryset=Conversation.objects.select_related("witness_entry", "witness_human"),
    )


def _excluded():
    return Exclusion.objects.values("participant_id")


class StudyResults:
    name = "studies"
    formats = {
        "study-two-party": "Study games, two-party (one witness judged human or machine)",
        "study-three-party": "Study games, three-party (picked as the human of two witnesses)",
        "transcript-human": "Transcripts judged afterwards by displaced human judges",
        "transcript-llm": "Transcripts judged afterwards by language models (inverted)",
    }

    def interrogations_claimed(self):
        return Game.objects.values("interrogation_id")

    def outcomes(self, query: ResultsQuery) -> Iterable[Outcome]:
        if query.format in (None, *LIVE.values()):
            yield from self._live(query)
        if query.format in (None, *TRANSCRIPT.values()):
            yield from self._transcripts(query)

    @staticmethod
    def _games(query: ResultsQuery, prefix: str = "") -> dict:
        """Filters (on a model reached through ``prefix``) for the games that count: not void, in the study."""
        filters = {f"{prefix}voided": False, f"{prefix}interrogation__rehearsal": False}
        if query.study is not None:
            filters[f"{prefix}study__slug"] = query.study
        return filters

    def _live(self, query: ResultsQuery) -> Iterable[Outcome]:
        verdicts = (
            Verdict.objects.filter(**self._games(query, "interrogation__study_game__"))
            .exclude(interrogation__study_game__interrogator__in=_excluded())
            .select_related("interrogation__study_game__study", "judge")
            .prefetch_related(_conversations(""))
            .order_by("decided_at", "pk")
        )
        if query.format is not None:
            verdicts = verdicts.filter(interrogation__kind__in=[k for k, f in LIVE.items() if f == query.format])
        for verdict in verdicts_in_period(verdicts, query):
            yield from verdict_outcomes(
                verdict, fmt=LIVE[verdict.interrogation.kind], study=verdict.interrogation.study_game.study.slug
            )

    def _transcripts(self, query: ResultsQuery) -> Iterable[Outcome]:
        verdicts = (
            TranscriptVerdict.objects.filter(**self._games(query, "game__"))
            .exclude(participant__in=_excluded())
            .select_related("game__study", "game__interrogation", "participant", "entry")
            .prefetch_related(_conversations("game__"))
            .order_by("created_at", "pk")
        )
        if query.format is not None:
            verdicts = verdicts.filter(kind__in=[k for k, f in TRANSCRIPT.items() if f == query.format])
        for v in verdicts_in_period(verdicts, query, field="created_at"):
            judge = judge_key(v.participant.player) if v.participant_id else f"model:{v.entry.display_name}"
            yield from choice_outcomes(
                v.game.interrogation,
                v.choice,
                fmt=TRANSCRIPT[v.kind],
                study=v.game.study.slug,
                at=v.created_at,
                judge=judge,
                decision=f"transcript:{v.pk}",
                confidence=v.confidence,
            )
