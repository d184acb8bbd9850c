"""The wager sessions' results source for the arena's results pages (arena.results), format "wager".

Each judge's verdict on each candidate of a trial is one Outcome: the computer under its entry's display
name (a machine), each foil as a human witness (`human_name` of the foil's username, pooled as "human" on
every public figure); the four verdicts one judge gave in one trial share a `decision`, so the judge is
never shown, only the pseudonymous key.  Battles come from the ranks the judge gave in that same trial:
the computer against each foil, the higher rank (more human) winning.  Rehearsal sessions count nowhere, and
only the sessions whose results are published (every trial's verdicts in) count: until then a trial's
figures would tell its judges which candidate was the computer.

The interviews are arena one-to-one interrogations that carry no arena Verdict (the verdicts are given
for the whole trial at once); they are claimed all the same, so they can never count as "two-party"."""

from collections import defaultdict
from collections.abc import Iterable

from arena.results.arena_source import verdicts_in_period
from arena.results.sources import Battle, Outcome, ResultsQuery, human_name, judge_key
from tournaments.wager.models import Interview, Session, TrialVerdict
from tournaments.wager.selectors import results_published

FORMAT = "wager"
COMPUTER = "computer"


class WagerResults:
    name = "wager"
    formats = {FORMAT: "Long Now wager trials (each judge's verdict on each candidate)"}

    def interrogations_claimed(self):
        return Interview.objects.values("interrogation_id")

    def _verdicts(self, query: ResultsQuery) -> list[TrialVerdict]:
        if query.study is not None or query.format not in (None, FORMAT):
            return []
        judged = Session.objects.filter(rehearsal=False, trials__verdicts__isnull=False).distinct()
        published = [session.pk for session in judged if results_published(session=session)]
        verdicts = (
            TrialVerdict.objects.filter(trial__session__in=published)
            .select_related("trial__session__computer")
            .prefetch_related("trial__session__foils__user")
            .order_by("submitted_at", "pk")
        )
        return list(verdicts_in_period(verdicts, query, field="submitted_at"))

    @staticmethod
    def _witness(verdict: TrialVerdict) -> str:
        session = verdict.trial.session
        if verdict.candidate == COMPUTER:
            return session.computer.display_name
        foil = next((f for f in session.foils.all() if f.label == verdict.candidate), None)
        return human_name(foil.user.get_username() if foil else f"wager-{session.pk}-{verdict.candidate}")

    def outcomes(self, query: ResultsQuery) -> Iterable[Outcome]:
        for v in self._verdicts(query):
            yield Outcome(
                witness=self._witness(v),
                witness_is_machine=v.candidate == COMPUTER,
                judged_human=v.verdict == TrialVerdict.Choice.HUMAN,
                format=FORMAT,
                study=None,
                at=v.submitted_at,
                judge=judge_key(v.judge),
                decision=f"wager:{v.trial_id}:{v.judge_id}",
            )

    def battles(self, query: ResultsQuery) -> Iterable[Battle]:
        """Within one judge's ranking of one trial, the computer against each foil (higher rank wins)."""
        rankings: dict[tuple[int, int], list[TrialVerdict]] = defaultdict(list)
        for v in self._verdicts(query):
            rankings[(v.trial_id, v.judge_id)].append(v)
        for ranking in rankings.values():
            computer = next((v for v in ranking if v.candidate == COMPUTER), None)
            if computer is None:
                continue
            for foil in (v for v in ranking if v.candidate != COMPUTER):
                yield Battle(
                    a=self._witness(computer),
                    b=self._witness(foil),
                    winner="a" if computer.rank > foil.rank else "b",
                    format=FORMAT,
                    study=None,
                    at=computer.submitted_at,
                    judge=judge_key(computer.judge),
                )
