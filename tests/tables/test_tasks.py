"""Turns as Celery tasks, one per turn, enqueued on commit: several games at once run to their ends
(in-process threads in the embedded default, a real worker in services mode)."""

import time

import pytest

from tables.models import Game, Turn
from tables.services import game_create, game_start
from tests.chat_stub import ChatStub, vote


def wait_finished(ids, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED).count() == len(ids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
def test_several_games_play_at_once_through_turn_tasks(task_worker, loopback):
    scripts = {
        "Beta": ["Beep.", vote("Alpha", "Alpha is slow.")],
        "Gamma": ["Bits.", vote("Alpha", "Alpha yawned.")],
        "Alpha": ["Bytes.", vote("Beta", "Beta beeps a lot.")],
    }
    with ChatStub(scripts) as stub:
        ids = []
        for seed in range(4):
            game = game_create(config={**stub.config(), "seed": seed, "max_turns": 12, "end_votes": 50})
            game_start(game_id=game.pk)  # enqueues turn 0 on commit; each turn enqueues the next
            ids.append(game.pk)
        assert wait_finished(ids)
    for game in Game.objects.filter(pk__in=ids):
        assert game.outcome == Game.Outcome.DRAW and game.turns_played == 12
        assert list(game.turns.values_list("number", flat=True)) == list(range(12))
        assert not game.turns.exclude(status=Turn.Status.DONE).exists()
