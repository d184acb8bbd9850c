"""Conversation-market pages and exports: what a spectator, a bettor and a researcher see."""

import csv
import io
import json

import pytest

from arena import services as arena_services
from markets import services
from tests.conftest import make_user
from tests.markets.conversation.helpers import xmarket, xtrade


@pytest.fixture
def settled(cast):
    """A settled three-party market (connie, on the left, is human): sam bought human twice, the judge
    said left with 80 % confidence."""
    market = xmarket(cast)
    sam = make_user("sam")
    xtrade(market, sam)
    xtrade(market, sam)
    arena_services.interrogation_end(interrogation_id=market.interrogation_id, reason="judge")
    arena_services.verdict_submit(
        interrogation_id=market.interrogation_id, judge=cast.jude, choice="left", confidence=80
    )
    services.xmarket_sync(market_id=market.pk)
    market.refresh_from_db()
    return market


def test_the_watch_page_names_witnesses_by_side_only(client, cast):
    market = xmarket(cast)
    page = client.get(f"/markets/conversations/{market.game.public_id}/").content.decode()
    assert "the left witness is human" in page
    assert "connie" not in page and "Simple Bot" not in page


def test_a_trade_over_http_is_refused_for_the_judge_and_taken_from_a_spectator(client, cast):
    market = xmarket(cast)
    url = f"/markets/conversations/{market.game.public_id}/trade/"
    client.force_login(cast.jude)
    refused = client.post(url, {"action": "buy", "security": "H", "key": "a"})
    assert refused.status_code == 403 and refused.json()["code"] == "conflict_of_interest"
    client.force_login(make_user("sam"))
    taken = client.post(
        url, json.dumps({"action": "buy", "security": "H", "key": "b"}), content_type="application/json"
    )
    assert taken.status_code == 200
    assert taken.json()["trade"]["price_after"] == 51 and taken.json()["me"]["points"] == 949


def test_results_put_judge_crowd_and_truth_side_by_side(client, settled):
    data = client.get("/markets/conversations/results.json").json()
    [row] = data["rows"]
    assert (row["judge_pick"], row["judge_p"], row["market_p"], row["human"]) == ("left", 0.8, 0.52, True)
    assert data["judges"]["n"] == data["crowds"]["n"] == 1
    assert data["judges"]["brier"]["brier"] == pytest.approx(0.04)
    page = client.get("/markets/conversations/results/").content.decode()
    assert "Judges" in page and "0.040" in page
    rows = list(csv.DictReader(io.StringIO(client.get("/markets/conversations/results.csv").content.decode())))
    assert rows[0]["judge_pick"] == "left" and rows[0]["human"] == "True"
    trades = list(csv.DictReader(io.StringIO(client.get("/markets/conversations/trades.csv").content.decode())))
    assert [(t["price_before"], t["price_after"]) for t in trades] == [("50", "51"), ("51", "52")]


def test_a_bettors_profile_shows_their_record_across_markets(client, settled):
    page = client.get("/markets/bettors/sam/").content.decode()
    assert "conversation market" in page and "settled" in page
    assert '<strong id="profit">97</strong>' in page  # paid 51 + 52, won 200
    assert client.get("/markets/bettors/nobody-here/").status_code == 404


def test_the_list_shows_live_and_ended_markets(client, cast, settled):
    page = client.get("/markets/conversations/").content.decode()
    assert "Recently ended" in page and str(settled.game.public_id) in page


def test_an_organiser_opens_a_market_on_any_interrogation_in_the_admin(client, cast):
    from markets.models import ConversationMarket

    interrogation = arena_services.interrogation_create(judge=cast.jude, witnesses=[cast.simple], title="one-to-one")
    client.force_login(cast.olivia)
    assert client.get("/admin/markets/conversationmarket/").status_code == 200
    response = client.post("/admin/markets/conversationmarket/add/", {"interrogation": interrogation.pk})
    assert response.status_code == 302
    market = ConversationMarket.objects.get(interrogation=interrogation)
    assert market.side == "sole" and market.game.status == "open" and interrogation.spectator_feed.delay_s == 60


def test_the_list_parts_running_conversations_from_those_opening_soon_in_start_order(client, cast):
    import datetime as dt

    from django.utils import timezone

    now = timezone.now()
    later, sooner = (
        arena_services.interrogation_create(
            judge=cast.jude, witnesses=[cast.simple], title=title, scheduled_at=now + dt.timedelta(hours=hours)
        )
        for title, hours in (("Later chat", 3), ("Sooner chat", 1))
    )
    for interrogation in (later, sooner):
        services.xmarket_open(interrogation_id=interrogation.pk, delay_s=30)
    running = xmarket(cast)  # started
    page = client.get("/markets/conversations/").content.decode()
    running_part, soon_part = page.split('id="xmarkets-live"')[1].split('id="xmarkets-soon"')
    assert str(running.game.public_id) in running_part and "Sooner chat" not in running_part
    soon_part = soon_part.split("Recently ended")[0]
    assert soon_part.index("Sooner chat") < soon_part.index("Later chat")
    assert str(running.game.public_id) not in soon_part
