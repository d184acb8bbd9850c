"""A spectator trades on a conversation market in a real browser, the transcript a delay behind the
judge (released by the server, pushed to the page), while the judge sees why they may not trade."""

import time

import pytest
from playwright.sync_api import expect

from arena.models import Message
from markets.models import Game
from tests.e2e.conftest import login
from tests.markets.conversation.helpers import xmarket

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DELAY_S = 3
QUESTION = "<b>What</b> did you dream last night?"


def test_a_spectator_trades_on_the_delayed_page(browser, live_daphne, cast, task_worker):
    market = xmarket(cast, delay_s=DELAY_S)
    url = f"{live_daphne}/markets/conversations/{market.game.public_id}/"
    oscar = login(browser, live_daphne, "oscar", "oscar-pw")
    oscar.goto(url)
    expect(oscar.locator("#status")).to_have_text("running")
    expect(oscar.locator("#delay")).to_have_text(str(DELAY_S))
    oscar.click("button.trade[data-action=buy][data-security=H]")
    expect(oscar.locator("#price")).to_have_text("51")
    expect(oscar.locator("#points")).to_have_text("949")
    expect(oscar.locator("#holding")).to_have_text("1 human")

    judge = login(browser, live_daphne, "jude", "jude-pw")
    judge.goto(f"{live_daphne}/judge/{market.interrogation.public_id}/")
    judge.fill("#pane-left input", QUESTION)
    judge.press("#pane-left input", "Enter")
    expect(judge.locator("#pane-left .log .msg")).to_have_count(1)
    sent = Message.objects.get(conversation__interrogation=market.interrogation).created_at.timestamp()
    assert QUESTION not in oscar.locator("#transcript").inner_text()  # not yet: the delay runs
    expect(oscar.locator("#transcript .msg.interrogator .text")).to_have_text(QUESTION, timeout=15000)
    assert time.time() >= sent + DELAY_S  # pushed by the server no earlier than the delay
    expect(oscar.locator("#transcript .msg.interrogator .who")).to_have_text("Judge → left")
    assert oscar.locator("#transcript b").count() == 0  # escaped
    assert "connie" not in oscar.content() and "Simple Bot" not in oscar.content()

    jpage = judge.context.new_page()
    jpage.goto(url)  # the judge sees neither the price nor a trade of their own conversation
    expect(jpage.locator(".error")).to_contain_text("opens for you once its truth is revealed")
    assert jpage.locator("#price").count() == 0
    assert Game.objects.get(pk=market.game_id).trades.count() == 1
    assert oscar.js_errors == [] and judge.js_errors == []
