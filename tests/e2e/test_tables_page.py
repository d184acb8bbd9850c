"""Turing the Tables in a real browser: an organiser starts a game from the page and watches it play
live to its end (turns, a penalty, the charts, the loser), every model text shown as text."""

import json

import pytest
from playwright.sync_api import expect

from tests.chat_stub import ChatStub, vote

from .conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def outbound(settings):
    """Set before daphne forks, so that its process may call the stub on loopback too."""
    settings.ARENA_OUTBOUND_ALLOW = ["127.0.0.1/32"]
    settings.ARENA_BOT_RETRY_BASE_S = 0.0
    return settings


def test_an_organiser_starts_a_game_and_watches_it_live(outbound, browser, live_daphne, cast, task_worker):
    delay = 0.3  # slow enough to see the page move
    scripts = {
        "Beta": [
            (200, "Beep: I am <b>silicon</b>.", delay),
            (200, vote("Beta", "me"), delay),
            (200, vote("beta", "me"), delay),
            (200, vote("Alpha", "Alpha paused before answering."), delay),
        ],
        "Gamma": [(200, "Bits all the way down.", delay), (200, vote("Alpha", "Alpha mentioned being hungry."), delay)],
        "Alpha": [(200, "Bytes and more bytes.", delay), (200, vote("Gamma", "Gamma is far too poetic."), delay)],
    }
    with ChatStub(scripts) as stub:
        page = login(browser, live_daphne, "olivia", "olivia-pw")
        page.goto(f"{live_daphne}/tables/new/")
        page.fill("textarea[name=config]", json.dumps({**stub.config(), "end_votes": 2, "max_turns": 30}))
        page.click("#start-game")
        page.wait_for_url(f"{live_daphne}/tables/*/")
        expect(page.locator("#outcome")).to_have_count(0)  # still playing: what follows arrives live
        expect(page.locator("#connection")).to_have_text("live")
        expect(page.locator("#outcome")).to_contain_text("was declared human", timeout=30000)
    expect(page.locator("#outcome")).to_contain_text("Alpha")
    expect(page.locator(".note.penalty")).to_contain_text("Beta is penalised (no_self_vote)")
    expect(page.locator("#votes-chart svg .mark-rect.role-mark path")).to_have_count(
        3
    )  # Vega-Lite's bars, one per agent
    expect(page.locator("#penalty-chart svg .mark-rect.role-mark path")).to_have_count(3)
    csv = page.evaluate("() => Charts.get('votes-chart').csv()")
    assert csv.splitlines()[0] == "Agent,Votes against" and "Alpha,2" in csv.splitlines()
    expect(page.locator(".call.opening .text").first).to_have_text("Beep: I am silicon.")  # markup stripped, never run
    assert page.locator(".tables-live b").count() == 0
    assert page.js_errors == []
