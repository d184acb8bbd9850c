"""Results from real verdict rows (the arena's built-in results source): verdicts as battles, ratings, pass
rates beside the human baseline, judge accuracy; and the `ratings` command on a battles file and on the
platform's verdicts."""

import json

import pytest
from django.core.management import CommandError, call_command

from arena.models import Entry
from arena.results import ResultsQuery, compute
from arena.results.sources import results_collect
from arena.selectors.results import results_battles, results_judges, results_ratings
from tests.arena.helpers import decided
from tests.conftest import FAST


def ratings_command(*args):
    from io import StringIO

    out, err = StringIO(), StringIO()
    call_command("ratings", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def verdicts(cast):
    """Three-party: Simple Bot beats the confederates 1 time in 4, ELIZA never; one ELIZA-vs-Simple game;
    one-to-one: ELIZA judged human once of 2, connie judged human of 1 (not a battle)."""
    for k in range(4):
        decided(
            cast,
            witnesses=[cast.connie if k % 2 else cast.carl, cast.simple],
            judged_human=cast.simple if k == 0 else (cast.connie if k % 2 else cast.carl),
        )
    for _ in range(3):
        decided(cast, witnesses=[cast.connie, cast.eliza], judged_human=cast.connie, judge=cast.june)
    decided(cast, witnesses=[cast.eliza, cast.simple], judged_human=cast.simple)
    decided(cast, witnesses=[cast.connie, cast.carl], judged_human=cast.carl)  # two humans: no battle when pooled
    decided(cast, witnesses=[cast.eliza], judged_human=cast.eliza)
    decided(cast, witnesses=[cast.eliza], judged_human=None, judge=cast.june)
    decided(cast, witnesses=[cast.connie], judged_human=cast.connie)
    return cast


def pass_rates(fmt=None):
    return compute.pass_rates(results_collect(ResultsQuery()).outcomes, fmt=fmt)


def test_verdicts_become_battles_with_humans_pooled(verdicts):
    battles, judges = results_battles()
    rows = [(battles.names[a], battles.names[b], s) for a, b, s in zip(battles.a, battles.b, battles.score)]
    as_pairs = sorted((frozenset((x, y)), x if s == 1 else y) for x, y, s in rows)
    assert len(rows) == 10  # 4 + 3 + 1 three-party battles and 2 one-to-one; the human-human game and
    #                          the one-to-one game of a human witness are no battles
    winners = [w for _, w in as_pairs]
    assert winners.count("Simple Bot") == 2 and winners.count("ELIZA") == 1 and winners.count("human") == 7
    assert {frozenset(("ELIZA", "human")), frozenset(("Simple Bot", "human")), frozenset(("ELIZA", "Simple Bot"))} == {
        pair for pair, _ in as_pairs
    }
    assert judges.count(f"user:{verdicts.june.pk}") == 4 and len(judges) == 10


def test_per_confederate_players_when_not_pooled(verdicts):
    names = set(results_battles(pool_humans=False)[0].names)
    assert {"human:connie", "human:carl", "Simple Bot", "ELIZA"} <= names
    # one-to-one games are still played against the pooled baseline
    assert "human" in names


def test_pass_rates_beside_the_human_baseline(verdicts):
    three = {r["name"]: r for r in pass_rates("three-party")}
    first = pass_rates("three-party")[0]
    assert first["name"] == "human" and first["baseline"]
    assert (three["Simple Bot"]["judged_human"], three["Simple Bot"]["n"]) == (2, 5)
    assert (three["ELIZA"]["judged_human"], three["ELIZA"]["n"]) == (0, 4)
    assert (three["human"]["judged_human"], three["human"]["n"]) == (7, 9)  # 3 + 3 + 1 of 4 + 3 + 2
    eliza = three["ELIZA"]
    assert eliza["rate"] == 0.0 and eliza["ci_low"] == 0.0 and 0.3 < eliza["ci_high"] < 0.7
    assert eliza["p_value"] == pytest.approx(0.125)
    one = {r["name"]: r for r in pass_rates("two-party")}
    assert (one["ELIZA"]["judged_human"], one["ELIZA"]["n"]) == (1, 2)
    assert (one["human"]["judged_human"], one["human"]["n"]) == (1, 1)


def test_judge_accuracy_with_intervals(verdicts):
    rows = {r["judge"]: r for r in results_judges()}
    # jude: 4 Simple games (3 right), ELIZA–Simple (picked a machine: wrong), connie–carl (right),
    # one-to-one ELIZA judged human (wrong), connie judged human (right)
    assert (rows["jude"]["correct"], rows["jude"]["n"]) == (5, 8)
    assert (rows["june"]["correct"], rows["june"]["n"]) == (4, 4)
    assert rows["june"]["ci_low"] > 0.4 and rows["june"]["ci_high"] == 1.0
    assert all(r["outlier"] is False for r in rows.values())  # far too few votes to accuse anyone


def test_no_verdicts_no_crash(cast):
    assert results_battles()[0].players == 0
    assert results_ratings(replicates=100).ratings == []
    assert results_judges() == []
    assert [r["name"] for r in pass_rates()] == ["human"]


def test_ratings_command_on_the_platforms_verdicts(verdicts):
    out, err = ratings_command("--bootstrap", "50", "--seed", "1", "--json")
    rows = {r["name"]: r for r in json.loads(out)["ratings"]}
    assert set(rows) == {"human", "Simple Bot", "ELIZA"}
    assert rows["human"]["rating"] > rows["Simple Bot"]["rating"] > rows["ELIZA"]["rating"]
    assert rows["human"]["battles"] == 9
    assert "note:" not in err  # ELIZA won once and lost: the maximum-likelihood fit exists


# --- the command on a file -----------------------------------------------------------------------------


def write(tmp_path, lines):
    path = tmp_path / "battles.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


SMALL = [
    json.dumps(r)
    for r in (
        [{"a": "GPT-4", "b": "human", "winner": "a"}] * 5
        + [{"a": "human", "b": "GPT-4", "winner": "a"}] * 5
        + [{"a": "ELIZA", "b": "human", "winner": "b"}] * 8
        + [{"a": "ELIZA", "b": "human", "winner": "a"}] * 2
        + [{"a": "ELIZA", "b": "GPT-4", "winner": "tie"}] * 2
        + [{"a": "GPT-4", "b": "ELIZA", "winner": "a"}] * 4
    )
]


def test_ratings_command_prints_the_documented_json(tmp_path, db):
    path = write(tmp_path, SMALL)
    out, _ = ratings_command("--input", path, "--bootstrap", "200", "--seed", "7", "--json")
    document = json.loads(out)
    assert list(document) == ["ratings"]
    rows = document["ratings"]
    assert all(list(r) == ["name", "rating", "ci_low", "ci_high", "battles"] for r in rows)
    assert [r["name"] for r in rows] == ["GPT-4", "human", "ELIZA"]
    assert {r["name"]: r["battles"] for r in rows} == {"GPT-4": 16, "human": 20, "ELIZA": 16}
    assert sum(r["rating"] for r in rows) / 3 == pytest.approx(1000.0)
    assert all(r["ci_low"] < r["rating"] < r["ci_high"] for r in rows)
    assert ratings_command("--input", path, "--bootstrap", "200", "--seed", "7", "--json")[0] == out  # seeded


def test_ratings_command_anchor_and_no_bootstrap(tmp_path, db):
    path = write(tmp_path, SMALL)
    rows = json.loads(ratings_command("--input", path, "--bootstrap", "0", "--anchor", "human=1000", "--json")[0])[
        "ratings"
    ]
    human = next(r for r in rows if r["name"] == "human")
    assert human["rating"] == pytest.approx(1000.0) and human["ci_low"] is None and human["ci_high"] is None
    with pytest.raises(CommandError, match="NAME=RATING"):
        ratings_command("--input", path, "--anchor", "human", "--json")
    with pytest.raises(CommandError, match="'nobody' is not one of the rated players"):
        ratings_command("--input", path, "--anchor", "nobody=1000", "--json")


def test_ratings_command_names_the_bad_line(tmp_path, db):
    lines = SMALL[:2] + ["", '{"a": "GPT-4", "b": "human", "winner": "both"}']
    with pytest.raises(CommandError, match=r"line 4: 'winner' must be"):
        ratings_command("--input", write(tmp_path, lines), "--json")
    with pytest.raises(CommandError, match=r"line 2: not JSON"):
        ratings_command("--input", write(tmp_path, [SMALL[0], "{oops"]), "--json")
    with pytest.raises(CommandError, match="cannot read"):
        ratings_command("--input", str(tmp_path / "missing.jsonl"), "--json")


def test_ratings_command_says_when_a_witness_always_wins(tmp_path, db):
    lines = [json.dumps({"a": "GPT-4.5", "b": "human", "winner": "a"})] * 3 + SMALL
    out, err = ratings_command("--input", write(tmp_path, lines), "--bootstrap", "20", "--seed", "1", "--json")
    assert json.loads(out)["ratings"][0]["name"] == "GPT-4.5"
    assert "note: GPT-4.5 won every battle it played (3)" in err and "prior" in err


def test_ratings_command_table_output(tmp_path, db):
    out, _ = ratings_command("--input", write(tmp_path, SMALL), "--bootstrap", "30", "--seed", "2")
    assert out.splitlines()[0].startswith("name") and "GPT-4" in out.splitlines()[1]
    out, _ = ratings_command("--input", write(tmp_path, []), "--json")
    assert json.loads(out) == {"ratings": []}


def test_an_entry_named_human_is_not_mistaken_for_the_human_baseline(cast):
    impostor = Entry.objects.create(display_name="human", engine="simple", settings=dict(FAST))
    decided(cast, witnesses=[cast.connie, impostor], judged_human=impostor)
    assert sorted(results_battles()[0].names) == ["human", "human (entry)"]


def test_a_judge_capped_per_day_counts_only_their_first_verdicts(verdicts):
    # jude gave 8 verdicts today, 6 of them battles; june 4 (all battles)
    battles, judges = results_battles(cap_per_judge_day=2)
    assert judges.count(f"user:{verdicts.jude.pk}") == 2 and judges.count(f"user:{verdicts.june.pk}") == 2
    assert len(battles) == 4 == len(judges)
    three_party = results_ratings(replicates=0, query=ResultsQuery(format="three-party"))
    assert {r.name: r.battles for r in three_party.ratings}["human"] == 7
