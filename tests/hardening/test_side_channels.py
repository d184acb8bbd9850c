"""No side channel tells a judge who is human: a conversation's own people (its judge, its human witness, an
entry's owner) see no price, trade or bettor of its crowd market until the truth is out (the page, its
JSON, its socket, the lists), while spectators see it after the feed's delay."""

import pytest
from asgiref.sync import sync_to_async

from arena import services as arena_services
from markets import services
from tests.arena.wsclient import connect
from tests.conftest import make_user
from tests.markets.conversation.helpers import xmarket, xtrade

PRICE_SHOWN = "<td>53</td>"  # the list's cell of a market at 53 after three buys of "human"


@pytest.fixture
def traded(cast):
    """A running three-party market (connie, the human, on the left) that a spectator moved to 53."""
    market = xmarket(cast)
    sam = make_user("sam")
    for _ in range(3):
        xtrade(market, sam)
    market.game.market.refresh_from_db()
    assert market.game.market.human_price == 53
    return market


def _settle(market, cast):
    arena_services.interrogation_end(interrogation_id=market.interrogation_id, reason="judge")
    arena_services.verdict_submit(
        interrogation_id=market.interrogation_id, judge=cast.jude, choice="left", confidence=70
    )
    services.xmarket_sync(market_id=market.pk)


@pytest.mark.parametrize("who", ["jude", "connie"])
def test_the_conversations_own_people_read_no_price_on_its_page_or_json(client, cast, traded, who):
    client.force_login(getattr(cast, who))
    page = client.get(f"/markets/conversations/{traded.game.public_id}/")
    state = client.get(f"/markets/conversations/{traded.game.public_id}/state.json")
    assert page.status_code == 403 and "truth is revealed" in page.content.decode()
    assert state.status_code == 403 and "price" not in state.json()
    listed = client.get("/markets/conversations/").content.decode()
    assert PRICE_SHOWN not in listed and "hidden from you until the reveal" in listed


def test_after_the_end_the_judge_still_reads_no_price_before_the_verdict(client, cast, traded):
    arena_services.interrogation_end(interrogation_id=traded.interrogation_id, reason="judge")
    client.force_login(cast.jude)
    assert client.get(f"/markets/conversations/{traded.game.public_id}/state.json").status_code == 403
    assert PRICE_SHOWN not in client.get("/markets/conversations/").content.decode()  # "closed, awaiting the reveal"


def test_spectators_read_the_price_and_the_judge_once_it_is_settled(client, cast, traded):
    client.force_login(make_user("viv"))
    assert client.get(f"/markets/conversations/{traded.game.public_id}/state.json").json()["market"]["price"] == 53
    assert PRICE_SHOWN in client.get("/markets/conversations/").content.decode()
    _settle(traded, cast)
    client.force_login(cast.jude)
    state = client.get(f"/markets/conversations/{traded.game.public_id}/state.json")
    assert state.status_code == 200 and state.json()["reveal"]["human"] is True


@pytest.mark.django_db(transaction=True)
async def test_the_judges_socket_is_refused_and_a_spectators_gets_the_price(cast):
    market = await sync_to_async(xmarket)(cast)
    path = f"/ws/markets/conversations/{market.game.public_id}/"
    _, connected, code = await connect(path, user=cast.jude)
    assert not connected and code == 4403
    viewer = await sync_to_async(make_user)("viv")
    socket, connected, _ = await connect(path, user=viewer)
    assert connected and (await socket.expect("state"))["market"]["price"] == 50
    await socket.close()


def test_a_study_player_reads_no_price_of_their_own_game_on_the_watch_page(client, cast):
    from markets.models import ConversationMarket
    from tests.markets.conversation.test_policies import _study_game

    game = _study_game(True)
    client.force_login(make_user("viv"))
    page = client.get("/play/watch/").content.decode()  # the page opens the game's market
    cm = ConversationMarket.objects.get(interrogation=game.interrogation)
    assert str(cm.game.public_id) in page and "<td>50</td>" in page
    client.force_login(game.interrogation.judge)
    page = client.get("/play/watch/").content.decode()
    assert "<td>50</td>" not in page and "hidden from you until the reveal" in page
