"""The Turing Trade leaderboard with settled crowd markets on conversations and no settled Turing Trade
game: one account of what was settled, never "across 1 settled game" beside "no settled games yet"."""

from django.test import Client

from arena import services as arena_services
from tests.conftest import make_user
from tests.markets.conversation.helpers import xmarket, xtrade


def test_the_leaderboard_tells_one_story_of_the_settled_markets(cast):
    market = xmarket(cast)
    xtrade(market, make_user("spectator0"))
    interrogation = market.interrogation
    arena_services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
    arena_services.verdict_submit(interrogation_id=interrogation.pk, judge=cast.jude, choice="left", confidence=80)
    from markets import services

    services.xmarket_sync(market_id=market.pk)
    page = Client().get("/markets/leaderboard/").content.decode()
    assert "No settled games yet" not in page
    assert "1 crowd market on a conversation" in page and "0 Turing Trade games" in page
    assert "spectator0" in page
