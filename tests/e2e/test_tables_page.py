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


def test_a_newcomer_presses_start_on_the_form_as_it_is_and_the_game_plays_to_its_end(
    browser, live_daphne, cast, task_worker
):
    page = login(browser, live_daphne, "olivia", "olivia-pw")
    page.goto(f"{live_daphne}/tables/new/")
    expect(page.locator("#stub-note")).to_contain_text("built-in stub players")
    expect(page.locator("#servers")).to_contain_text("ARENA_OUTBOUND_ALLOW=127.0.0.1/32")
    # a model server on the organisers' network, which the outbound policy does not allow
    local = {"agents": [{"name": n, "base_url": "http://10.0.0.5:11434/v1", "model": "gemma2:2b"} for n in "AB"]}
    prefilled = page.input_value("textarea[name=config]")
    page.fill("textarea[name=config]", json.dumps(local))
    page.click("#start-game")
    expect(page.locator("#error")).to_contain_text("10.0.0.5 is private")  # refused before it starts
    expect(page.locator("#error")).to_contain_text("ARENA_OUTBOUND_ALLOW=10.0.0.5/32")
    page.fill("textarea[name=config]", prefilled)
    page.click("#start-game")
    page.wait_for_url(f"{live_daphne}/tables/*/")
    expect(page.locator("#outcome")).to_contain_text("was declared human", timeout=30000)
    assert page.js_errors == []
