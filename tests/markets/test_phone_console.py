"""A bettor's console on a phone (390×844): the Ask box and the Buy/Sell buttons on the first screen, and a
refusal that goes once it stops being true."""

import pytest
from playwright.sync_api import expect

from ..e2e.conftest import login
from .conftest import running_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def on_first_screen(page, selector):
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_phone_bettor_sees_ask_and_trade_and_a_refusal_leaves_once_untrue(browser, live_daphne, cast):
    game = running_game(cast, [cast.jude], duration_s=600)
    page = login(browser, live_daphne, "jude", "jude-pw")
    page.set_viewport_size(PHONE)
    page.goto(f"{live_daphne}/markets/{game.public_id}/")
    expect(page.locator("#status")).to_have_text("running")
    for selector in ("#ask-text", "button.trade[data-action=buy]", "button.trade[data-action=sell]"):
        assert on_first_screen(page, selector), f"{selector} is below the first screen on a phone"

    page.click("button.trade[data-action=buy][data-security=H]")
    expect(page.locator("#holding")).to_contain_text("1 human")
    page.click("button.trade[data-action=buy][data-security=C]")
    expect(page.locator("#notice")).to_contain_text("You hold the other security")
    page.click("button.trade[data-action=sell][data-security=H]")  # the sell goes through: the refusal is untrue
    expect(page.locator("#holding")).to_have_text("nothing")
    expect(page.locator("#notice")).to_have_text("")
    assert page.js_errors == []
