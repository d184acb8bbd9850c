"""A machine target asks its engine through the arena's one engine gateway, exactly as an interrogation's
witness does: failures logged in EngineCall, the circuit breaker, retries with backoff, the heavy queue."""

import socket
import time

import pytest

from arena.models import EngineCall, Entry, EntryHealth
from bots.base import EngineError
from markets import services
from markets.models import Answer
from markets.services.target import target_reply_compose, target_reply_queue
from tests.arena.flaky import SCRIPT
from tests.arena.helpers import wait_for
from tests.conftest import FAST


def machine_game(cast, entry, **fields):
    """A running game whose target is ``entry``, jude its only bettor, and jude's first question."""
    game = services.game_create(title="engine", entries=[entry], max_bettors=8, **fields)
    services.game_open(game_id=game.pk)
    services.game_join(game_id=game.pk, user=cast.jude)
    services.game_start(game_id=game.pk)
    question = services.question_ask(game_id=game.pk, user=cast.jude, text="are you a person?")
    return game, question


@pytest.fixture
def delivered(monkeypatch):
    """Direct compose calls: capture deliveries instead of scheduling them."""
    sent = []
    monkeypatch.setattr("markets.services.target.enqueue_now", lambda task, *args, countdown=0: sent.append(args))
    return sent


def test_a_failing_target_is_logged_and_trips_the_breaker(cast, flaky, delivered):
    game, question = machine_game(cast, flaky)
    for _ in range(3):  # ARENA_BOT_BREAKER_FAILURES is 3 in the flaky fixture
        SCRIPT.append(EngineError("down", transient=False))
        assert target_reply_compose(game_id=game.pk, question_id=question.pk) is False
    health = EntryHealth.objects.get(entry=flaky)
    assert not health.healthy and health.last_error == "error: down" and health.consecutive_failures == 3
    SCRIPT.append("should not be asked")
    assert target_reply_compose(game_id=game.pk, question_id=question.pk) is False
    assert SCRIPT == ["should not be asked"] and delivered == []
    calls = list(
        EngineCall.objects.filter(entry=flaky).order_by("pk").values_list("outcome", "subject", "conversation")
    )
    subject = f"markets game {game.pk} question 1"
    assert calls == [("error", subject, None)] * 3 + [("skipped", subject, None)]
    time.sleep(0.35)  # cool-down over: one trial call goes through, closes the breaker, and answers
    assert target_reply_compose(game_id=game.pk, question_id=question.pk) is True
    assert EntryHealth.objects.get(entry=flaky).healthy and delivered == [(game.pk, question.pk, "should not be asked")]


def test_transient_failures_back_off_and_stop(cast, flaky, delivered):
    game, question = machine_game(cast, flaky)
    countdowns = []
    for attempt in range(3):
        SCRIPT.append(EngineError("webhook timed out", transient=True))
        target_reply_compose(game_id=game.pk, question_id=question.pk, attempt=attempt, retry=countdowns.append)
    assert len(countdowns) == 2 and countdowns[1] > countdowns[0]  # 2 retries, exponential
    assert list(EngineCall.objects.values_list("attempt", "outcome", "transient")) == [
        (2, "timeout", True),
        (1, "timeout", True),
        (0, "timeout", True),
    ]


def test_a_transient_failure_is_retried_by_the_task_and_the_bettor_gets_the_answer(cast, flaky, task_worker):
    SCRIPT.extend([EngineError("remote 503", transient=True), "sorry, I was away"])
    game, question = machine_game(cast, flaky, answer_delay_s=0)  # the task is enqueued when the question commits
    answer = wait_for(lambda: Answer.objects.filter(question=question).first(), timeout=15)
    assert answer.text == "sorry, I was away"
    calls = list(EngineCall.objects.filter(entry=flaky).order_by("pk").values_list("attempt", "outcome"))
    assert calls == [(0, "error"), (1, "ok")]


def test_a_webhook_target_on_a_closed_port_is_a_logged_transient_failure(cast, delivered):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    entry = Entry.objects.create(
        display_name="Hook",
        engine="webhook",
        settings={**FAST, "url": f"http://127.0.0.1:{port}/hook", "secret": "s" * 16, "timeout_s": 1},
    )
    game, question = machine_game(cast, entry)
    retries = []
    assert target_reply_compose(game_id=game.pk, question_id=question.pk, retry=retries.append) is False
    call = EngineCall.objects.get(entry=entry)
    assert call.outcome == "error" and call.transient and "unreachable" in call.error
    assert len(retries) == 1 and delivered == []
    assert EntryHealth.objects.get(entry=entry).consecutive_failures == 1


def test_heavy_engine_targets_are_answered_on_the_bots_queue(cast, settings):
    settings.ARENA_BOTS_QUEUE = "bots"
    learner = Entry.objects.create(display_name="Learner", engine="learner", settings={**FAST, "fallback": "stock"})
    heavy = services.game_create(title="heavy", entries=[learner])
    light = services.game_create(title="light", entries=[cast.simple])
    for game in (heavy, light):
        services.game_open(game_id=game.pk)
    assert target_reply_queue(game_id=heavy.pk) == "bots" and target_reply_queue(game_id=light.pk) == ""
