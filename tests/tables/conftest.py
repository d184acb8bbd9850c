import pytest

from tables.services import game_create, game_play, game_start


@pytest.fixture
def loopback(settings):
    """The stub servers listen on loopback, which the platform's outbound policy refuses by default."""
    settings.ARENA_OUTBOUND_ALLOW = ["127.0.0.1/32"]
    settings.ARENA_BOT_RETRY_BASE_S = 0.0
    return settings


@pytest.fixture
def play(db, loopback):
    """play(stub, **config) -> the finished game, played in this thread."""

    def run(stub, names=("Alpha", "Beta", "Gamma"), judge=None, **extra):
        game = game_create(config=stub.config(names=names, judge=judge, **extra))
        game_start(game_id=game.pk, run=False)
        return game_play(game_id=game.pk)

    return run
