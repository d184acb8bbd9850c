"""Formats plug into the results: a registered ResultsSource's verdicts count in the leaderboard, the pass
rates (a block of their own), the judges' table and `manage.py ratings`; filters reach them; interrogations a
format claims are not counted twice; battles are derived from outcomes when a source gives none."""

import json
from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from arena.models import Interrogation
from arena.results import Battle, Outcome, ResultsQuery, battles_from_outcomes, source_register, source_unregister
from tests.arena.helpers import decided

AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)


class Paired:
    """A made-up contest format: paired comparisons of two machines (no human: the judge names the more
    human-like), and one-to-one trials judged by a language model, in study "spring"."""

    name = "paired-test"
    formats = {"paired": "Paired comparisons (test)", "llm-judged": "Judged by a language model (test)"}

    def __init__(self, claimed=()):
        self.claimed = claimed

    def outcomes(self, query):
        for k in range(6):
            at = AT + timedelta(days=k)
            gpt_wins = k < 5
            yield Outcome(
                witness="GPT-X",
                witness_is_machine=True,
                judged_human=gpt_wins,
                format="paired",
                study="spring",
                at=at,
                judge="model:judge-llm",
                decision=f"p{k}",
                partner="Simple Bot",
            )
            yield Outcome(
                witness="Simple Bot",
                witness_is_machine=True,
                judged_human=not gpt_wins,
                format="paired",
                study="spring",
                at=at,
                judge="model:judge-llm",
                decision=f"p{k}",
                partner="GPT-X",
            )
        yield Outcome(
            witness="GPT-X",
            witness_is_machine=True,
            judged_human=True,
            format="llm-judged",
            study=None,
            at=AT,
            judge="model:judge-llm",
            decision="t1",
        )
        yield Outcome(
            witness="human:h1",
            witness_is_machine=False,
            judged_human=True,
            format="llm-judged",
            study=None,
            at=AT,
            judge="model:judge-llm",
            decision="t2",
        )
        yield Outcome(
            witness="GPT-X",
            witness_is_machine=True,
            judged_human=None,
            format="llm-judged",
            study=None,
            at=AT,
            judge="model:judge-llm",
            decision="t3",
        )  # abstained: in no rate, no battle

    def interrogations_claimed(self):
        return self.claimed


@pytest.fixture
def paired(cast):
    source = Paired()
    source_register(source)
    yield source
    source_unregister(source.name)


def test_a_registered_format_counts_everywhere(paired):
    document = Client().get("/results/results.json").json()
    ratings = {r["name"]: r for r in document["ratings"]}
    assert ratings["GPT-X"]["battles"] == 7 and ratings["Simple Bot"]["battles"] == 6  # 6 paired + 1 against "human"
    assert ratings["GPT-X"]["rating"] > ratings["Simple Bot"]["rating"]
    blocks = {b["format"]: b["rows"] for b in document["rates"]}
    assert list(blocks) == ["paired", "llm-judged"]  # the arena has no verdicts here
    gpt = next(r for r in blocks["llm-judged"] if r["witness"] == "GPT-X")
    human = next(r for r in blocks["llm-judged"] if r["baseline"])
    assert (gpt["judged_human"], gpt["n"]) == (1, 1) and (human["judged_human"], human["n"]) == (1, 1)
    html = Client().get("/results/").content.decode()
    assert "Paired comparisons (test)" in html and '<option value="paired"' in html


def test_filters_reach_a_registered_source(paired, cast):
    decided(cast, witnesses=[cast.connie, cast.simple], judged_human=cast.connie)
    spring = Client().get("/results/results.json?study=spring").json()
    assert {r["name"] for r in spring["ratings"]} == {"GPT-X", "Simple Bot"} and spring["battles"] == 6
    assert [b["format"] for b in spring["rates"]] == ["paired"]  # the arena's own verdicts belong to no study
    first_days = Client().get("/results/results.json?format=paired&from=2026-03-14&to=2026-03-15").json()
    assert first_days["battles"] == 2
    everything = Client().get("/results/results.json").json()
    assert [b["format"] for b in everything["rates"]] == ["three-party", "paired", "llm-judged"]


def test_judges_of_any_source_on_the_organisers_page(paired, cast):
    client = Client()
    client.force_login(cast.olivia)
    rows = {r["judge"]: r for r in client.get("/results/judges/judges.json").json()["judges"]}
    # paired: both witnesses machines, so picking either is wrong; llm-judged: GPT-X judged human (wrong),
    # the human judged human (right), the abstention is no decision
    assert (rows["model:judge-llm"]["correct"], rows["model:judge-llm"]["n"]) == (1, 8)


def test_claimed_interrogations_are_not_counted_twice(cast):
    ours = decided(cast, witnesses=[cast.connie, cast.simple], judged_human=cast.simple)
    decided(cast, witnesses=[cast.connie, cast.eliza], judged_human=cast.connie)
    source = Paired(claimed=Interrogation.objects.filter(pk=ours.interrogation_id).values("pk"))
    source_register(source)
    try:
        three = Client().get("/results/results.json?format=three-party").json()
    finally:
        source_unregister(source.name)
    assert three["battles"] == 1 and {r["name"] for r in three["ratings"]} == {"human", "ELIZA"}


def test_the_ratings_command_rates_every_source(paired):
    out = StringIO()
    call_command("ratings", "--bootstrap", "20", "--seed", "3", "--json", stdout=out, stderr=StringIO())
    document = json.loads(out.getvalue())
    assert list(document) == ["ratings"]
    assert {r["name"] for r in document["ratings"]} == {"GPT-X", "Simple Bot", "human"}
    assert all(list(r) == ["name", "rating", "ci_low", "ci_high", "battles"] for r in document["ratings"])


def test_battles_are_derived_from_outcomes():
    def outcome(witness, machine, judged, decision):
        return Outcome(
            witness=witness,
            witness_is_machine=machine,
            judged_human=judged,
            format="f",
            study=None,
            at=AT,
            judge="user:1",
            decision=decision,
        )

    battles = battles_from_outcomes(
        [
            outcome("A", True, False, "1"),
            outcome("human:x", False, True, "1"),  # three-party: the human wins
            outcome("A", True, True, "2"),  # alone, judged human: A beats the baseline
            outcome("human:y", False, True, "3"),  # a human alone: no battle
            outcome("B", True, None, "4"),  # no decision: no battle
            outcome("A", True, True, "5"),
            outcome("B", True, True, "5"),  # both "human": no winner, no battle
        ]
    )
    assert [(b.a, b.b, b.winner) for b in battles] == [("A", "human:x", "b"), ("A", "human", "a")]


def test_the_registry_refuses_what_it_cannot_use(paired):
    class Nameless:
        formats = {}

        def outcomes(self, query):
            return []

    with pytest.raises(TypeError, match="formats"):
        source_register(Nameless())

    class Thief(Paired):
        name = "thief"

    with pytest.raises(ValueError, match="already belong to the results source 'paired-test'"):
        source_register(Thief())


def test_a_source_may_give_its_own_battles(cast):
    class Ties(Paired):
        name = "ties-test"
        formats = {"ties": "Ties (test)"}

        def outcomes(self, query):
            return []

        def battles(self, query):
            return [
                Battle(a="GPT-X", b="Simple Bot", winner="tie", format="ties", study=None, at=AT, judge="model:j")
            ] * 4

    source_register(Ties())
    try:
        document = Client().get("/results/results.json").json()
    finally:
        source_unregister("ties-test")
    assert document["battles"] == 4 and document["ratings"][0]["rating"] == pytest.approx(1000.0)
    assert ResultsQuery(format="ties").admits(
        Battle(a="a", b="b", winner="a", format="ties", study=None, at=AT, judge="j")
    )


def test_a_period_is_whole_utc_days_from_first_to_last(cast):
    from arena.models import Verdict
    from arena.results.arena_source import ArenaResults

    late = decided(cast, witnesses=[cast.connie, cast.simple], judged_human=cast.connie)
    early = decided(cast, witnesses=[cast.connie, cast.eliza], judged_human=cast.connie)
    Verdict.objects.filter(pk=late.pk).update(decided_at=datetime(2026, 1, 31, 23, 59, 59, tzinfo=UTC))
    Verdict.objects.filter(pk=early.pk).update(decided_at=datetime(2026, 2, 1, 0, 0, 0, tzinfo=UTC))
    source = ArenaResults()

    def decisions(**period):
        return {o.decision for o in source.outcomes(ResultsQuery(**period))}

    assert decisions(date_to=datetime(2026, 1, 31).date()) == {str(late.pk)}
    assert decisions(date_from=datetime(2026, 2, 1).date()) == {str(early.pk)}
    day = datetime(2026, 1, 31).date()
    assert decisions(date_from=day, date_to=day) == {str(late.pk)}
    assert decisions(study="spring") == set()  # the arena's own interrogations belong to no study
