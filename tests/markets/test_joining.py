"""Who may bet: the bettor role, and nobody who could be the target. Every refusal
reads the same, so it never tells a candidate that they were drawn."""

import pytest

from arena import roles
from arena.models import Entry
from core.errors import NotAllowed
from markets import services
from markets.services.games import NOT_A_BETTOR

from ..conftest import make_user


@pytest.fixture
def game(cast):
    game = services.game_create(title="who bets", humans=[cast.connie, cast.carl], entries=[cast.simple])
    return services.game_open(game_id=game.pk)


def refusal(game, user) -> str:
    with pytest.raises(NotAllowed) as info:
        services.game_join(game_id=game.pk, user=user)
    return str(info.value)


def test_a_bettor_joins(cast, game):
    betty = make_user("betty", roles.BETTOR)
    assert services.game_join(game_id=game.pk, user=betty).number == 1


def test_a_judge_or_confederate_without_the_bettor_role_is_refused(cast, game):
    jo = make_user("jo", roles.JUDGE)
    cora = make_user("cora", roles.CONFEDERATE)
    assert refusal(game, jo) == refusal(game, cora) == NOT_A_BETTOR


def test_every_human_candidate_is_refused_with_the_same_words_target_or_not(cast, game):
    from django.contrib.auth.models import Group

    bettor = Group.objects.get(name=roles.BETTOR)
    for user in (cast.connie, cast.carl):  # both hold the bettor role too: the pool alone refuses them
        user.groups.add(bettor)
    assert game.target_human in (cast.connie, cast.carl, None)
    assert {refusal(game, cast.connie), refusal(game, cast.carl)} == {NOT_A_BETTOR}
    assert "target" not in NOT_A_BETTOR.lower()


def test_the_owner_of_a_candidate_entry_is_refused(cast, game):
    owner = make_user("otto", roles.BETTOR, roles.ENTRANT)
    Entry.objects.filter(pk=cast.simple.pk).update(owner=owner)
    assert refusal(game, owner) == NOT_A_BETTOR
    other = Entry.objects.create(display_name="Other", engine="simple", owner=make_user("olga", roles.BETTOR))
    assert services.game_join(game_id=game.pk, user=other.owner).number == 1  # not in this game's pool
