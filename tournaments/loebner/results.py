"""The Loebner contests' results source for the arena's results pages (arena.results): every judged
meeting's verdict of the contests whose results are published, as format "loebner" (the arena's built-in
source leaves every meeting's interrogations out, published or not: until a contest's results are
published, no page tells its judges which witness was which)."""

from collections.abc import Iterable

from django.db.models import Prefetch, Q

from arena.models import Conversation, Interrogation, Verdict
from arena.results.arena_source import verdict_outcomes, verdicts_in_period
from arena.results.sources import Outcome, ResultsQuery
from tournaments.loebner.models import Contest

FORMAT = "loebner"


class LoebnerResults:
    name = "loebner"
    formats = {FORMAT: "Loebner contest rounds (paired comparisons)"}

    def interrogations_claimed(self):
        """Every meeting's interrogation, and those a round's restart replaced."""
        meetings = Q(loebner_meeting__isnull=False) | Q(loebner_meetings_replaced__isnull=False)
        return Interrogation.objects.filter(meetings).values("pk")

    def outcomes(self, query: ResultsQuery) -> Iterable[Outcome]:
        if query.study is not None or query.format not in (None, FORMAT):
            return
        verdicts = (
            Verdict.objects.filter(interrogation__loebner_meeting__round__contest__status=Contest.Status.DONE)
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
