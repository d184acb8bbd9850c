"""/play/ as a newcomer meets it: two players who press Play half a second apart, in two browsers, are
paired with each other (the demo study's design: half the games with a human witness); on a phone
(390×844) the message box and Send stay on screen while typing. Screenshots of the phone console go to
one folder (printed; E2E_SCREENSHOTS=dir chooses it)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from studies.models import Game

from ..studies.helpers import study_make
from .test_consoles import in_viewport

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def ready_to_play(browser, base, viewport=None):
    context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    page.goto(f"{base}/play/")
    page.check("#agree")
    page.click("#consent-submit")
    page.fill("#q-age", "29")
    page.fill("#q-attn", "blue")
    page.click("#survey-submit")
    expect(page.locator("#play")).to_be_visible()
    return page


def test_two_players_who_press_play_together_meet(browser, live_daphne, task_worker):
    from studies.demo import CONFIG

    study_make(
        **{k: CONFIG[k] for k in ("human_witness_share", "seed", "witnesses")},
        min_wait_s=4,
        human_wait_s=8,
    )
    first, second = ready_to_play(browser, live_daphne), ready_to_play(browser, live_daphne)
    first.click("#play")
    second.click("#play")
    for page in (first, second):
        expect(page.locator("#lobby-status")).to_contain_text("Looking for a partner")
        assert "waiting" not in page.locator("#lobby-status").inner_text()  # nobody's head count
    first.wait_for_url("**/play/game/**", timeout=30_000)
    second.wait_for_url("**/play/game/**", timeout=30_000)
    assert first.url == second.url
    game = Game.objects.get()
    assert game.human_witness_id is not None and game.condition is None
    assert first.js_errors == second.js_errors == []


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path_factory.mktemp("play-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nplay screenshots: {folder}")
    return folder


def test_on_a_phone_the_message_box_and_send_stay_on_screen(browser, live_daphne, task_worker, shots):
    study_make(
        human_witness_share=0.0,
        min_wait_s=0.5,
        human_wait_s=0.5,
        witnesses=[{"name": "ELIZA", "engine": "eliza", "settings": {"think_s": 0.2, "per_char_s": 0, "jitter": 0}}],
    )
    page = ready_to_play(browser, live_daphne, PHONE)
    page.click("#play")
    page.wait_for_url("**/play/game/**", timeout=30_000)
    expect(page.locator("#status")).to_have_text("running")
    box, send = "#pane-sole .send input", "#pane-sole .send button"
    page.screenshot(path=str(shots / "phone-game-start.png"))
    # exchanges fill the pane past the screen (three are enough on a phone); the box must stay on screen
    # as the log grows. Reply delivery is the consoles' tests' business: on a busy machine a late reply
    # ends the exchanges here once the pane has filled.
    for n in range(5):
        page.click(box)
        page.keyboard.type(f"question number {n}, where did you grow up and what was it like?")
        assert in_viewport(page, box) and in_viewport(page, send)
        page.keyboard.press("Enter")
        try:
            expect(page.locator("#pane-sole .msg.witness")).to_have_count(n + 1, timeout=30_000)
        except AssertionError:
            if n < 3:
                raise
            break
    assert page.locator("#pane-sole .msg").count() >= 7  # the questions and at least three replies
    page.click(box)
    page.keyboard.type("one more")
    page.screenshot(path=str(shots / "phone-game-typing.png"))
    assert in_viewport(page, box) and in_viewport(page, send)
    assert page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth") <= 0
    assert page.js_errors == []
