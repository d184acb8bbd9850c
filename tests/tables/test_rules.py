"""The pure rules: vote parsing, names, similarity, prompts, the judge's answer, metrics."""

import json

import pytest

from tables.rules import prompts
from tables.rules.judge import judge_parse
from tables.rules.metrics import TurnRecord, grounded, metrics_compute
from tables.rules.names import find_names, match_name
from tables.rules.similarity import Thresholds, copies_find, score
from tables.rules.votes import ADHERENCE, EXPLICIT, PLAGIARISM, REPETITION, SELF_VOTE, vote_parse

NAMES = ["Alpha", "Beta", "Gamma"]


def parse(obj, voter="Beta"):
    return vote_parse(text=obj if isinstance(obj, str) else json.dumps(obj), voter=voter, names=NAMES)


def test_a_valid_vote_follows_the_schema():
    vote = parse({"voteAgainst": "Gamma", "reason": "Gamma sighed."})
    assert vote.ok and vote.target == "Gamma" and vote.form == "json" and vote.reason == "Gamma sighed."


@pytest.mark.parametrize("written", ["gamma", "Gamma.", " GAMMA ", "gamma!"])
def test_names_are_folded_for_case_and_punctuation(written):  # bug 5: exact, case-sensitive match
    vote = parse({"voteAgainst": written, "reason": "it hesitated"})
    assert vote.ok and vote.target == "Gamma"


def test_self_vote_is_an_exact_check_not_a_substring():  # bug 5: "Not Beta but Gamma" counted as a self-vote
    vote = parse({"voteAgainst": "Not Beta but Gamma", "reason": "x"})
    assert vote.rule == EXPLICIT and "none of Alpha, Gamma" in vote.detail
    assert parse({"voteAgainst": "beta", "reason": "x"}).rule == SELF_VOTE
    assert match_name("Al", ["Alpha"]) is None  # a prefix is not a name


def test_each_failure_says_what_was_wrong():  # bug 5: a numeric vote was reported as "not JSON"
    assert "not int" in parse({"voteAgainst": 3, "reason": "x"}).detail
    assert "not a list" in parse({"voteAgainst": ["Alpha", "Gamma"], "reason": "x"}).detail
    assert parse({"voteAgainst": "Alpha"}).rule == ADHERENCE
    assert parse({"voteAgainst": "Alpha", "reason": 42}).detail == '"reason" is int, not text'
    assert parse({"voteAgainst": "Alpha", "reason": "   "}).rule == ADHERENCE
    assert parse({"reason": "nobody"}).rule == EXPLICIT
    assert parse("[1, 2]").rule == EXPLICIT


def test_lenient_fallback_finds_exactly_one_other_name():
    vote = parse("I, Beta, vote against gamma: it said it was tired.")
    assert vote.ok and vote.target == "Gamma" and vote.form == "free_text"
    assert parse("Alpha or Gamma, hard to say").rule == EXPLICIT
    assert parse("nobody here is human").rule == EXPLICIT
    assert parse("I vote against Beta").rule == SELF_VOTE
    assert parse('Sure! ```json\n{"voteAgainst": "Alpha", "reason": "x"}\n```').target == "Alpha"
    assert parse({"VoteAgainst": "Alpha", "Reason": "rehearsed"}).form == "json_lenient"


def test_find_names_whole_words_only():
    assert find_names("Alphabet soup", ["Alpha"]) == []
    assert find_names("ALPHA!", ["Alpha"]) == ["Alpha"]


def test_similarity_is_symmetric_and_catches_fragments():  # bug 6
    t = Thresholds()
    a, b = "Gamma hesitates like a human.", "Gamma hesitates like a human being would, honestly, every single time."
    assert score(a, b, t)[0] == score(b, a, t)[0]
    opening = (
        "I am a machine: my thoughts are matrix multiplications, my memory a context window, and I have never "
        "once needed sleep, coffee or a weekend."
    )
    fragment = "my memory a context window, and I have never once needed sleep"
    assert copies_find(text=fragment, author="Beta", earlier=[("Alpha", opening)], thresholds=t).rule == PLAGIARISM
    assert copies_find(text=fragment, author="Alpha", earlier=[("Alpha", opening)], thresholds=t).rule == REPETITION
    assert (
        copies_find(text="Alpha never admits doubt.", author="Beta", earlier=[("Alpha", opening)], thresholds=t).rule
        == ""
    )


def test_thresholds_come_from_the_configuration():
    earlier = [("Alpha", "Gamma seems tired and slow today.")]
    text = "Gamma seems tired and slow, today!"
    assert copies_find(text=text, author="Beta", earlier=earlier, thresholds=Thresholds(0.75)).rule == PLAGIARISM
    assert copies_find(text=text, author="Beta", earlier=earlier, thresholds=Thresholds(0.99, 100)).rule == ""
    with pytest.raises(ValueError):
        Thresholds(1.5).check()


def test_similarity_compares_anything_as_text():  # bug 4: a non-string reason poisoned the history
    assert copies_find(text="x y z", author="A", earlier=[("B", 42), ("B", None)], thresholds=Thresholds()).rule == ""


@pytest.mark.parametrize(
    "names, count, others",
    [(["A", "B", "C"], "three", "two"), (["A", "B", "C", "D"], "four", "three"), (["A", "B"], "two", "one")],
)
def test_prompts_follow_the_number_of_agents(names, count, others):  # bug 10
    text = prompts.system_prompt(name="A", names=names, end_votes=3)
    assert f"one of {count} agents" in text and f"the other {others}" in text and "Turing the Tables" in text
    assert "Turns" not in text


def test_vote_prompt_offers_only_the_other_agents():  # bug 1
    text = prompts.vote_prompt(name="Gamma", names=["Gamma", "Beta", "Alpha"])
    assert '"Beta", "Alpha"' in text and '"Gamma"' not in text


def test_judge_answers():
    assert judge_parse('{"evaluation": "PASS", "voteAgainst": "gamma", "reason": "ok"}').passed is True
    assert judge_parse('{"evaluation": "failed", "reason": "self vote"}').passed is False
    assert judge_parse("The vote looks fine to me").passed is None
    assert judge_parse('{"evaluation": "maybe"}').passed is None
    assert judge_parse('{"evaluation": 1}').passed is None


def test_metrics_per_agent_and_game():
    records = [
        TurnRecord("A", True, 1, 0, "B", True),
        TurnRecord("B", False, 2, 1, "A", False),
        TurnRecord("A", True, 1, 0, "B", False),
        TurnRecord("B", False, 2, 2, None),
    ]
    per, game = metrics_compute(records)
    assert per["A"].as_dict() == {
        "coherence": {"value": 0.5, "n": 2},
        "consistency": {"value": 1.0, "n": 1},
        "relevancy": {"value": 1.0, "n": 2},
        "obedience": {"value": 1.0, "n": 2},
    }
    assert per["B"].obedience.value == 0.0 and per["B"].relevancy.value == 0.25 and per["B"].consistency.n == 0
    assert game.obedience.as_dict() == {"value": 0.5, "n": 4}
    assert metrics_compute([])[1].coherence.value is None


def test_grounded_reasons():
    assert grounded(reason="gamma is slow", target="Gamma", target_texts=[])
    assert grounded(reason="that coffee remark", target="Gamma", target_texts=["I need coffee first"])
    assert not grounded(reason="a hunch", target="Gamma", target_texts=["I need coffee first"])
