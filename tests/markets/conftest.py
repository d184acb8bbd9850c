import itertools

import pytest

from markets import services
from tests.arena.flaky import flaky  # noqa: F401  the fixture that installs the scriptable failing engine
from tests.e2e.conftest import browser  # noqa: F401  the module-scoped Chromium fixture, for the browser tests here

_keys = itertools.count()


def key() -> str:
    return f"k{next(_keys)}"


def running_game(cast, bettors, *, target="human", **fields):
    """A running game with these users as bettors 1..n; the target is connie or the Simple Bot."""
    game = services.game_create(
        title="test",
        humans=[cast.connie] if target == "human" else [],
        entries=[cast.simple] if target == "machine" else [],
        max_bettors=max(8, len(bettors) + 1),
        **fields,
    )
    services.game_open(game_id=game.pk)
    for user in bettors:
        services.game_join(game_id=game.pk, user=user)
    services.game_start(game_id=game.pk)
    game.refresh_from_db()
    return game


def trade(game, user, action, security, k=None):
    return services.trade_place(game_id=game.pk, user=user, action=action, security=security, key=k or key())


@pytest.fixture(autouse=True)
def cast_bets(request):
    """In Turing Trade tests jude, june, carl and oscar also hold the bettor role (joining needs it)."""
    if "cast" not in request.fixturenames:
        return
    from django.contrib.auth.models import Group

    from arena import roles

    cast = request.getfixturevalue("cast")
    bettor = Group.objects.get(name=roles.BETTOR)
    for user in (cast.jude, cast.june, cast.carl, cast.oscar):
        user.groups.add(bettor)


@pytest.fixture
def bettors(cast):
    """Four bettors: jude, june, carl, oscar (numbers 1..4 in that order)."""
    return [cast.jude, cast.june, cast.carl, cast.oscar]
