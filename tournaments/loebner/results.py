"""The Loebner contests' results source for the arena's results pages (arena.results): every judged
meeting's verdict, as format "loebner" (the arena's built-in source leaves these interrogations out)."""

from collections.abc import Iterable

from django.db.models import Prefetch

from arena.models import Conversation, Verdict
from arena.results.arena_source import verdict_outcomes, verdicts_in_period
from arena.results.sources import Outcome, ResultsQuery
from tournaments.loebner.models import Meeting

FORMAT = "loebner"


class LoebnerResults:
    name = "loebner"
    formats = {FORMAT: "Loebner contest rounds (paired comparisons)"}

    def interrogations_claimed(self):
        return Meeting.objects.exclude(interrogation=None).values("interrogation_id")

    def outcomes(self, query: ResultsQuery) -> Iterable[Outcome]:
        if query.study is not None or query.format not in (None, FORMAT):
            return
        verdicts = (
            Verdict.objects.filter(interrogation_id__in=self.interrogations_claimed())
            .select_related("interrogation", "judge")
            .prefetch_related(
                Prefetch(
                    "interrogation__conversations",
                    queryset=Conversation.objects.select_related("witness_entry", "witness_human"),
                )
            )
            .order_by("decided_at", "pk")
        )
        for verdict in verdicts_in_period(verdicts, query):
            yield from verdict_outcomes(verdict, fmt=FORMAT)
