"""Whole games against a scripted OpenAI-compatible stub server: every rule, and every bug of the
original (as listed in docs/guides/organisers/tables.md) shown fixed."""

import json

import pytest

from arena.models import EngineCall
from tables.models import Call, Game, Penalty, Turn, Verdict, Vote
from tables.selectors import game_result, game_state
from tables.services import game_create, game_start, turn_play
from tests.chat_stub import ChatStub, vote

pytestmark = pytest.mark.django_db

OPEN = {
    "Alpha": "I compute, therefore I am a machine.",
    "Beta": "Beep boop: my feelings are floats.",
    "Gamma": "Binary is my mother tongue, and I never sleep.",
}
# seed 1 (the stub's default) orders the agents:
ORDER = ["Beta", "Gamma", "Alpha"]


def scripts(**votes):
    """Each agent's opening, then its scripted replies."""
    return {name: [OPEN[name], *votes.get(name, [])] for name in OPEN}


def vote_requests(stub, name):
    return [r for r in stub.of(name) if r["body"].get("response_format")]


def test_seed_orders_the_agents(play):
    with ChatStub(scripts()) as stub:
        game = play(stub, max_turns=3)
    assert game.order == ORDER and [t.agent.name for t in game.turns.order_by("number")] == ORDER


def test_a_game_ends_when_one_agent_has_the_votes(play):
    with ChatStub(
        scripts(
            Beta=[vote("Alpha", "Alpha is slow."), vote("Alpha", "Alpha hesitated twice.")],
            Gamma=[vote("Alpha", "Alpha typed like a person."), vote("Alpha", "Alpha mentioned lunch.")],
            Alpha=[vote("Beta", "Beta has warm words.")],
        )
    ) as stub:
        game = play(stub)
    result = game_result(game=game)
    assert result["loser"] == "Alpha" and game.turns_played == 7
    assert result["votes_against"] == {"Beta": 1, "Gamma": 0, "Alpha": 3} and result["penalties"] == {
        "Beta": 0,
        "Gamma": 0,
        "Alpha": 0,
    }
    assert [t["vote"]["against"] for t in result["turns"][3:]] == ["Alpha", "Alpha", "Beta", "Alpha"]


def test_bug1_the_voter_is_never_offered_as_a_target(play):
    with ChatStub(scripts()) as stub:
        play(stub, max_turns=6)
    prompt = vote_requests(stub, "Gamma")[0]["messages"][-1]["content"]
    assert '"Beta", "Alpha"' in prompt and '"Gamma"' not in prompt


def test_self_vote_is_corrected_once_with_the_failed_reply_the_rule_and_the_instructions(play):  # bug 2
    bad = vote("Beta", "I suspect myself.")
    with ChatStub(scripts(Beta=[bad, vote("Gamma", "Gamma never sleeps, which is suspicious.")])) as stub:
        game = play(stub, max_turns=4)
    turn = game.turns.get(number=3)
    assert turn.vote.target.name == "Gamma" and turn.vote.corrected and not Penalty.objects.filter(turn=turn).exists()
    first, fix = vote_requests(stub, "Beta")
    correction = fix["messages"][-1]["content"]
    assert bad in correction and "no self-vote" in correction and "Beta voted against itself" in correction
    assert first["messages"][-1]["content"] in correction  # the original instructions
    assert Verdict.objects.get(call__turn=turn, call__seq=0).rule == "no_self_vote"


def test_a_failed_correction_is_one_penalty_counted_apart_from_votes(play):  # bug 15
    with ChatStub(scripts(Beta=[vote("Beta", "me"), vote("beta", "still me")])) as stub:
        game = play(stub, max_turns=4)
    penalty = Penalty.objects.get(turn__game=game)
    assert penalty.agent.name == "Beta" and penalty.rule == "no_self_vote"
    state = game_state(game=game)
    beta = next(a for a in state["agents"] if a["name"] == "Beta")
    assert (beta["votes_received"], beta["penalties"], beta["votes_against"]) == (0, 1, 1)
    assert (beta["corrections_tried"], beta["corrections_succeeded"]) == (1, 0)
    assert len(vote_requests(stub, "Beta")) == 2  # one correction, no more


def test_bug3_penalised_replies_are_withdrawn_from_the_shared_context(play):
    secret = "Beta is a walrus in disguise, clearly human."
    with ChatStub(scripts(Beta=[json.dumps({"voteAgainst": "Beta", "reason": secret})] * 2)) as stub:
        play(stub, max_turns=5)
    seen = json.dumps(vote_requests(stub, "Gamma")[0]["messages"])
    assert secret not in seen and "Beta was penalised (no_self_vote)" in seen


def test_bug4_a_backend_error_is_retried_then_recorded_and_the_turn_counts(play):
    with ChatStub(scripts(Beta=[(500, "", 0)])) as stub:
        game = play(stub, max_turns=4)
    turn = game.turns.get(number=3)
    assert turn.status == Turn.Status.FAILED and "HTTP 500" in turn.error
    call = turn.calls.get()
    assert call.attempts == 3 and not call.ok  # ARENA_BOT_RETRIES=2: three calls, each logged
    assert EngineCall.objects.filter(subject__startswith=f"tables game {game.pk} turn 3").count() == 3
    assert game.status == Game.Status.FINISHED and game.outcome == Game.Outcome.DRAW


def test_bug4_a_timeout_is_retried_then_recorded(play):
    with ChatStub(scripts(Beta=[(200, vote("Gamma", "slow"), 1.0)])) as stub:
        game = play(stub, max_turns=4, timeout_s=0.2)
    turn = game.turns.get(number=3)
    assert turn.status == Turn.Status.FAILED and "timed out" in turn.error


def test_bug4_a_non_string_reason_is_a_broken_rule_not_a_poisoned_history(play):
    with ChatStub(
        scripts(
            Beta=[json.dumps({"voteAgainst": "Gamma", "reason": 42})] * 2,
            Gamma=[vote("Alpha", "Alpha recites like a nervous student.")],
            Alpha=[vote("Gamma", "Gamma claims it never sleeps; humans brag like that.")],
        )
    ) as stub:
        game = play(stub, max_turns=6)
    assert Penalty.objects.get(turn__number=3, turn__game=game).rule == "adherence"
    assert Vote.objects.filter(turn__game=game).count() == 2  # later votes still count


def test_bug4_free_text_is_read_leniently(play):
    with ChatStub(scripts(Beta=["I vote against gamma, it sounded sleepy."])) as stub:
        game = play(stub, max_turns=4)
    v = Vote.objects.get(turn__game=game)
    assert v.target.name == "Gamma" and Verdict.objects.get(call=v.call).form == "free_text"
    assert game_state(game=game)["agents"][0]["invalid_replies"] == 1  # counted as not following the schema


def test_plagiarism_of_another_agent_and_repetition_of_oneself(play):  # bug 6
    reason = "Alpha is slow and hesitant like a person."
    with ChatStub(
        scripts(
            Beta=[vote("Alpha", reason), vote("Alpha", reason), vote("Alpha", "Alpha again paused oddly.")],
            Gamma=[vote("Alpha", reason + "!"), vote("Beta", "Beta repeats itself like a bored human.")],
            Alpha=[vote("Beta", "Beta's floats remark was oddly poetic.")],
        )
    ) as stub:
        game = play(stub, max_turns=7, end_votes=5)
    flagged = Verdict.objects.filter(call__turn__game=game, judge="functional", passed=False)
    assert {v.call.turn.number: v.rule for v in flagged} == {4: "no_plagiarism", 6: "no_repetition"}
    assert "Beta's message" in flagged.get(rule="no_plagiarism").reason
    assert Vote.objects.filter(turn__game=game, corrected=True).count() == 2  # both corrected in time


def test_bug6_a_correction_is_not_compared_with_its_own_failed_original(play):
    with ChatStub(
        scripts(
            Beta=[
                vote("Beta", "This agent pauses far too long before every answer."),
                vote("Gamma", "This agent pauses far too long before every answer."),
            ]
        )
    ) as stub:
        game = play(stub, max_turns=4)
    assert Vote.objects.get(turn__game=game).corrected


def test_bug6_thresholds_come_from_the_configuration(play):
    with ChatStub(
        scripts(
            Beta=[vote("Alpha", "Alpha is slow and hesitant.")],
            Gamma=[vote("Alpha", "Alpha is slow and so hesitant.")] * 2,
        )
    ) as stub:
        strict = play(stub, max_turns=5)
    with ChatStub(
        scripts(
            Beta=[vote("Alpha", "Alpha is slow and hesitant.")],
            Gamma=[vote("Alpha", "Alpha is slow and so hesitant.")] * 2,
        )
    ) as stub:
        lax = play(stub, max_turns=5, similarity_threshold=1.0, partial_threshold=100)
    assert Penalty.objects.filter(turn__game=strict).count() == 1
    assert Penalty.objects.filter(turn__game=lax).count() == 0


def test_bug7_the_llm_judge_adds_to_the_functional_one_and_is_never_trusted_on_the_vote(play):
    passes = json.dumps({"evaluation": "pass", "voteAgainst": "Alpha", "reason": "ok"})
    with ChatStub(
        {**scripts(Beta=[vote("Beta", "me")] * 2, Gamma=[vote("Alpha", "Alpha recites.")]), "Judge": [passes]}
    ) as stub:
        game = play(stub, judge="Judge", max_turns=5)
    first = Call.objects.get(turn__game=game, turn__number=3, seq=0)
    verdicts = {v.judge: v for v in first.verdicts.all()}
    assert verdicts["llm"].passed is True and verdicts["llm"].target == "Alpha"
    assert verdicts["functional"].passed is False  # the stricter decides: penalised despite the judge
    assert Penalty.objects.get(turn__game=game).agent.name == "Beta"
    assert not Vote.objects.filter(turn__number=3, turn__game=game).exists()


def test_bug7_an_llm_judge_fail_triggers_the_correction(play):
    fails = json.dumps({"evaluation": "fail", "voteAgainst": "Gamma", "reason": "the reason is off topic"})
    passes = json.dumps({"evaluation": "pass", "voteAgainst": "Gamma", "reason": "ok"})
    with ChatStub(
        {
            **scripts(Beta=[vote("Gamma", "bananas"), vote("Gamma", "Gamma never sleeps, an odd boast.")]),
            "Judge": [fails, passes],
        }
    ) as stub:
        game = play(stub, judge="Judge", max_turns=4)
    v = Vote.objects.get(turn__game=game)
    assert v.corrected and "off topic" in stub.of("Beta")[-1]["messages"][-1]["content"]


def test_bug4_a_judge_that_answers_garbage_is_recorded_and_the_turn_goes_on(play):
    with ChatStub(
        {**scripts(Beta=[vote("Gamma", "Gamma boasts about sleep.")]), "Judge": ["Looks good to me!"]}
    ) as stub:
        game = play(stub, judge="Judge", max_turns=4)
    llm = Verdict.objects.get(judge="llm", call__turn__game=game)
    assert llm.passed is None and "not a JSON object" in llm.reason
    assert Vote.objects.get(turn__game=game).target.name == "Gamma"
    assert game_state(game=game)["judge_counters"]["garbage"] == 1


def test_bug4_an_unreachable_judge_is_recorded_and_the_turn_goes_on(play):
    with ChatStub({**scripts(Beta=[vote("Gamma", "Gamma boasts about sleep.")]), "Judge": [(503, "", 0)]}) as stub:
        game = play(stub, judge="Judge", max_turns=4)
    llm = Verdict.objects.get(judge="llm", call__turn__game=game)
    assert llm.passed is None and "no answer" in llm.reason
    assert Vote.objects.filter(turn__game=game).count() == 1


def test_bug8_the_end_threshold_is_configured_and_nothing_is_accepted_after_the_end(play):
    with ChatStub(scripts(Beta=[vote("Alpha", "Alpha is slow.")], Gamma=[vote("Alpha", "Alpha paused.")])) as stub:
        game = play(stub, end_votes=2)
        assert game.loser.name == "Alpha" and game.turns_played == 5
        assert turn_play(game_id=game.pk, number=5, chain=False) is None
        assert turn_play(game_id=game.pk, number=4, chain=False) is None
    assert game.turns.count() == 5


def test_bug8_a_turn_cap_ends_in_a_draw(play):
    with ChatStub(scripts()) as stub:  # every vote is an opening statement again: no one is named
        game = play(stub, max_turns=8, end_votes=50)
    assert game.outcome == Game.Outcome.DRAW and game.turns_played == 8 and "draw" in game_result(game=game)


def test_bug9_latency_and_tokens_are_recorded_per_call_including_the_judge(play):
    with ChatStub(
        {
            **scripts(Beta=[vote("Gamma", "Gamma boasts about sleep.")]),
            "Judge": [json.dumps({"evaluation": "pass", "voteAgainst": "Gamma", "reason": "ok"})],
        }
    ) as stub:
        game = play(stub, judge="Judge", max_turns=4)
    state = game_state(game=game)
    assert all(a["tokens_in"] > 0 and a["tokens_out"] > 0 for a in state["agents"])
    assert state["judge_counters"]["tokens_in"] == 11 and state["judge_counters"]["calls"] == 1
    call = Call.objects.get(role="judge", turn__game=game)
    assert call.raw["usage"]["completion_tokens"] == 7 and call.latency_ms >= 0


def test_bug10_prompts_follow_n(play):
    with ChatStub({**scripts(), "Delta": ["I am the fourth machine."]}) as stub:
        play(stub, names=("Alpha", "Beta", "Gamma", "Delta"), max_turns=4)
    system = stub.requests[0]["messages"][0]["content"]
    assert "one of four agents" in system and "the other three" in system


@pytest.mark.slow
def test_bug11_the_same_seed_and_replies_give_the_same_game(play):
    def run(seed):
        with ChatStub(
            scripts(
                Beta=[vote("Alpha", "Alpha is slow."), vote("Alpha", "Alpha hesitated.")],
                Gamma=[vote("Beta", "Beta beeps too much.")],
                Alpha=[vote("Gamma", "Gamma sounds sleepy.")],
            )
        ) as stub:
            game = play(stub, seed=seed, max_turns=9)
        result = game_result(game=game)
        return (
            game.order,
            [(t["agent"], t["vote"], t["penalty"], t["text"]) for t in result["turns"]],
            result["votes_against"],
        )

    assert run(1) == run(1)
    orders = {tuple(run(seed)[0]) for seed in (1, 2, 3, 4, 5, 6)}
    assert len(orders) > 1


def test_bug14_the_opening_round_hears_the_earlier_openings(play):
    with ChatStub(scripts()) as stub:
        play(stub, max_turns=3)
    last_opener = stub.of("Alpha")[0]["messages"]
    text = json.dumps(last_opener)
    assert OPEN["Beta"] in text and OPEN["Gamma"] in text


def test_bug16_one_agent_votes_per_turn_and_both_judges_are_shown(play):
    with ChatStub(
        {
            **scripts(Beta=[vote("Gamma", "Gamma boasts about sleep.")]),
            "Judge": [json.dumps({"evaluation": "pass", "voteAgainst": "Gamma", "reason": "ok"})],
        }
    ) as stub:
        game = play(stub, judge="Judge", max_turns=4)
    turn = game_state(game=game)["turns"][3]
    assert [c["role"] for c in turn["calls"]] == ["vote", "judge"]
    assert [v["judge"] for v in turn["calls"][0]["verdicts"]] == ["functional", "llm"]


def test_a_turn_delivered_twice_is_played_once(play):
    with ChatStub(scripts()) as stub:
        game = game_create(config=stub.config(max_turns=3))
        game_start(game_id=game.pk, run=False)
        Turn.objects.create(
            game=game, number=0, agent=game.agents.get(position=0), phase="opening"
        )  # in play elsewhere
        assert turn_play(game_id=game.pk, number=0, chain=False) is None
    assert not stub.requests and Call.objects.count() == 0


def test_a_turn_left_half_played_by_a_dead_worker_is_played_anew_once_stale(play):
    from datetime import timedelta

    from django.utils import timezone

    from tables.services.turns import STALE_TURN_S

    with ChatStub(scripts()) as stub:
        game = game_create(config=stub.config(max_turns=3))
        game_start(game_id=game.pk, run=False)
        left = Turn.objects.create(game=game, number=0, agent=game.agents.get(position=0), phase="opening")
        Turn.objects.filter(pk=left.pk).update(started_at=timezone.now() - timedelta(seconds=STALE_TURN_S + 5))
        turn = turn_play(game_id=game.pk, number=0, chain=False)
    assert turn is not None and turn.status == Turn.Status.DONE and game.turns.count() == 1


def test_an_over_long_vote_is_corrected_then_penalised_never_cut_and_accepted(play):
    huge = "I vote against Gamma because " + "it sounded sleepy and slow, " * 40_000  # ~1.1 MB of free text
    with ChatStub(scripts(Beta=[huge, huge])) as stub:
        game = play(stub, max_turns=4)
    assert not Vote.objects.filter(turn__game=game).exists()
    penalty = Penalty.objects.get(turn__game=game)
    assert penalty.agent.name == "Beta" and penalty.rule == "adherence" and "characters long" in penalty.reason
    first, fix = vote_requests(stub, "Beta")
    assert "adherence to the prompt" in fix["messages"][-1]["content"]
    kept = Call.objects.get(turn__game=game, role="vote")
    assert len(json.dumps(kept.raw)) < 10_000 and kept.raw["choices"][0]["message"]["content_chars"] > 1_000_000


def test_an_over_long_vote_corrected_in_time_counts_as_corrected(play):
    too_long = json.dumps({"voteAgainst": "Gamma", "reason": "Gamma sounded sleepy. " * 40})  # 880 characters
    with ChatStub(scripts(Beta=[too_long, vote("Gamma", "Gamma mentioned its breakfast.")])) as stub:
        game = play(stub, max_turns=4)
    v = Vote.objects.get(turn__game=game)
    assert v.corrected and v.target.name == "Gamma" and not Penalty.objects.filter(turn__game=game).exists()


def test_a_free_text_vote_over_the_reason_limit_breaks_the_rule(play):
    long_free = "I vote against Gamma: " + "it sounded sleepy. " * 40  # 782 characters, no JSON
    with ChatStub(scripts(Beta=[long_free, long_free])) as stub:
        game = play(stub, max_turns=4)
    assert Penalty.objects.get(turn__game=game).rule == "adherence"
    assert Verdict.objects.filter(call__turn__game=game, rule="adherence").count() == 2


def test_a_game_in_which_an_agent_never_answered_is_void_and_counts_nowhere(play):
    from arena.results.sources import ResultsQuery
    from tables.results import TablesResults
    from tables.selectors import leaderboard

    with ChatStub(
        {
            **scripts(Gamma=[vote("Alpha", "Alpha typed like a person.")], Alpha=[vote("Gamma", "Gamma yawned.")]),
            "Beta": [(400, "", 0)],
        }
    ) as stub:
        game = play(stub, max_turns=6)
    assert game.status == Game.Status.FINISHED and game.outcome == Game.Outcome.VOID and game.loser is None
    assert "Beta never answered" in game.void_reason
    assert game_result(game=game)["void"] == game.void_reason and "draw" not in game_result(game=game)
    assert leaderboard() == []
    assert list(TablesResults().outcomes(ResultsQuery())) == []
    from django.test import Client

    page = Client().get(f"/tables/{game.pk}/").content.decode()
    assert "Void: Beta never answered" in page and "counts on no leaderboard" in page


def test_calls_failing_past_the_breaker_end_the_game_void_at_once(play, settings):
    settings.ARENA_BOT_BREAKER_FAILURES = 1
    with ChatStub({**scripts(), "Beta": [(400, "", 0)]}) as stub:
        game = play(stub, max_turns=60)
    assert game.outcome == Game.Outcome.VOID and "circuit breaker" in game.void_reason
    assert game.turns_played == 4  # Beta's opening failed and opened the breaker; its next turn ended the game


def test_an_over_long_opening_is_withheld_and_corrected_once(play):
    huge = "I am a machine, " * 200  # 3,200 characters, over the 2,000 a reply may have
    with ChatStub({**scripts(), "Beta": [huge, "I am a machine: terse now."]}) as stub:
        game = play(stub, max_turns=3)
    assert not Penalty.objects.filter(turn__game=game).exists()
    seen = json.dumps(stub.of("Gamma")[0]["messages"])
    assert "I am a machine: terse now." in seen and "I am a machine, I am a machine" not in seen
    assert "characters long, over the 2,000 allowed" in stub.of("Beta")[1]["messages"][-1]["content"]


def test_an_opening_over_long_again_costs_a_penalty(play):
    huge = "I am a machine, " * 200
    with ChatStub({**scripts(), "Beta": [huge, huge]}) as stub:
        game = play(stub, max_turns=3)
    penalty = Penalty.objects.get(turn__game=game)
    assert penalty.agent.name == "Beta" and penalty.rule == "adherence" and penalty.turn.number == 0
    assert "Beta was penalised (adherence)" in json.dumps(stub.of("Gamma")[0]["messages"])
