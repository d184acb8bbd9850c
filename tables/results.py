"""Turing the Tables on the arena's results pages (arena.results), format "tables".

Each accepted peer vote (a `Vote`: the voter's reply passed the judges and named another agent) is one
decision with one Outcome: the agent voted against was judged human by the voting agent.  The witness is
the target agent's entry (a machine, judged_human=True), the judge the voter, keyed
"model:<voter's entry name>".  Penalties and refused votes decide nothing and yield nothing, nor does any
vote of a void game.

No battles: every agent is a machine and every vote picks one of them as "the human", so a vote is no
comparison against a human and no fair duel between two agents either (the others were not judged
"machine" by it); the source says so by giving an empty `battles`.  The games are not arena
interrogations, so nothing is claimed.  Games belong to no study."""

from collections.abc import Iterable

from arena.results.arena_source import verdicts_in_period
from arena.results.sources import Battle, Outcome, ResultsQuery
from tables.models import Game, Vote

FORMAT = "tables"


class TablesResults:
    name = "tables"
    formats = {FORMAT: "Turing the Tables votes (an agent judged the human by a peer)"}

    def outcomes(self, query: ResultsQuery) -> Iterable[Outcome]:
        if query.study is not None or query.format not in (None, FORMAT):
            return
        votes = (
            Vote.objects.exclude(turn__game__outcome=Game.Outcome.VOID)
            .select_related("voter__entry", "target__entry", "call")
            .order_by("call__created_at", "pk")
        )
        for vote in verdicts_in_period(votes, query, field="call__created_at"):
            yield Outcome(
                witness=vote.target.entry.display_name,
                witness_is_machine=True,
                judged_human=True,
                format=FORMAT,
                study=None,
                at=vote.call.created_at,
                judge=f"model:{vote.voter.entry.display_name}",
                decision=f"tables:{vote.pk}",
            )

    def battles(self, query: ResultsQuery) -> Iterable[Battle]:
        return []  # see the module docstring: a peer vote is no comparison the leaderboard may rate
