"""A game survives its workers: a task's turn claims the next one in its outcome's transaction (one
commit a turn), so the claim must neither be played twice nor strand the game when the worker dies."""

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from arena.services.engines import engine_chat
from tables.models import Call, Game, Turn
from tables.services import game_create, game_start, turn_play, turns
from tables.services.turns import STALE_TURN_S, turns_run
from tests.chat_stub import ChatStub, vote

SCRIPTS = {
    "Alpha": ["Beep.", vote("Beta", "Beta beeps a lot.")],
    "Beta": ["Bits.", vote("Alpha", "Alpha is slow.")],
    "Gamma": ["Bytes.", vote("Alpha", "Alpha yawned.")],
}


class Died(BaseException):
    """The worker's process ends in the middle of a call (SIGKILL, a lost machine)."""


@pytest.fixture
def queued(monkeypatch):
    """The tasks the turns would enqueue, recorded instead of sent: (game id, number, countdown)."""
    sent = []

    def record(task, *args, countdown=0.0):
        sent.append((*args, countdown))

    monkeypatch.setattr(turns, "enqueue_now", record)
    monkeypatch.setattr(turns, "enqueue_on_commit", record)
    return sent


def test_a_task_claims_its_next_turn_with_the_outcome_and_hands_the_game_on_when_its_slice_ends(db, loopback, queued):
    with ChatStub(SCRIPTS) as stub:
        game = game_create(config=stub.config(max_turns=6))
        game_start(game_id=game.pk, run=False)
        assert turns_run(game_id=game.pk, number=0, slice_s=0.0) == 1  # the slice is over: no claim, the task queued
        assert queued == [(game.pk, 1, 0.0)] and not Turn.objects.filter(game=game, number=1).exists()
        assert turns_run(game_id=game.pk, number=1, slice_s=60) == 5
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.turns_played == 6 and len(queued) == 1
    assert list(game.turns.values_list("number", "status")) == [(n, Turn.Status.DONE) for n in range(6)]


def test_a_task_whose_worker_died_between_turns_resumes_the_game_once_the_claim_is_stale(db, loopback, queued):
    with ChatStub(SCRIPTS) as stub:
        game = game_create(config=stub.config(max_turns=5))
        game_start(game_id=game.pk, run=False)
        calls = []

        def dying(**kwargs):
            if len(calls) == 2:  # turns 0 and 1 played, turn 2 claimed by turn 1's outcome: the worker dies
                raise Died
            calls.append(kwargs["subject"])
            return engine_chat(**kwargs)

        with pytest.raises(Died):
            turns_run(game_id=game.pk, number=0, slice_s=60, chat=dying)
        game.refresh_from_db()
        assert game.turns_played == 2 and game.turns.get(number=2).status == Turn.Status.RUNNING
        # the task comes again (acks late, rejected when its worker is lost) with its first turn's number: it
        # finds the game at turn 2, still claimed, and comes back once the claim can have gone stale
        assert turns_run(game_id=game.pk, number=0) == 0
        assert queued == [(game.pk, 0, STALE_TURN_S + 1)]
        Turn.objects.filter(game=game, number=2).update(started_at=timezone.now() - timedelta(seconds=STALE_TURN_S + 5))
        assert turns_run(game_id=game.pk, number=0, slice_s=60) == 3
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.turns_played == 5
    assert list(game.turns.values_list("number", "status")) == [(n, Turn.Status.DONE) for n in range(5)]
    assert [Call.objects.filter(turn__game=game, turn__number=n).count() for n in range(5)] == [1, 1, 1, 1, 1]
    assert len(stub.requests) == 2 + 3  # the dead worker's turn 2 never reached the server; each turn asked once


def test_a_task_delivered_twice_plays_no_turn_that_the_other_has_claimed(db, loopback, queued):
    with ChatStub(SCRIPTS) as stub:
        game = game_create(config=stub.config(max_turns=6))
        game_start(game_id=game.pk, run=False)
        first = turns._claim(game.pk, 0, None)  # the first delivery holds turn 0
        assert first is not None
        assert turns_run(game_id=game.pk, number=0) == 0  # the second finds it claimed
        assert not stub.requests and Turn.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_for_a_turn_claim_it_exactly_once(loopback, services_mode):
    if not services_mode:
        pytest.skip("the race needs a database server's row locks (services mode)")
    with ChatStub(SCRIPTS) as stub:
        game = game_create(config=stub.config(max_turns=3))
        game_start(game_id=game.pk, run=False)
        barrier = threading.Barrier(2)

        def worker(_):
            try:
                barrier.wait(timeout=10)
                return turn_play(game_id=game.pk, number=0, chain=False)
            finally:
                connections.close_all()

        with ThreadPoolExecutor(2) as pool:
            played = [turn for turn in pool.map(worker, range(2)) if turn is not None]
    assert len(played) == 1 and len(stub.requests) == 1
    assert list(Turn.objects.filter(game=game).values_list("number", "status")) == [(0, Turn.Status.DONE)]
    assert Game.objects.get(pk=game.pk).turns_played == 1


@pytest.mark.django_db(transaction=True)
def test_a_turns_calls_are_logged_without_waiting_for_their_own_flush_and_only_their_own(loopback):
    """The gateway's log of a turn's call commits at once with synchronous_commit off for that transaction
    alone (the turn's outcome, a synchronous commit after it, flushes it): the connection keeps its setting."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from arena.models import EngineCall

    with ChatStub(SCRIPTS) as stub:
        game = game_create(config=stub.config(max_turns=3, probe=False))
        entry = game.agents.get(name="Alpha").entry
        messages = [{"role": "user", "content": "Vote."}]
        with CaptureQueriesContext(connection) as relaxed:
            assert engine_chat(entry=entry, messages=messages, subject="relaxed", flush=False).ok
        with CaptureQueriesContext(connection) as strict:
            assert engine_chat(entry=entry, messages=messages, subject="strict").ok
        postgresql = connection.vendor == "postgresql"
        if postgresql:
            with connection.cursor() as cursor:
                cursor.execute("SHOW synchronous_commit")
                assert cursor.fetchone()[0] == "on"
    off = [q["sql"].split("; ")[0] for q in relaxed.captured_queries if "synchronous_commit" in q["sql"]]
    assert off == (["SET LOCAL synchronous_commit TO OFF"] if postgresql else [])
    assert not [q for q in strict.captured_queries if "synchronous_commit" in q["sql"]]
    assert set(EngineCall.objects.filter(entry=entry).values_list("subject", flat=True)) == {"relaxed", "strict"}
