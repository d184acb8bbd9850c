"""The results registry: every format hands its verdicts to the results pages in one shape.

A format (Loebner contests, wager sessions, Turing the Tables, studies, ...) lives in an app that `arena`
may not import.  So the format comes to the arena instead: it registers a `ResultsSource` from its
AppConfig.ready(), and the results pages, the leaderboard, the judges' table, the downloads and
`manage.py ratings` read every registered source together.

    # tournaments/loebner/apps.py
    class LoebnerConfig(AppConfig):
        def ready(self):
            from arena.results import source_register
            from tournaments.loebner.results import LoebnerResults
            source_register(LoebnerResults())

    # tournaments/loebner/results.py
    from arena.results import Outcome, judge_key

    class LoebnerResults:
        name = "loebner"                                     # unique among sources
        formats = {"loebner": "Loebner rounds"}              # format id -> label shown on the pages

        def outcomes(self, query):                           # query: ResultsQuery (may be ignored)
            for v in RoundVerdict.objects.filter(...):       # narrow by query.date_from/date_to if cheap
                yield Outcome(witness=v.entry.display_name, witness_is_machine=True, judged_human=v.human,
                              format="loebner", study=None, at=v.decided_at, judge=judge_key(v.judge),
                              decision=f"loebner:{v.pk}", partner=None, confidence=v.confidence)

        # optional: the arena interrogations this format realised its meetings as, so that the built-in
        # source does not count their verdicts a second time as "three-party" / "two-party"
        def interrogations_claimed(self):
            return Round.objects.values("interrogation_id")

        # optional: battles(query) -> Iterable[Battle]; without it they are derived from the outcomes

and, in the service where the format records a verdict, `arena.services.results_version_bump()` (the
cached results are keyed by a version that moves when that transaction commits: nothing is recomputed
until it does).

The shape
    Outcome: one witness in one decision.  `judged_human` True/False, or None (no decision: an abstention,
    "both bad"): then it counts in no rate.  `decision` groups the outcomes of one decision (a three-party
    verdict has two, with each other as `partner`); `judge` is a pseudonymous key (`judge_key(user)` for a
    platform user, "model:<name>" for a language-model judge), resolved to a username for organisers
    only.  A human witness is named "human" or "human:<stable key>" (`human_name`); every public figure
    pools them as "human".  A machine witness is named by its entry's display name (one that looks like a
    human's name is shown as "<name> (entry)").  `confidence`: 0–100 or None.  `at`: when the decision
    was made (an aware datetime; periods are whole UTC days).  `study`: the study's id (letters, digits,
    ".", "_", "-"; at most 64) or None.  `format`: one of the source's `formats`.
    Battle: a comparison for the leaderboard, `winner` "a", "b" or "tie".  Derived from the outcomes
    when a source has no `battles`: a decision with two witnesses, one judged human and one not, is a
    battle between them (the one judged human wins); a decision with one machine witness judged human or
    not is a battle against the pooled human baseline, "human"; any other decision is no battle.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol, runtime_checkable

HUMAN = "human"  # the pooled human baseline
WINNERS = ("a", "b", "tie")


@dataclass(frozen=True)
class Outcome:
    """One witness in one decision: was it judged human?"""

    witness: str
    witness_is_machine: bool
    judged_human: bool | None
    format: str
    study: str | None
    at: datetime
    judge: str
    decision: str
    partner: str | None = None
    confidence: float | None = None


@dataclass(frozen=True)
class Battle:
    """A comparison between two witnesses for the leaderboard (ties count half)."""

    a: str
    b: str
    winner: str
    format: str
    study: str | None
    at: datetime
    judge: str


@dataclass(frozen=True)
class ResultsQuery:
    """What a results page asks for: decisions made from `date_from` to `date_to` (inclusive, UTC dates),
    of one format and one study (None: all)."""

    date_from: date | None = None
    date_to: date | None = None
    format: str | None = None
    study: str | None = None

    def admits(self, record: Outcome | Battle) -> bool:
        day = record.at.date()
        return (
            (self.date_from is None or day >= self.date_from)
            and (self.date_to is None or day <= self.date_to)
            and (self.format is None or record.format == self.format)
            and (self.study is None or record.study == self.study)
        )

    def key(self) -> str:
        return "|".join(
            str(v) if v is not None else "" for v in (self.date_from, self.date_to, self.format, self.study)
        )

    def params(self) -> dict:
        """The query as URL parameters (what the filter form reads back)."""
        values = {"from": self.date_from, "to": self.date_to, "format": self.format, "study": self.study}
        return {k: str(v) for k, v in values.items() if v is not None}


@runtime_checkable
class ResultsSource(Protocol):
    name: str
    formats: dict[str, str]

    def outcomes(self, query: ResultsQuery) -> Iterable[Outcome]: ...


_SOURCES: dict[str, ResultsSource] = {}


def source_register(source: ResultsSource) -> None:
    """Register a format's results (from its AppConfig.ready()); registering a name again replaces it."""
    if not isinstance(source, ResultsSource) or not isinstance(source.formats, dict) or not source.formats:
        raise TypeError("a results source needs a name, a formats dict {id: label} and outcomes(query)")
    for other in _SOURCES.values():
        taken = set(other.formats) & set(source.formats)
        if other.name != source.name and taken:
            raise ValueError(f"format(s) {sorted(taken)} already belong to the results source {other.name!r}")
    _SOURCES[source.name] = source


def source_unregister(name: str) -> None:
    _SOURCES.pop(name, None)


def sources_registered() -> list[ResultsSource]:
    return list(_SOURCES.values())


def formats_registered() -> dict[str, str]:
    """Every format id with its label, in order of registration."""
    return {fmt: label for source in _SOURCES.values() for fmt, label in source.formats.items()}


def human_name(key) -> str:
    """The name of a human witness: "human:<key>" (pooled as "human" on public figures)."""
    return f"{HUMAN}:{key}"


def pooled(name: str) -> str:
    """Every human witness as the one baseline player "human"."""
    return HUMAN if name == HUMAN or name.startswith(HUMAN + ":") else name


def _machine_name(name: str) -> str:
    return f"{name} (entry)" if pooled(name) == HUMAN else name


def judge_key(user) -> str:
    """A platform user's pseudonymous judge key (resolved to a name for organisers only)."""
    return f"user:{int(user.pk)}"


def battles_from_outcomes(outcomes: Iterable[Outcome]) -> list[Battle]:
    """The battles a list of outcomes implies (see the module docstring), in order of decision."""
    decisions: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        decisions[(outcome.format, outcome.decision)].append(outcome)
    battles = []
    for group in decisions.values():
        first = group[0]
        if len(group) == 2:
            one, two = group
            if one.judged_human is None or two.judged_human is None or one.judged_human == two.judged_human:
                continue
            battles.append(
                Battle(
                    a=one.witness,
                    b=two.witness,
                    winner="a" if one.judged_human else "b",
                    format=first.format,
                    study=first.study,
                    at=first.at,
                    judge=first.judge,
                )
            )
        elif len(group) == 1 and first.witness_is_machine and first.judged_human is not None:
            battles.append(
                Battle(
                    a=first.witness,
                    b=HUMAN,
                    winner="a" if first.judged_human else "b",
                    format=first.format,
                    study=first.study,
                    at=first.at,
                    judge=first.judge,
                )
            )
    return battles


@dataclass
class Collected:
    """Every registered source's outcomes and battles that a query admits, each list in time order."""

    outcomes: list[Outcome] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)


def results_collect(query: ResultsQuery) -> Collected:
    collected = Collected()
    for source in sources_registered():
        if query.format is not None and query.format not in source.formats:
            continue
        outcomes = [
            dataclasses.replace(o, witness=_machine_name(o.witness)) if o.witness_is_machine else o
            for o in source.outcomes(query)
            if query.admits(o)
        ]
        battles = (
            source.battles(query) if callable(getattr(source, "battles", None)) else battles_from_outcomes(outcomes)
        )
        collected.outcomes += outcomes
        collected.battles += [b for b in battles if query.admits(b) and b.winner in WINNERS and b.a != b.b]
    collected.outcomes.sort(key=lambda o: o.at)
    collected.battles.sort(key=lambda b: b.at)
    return collected
