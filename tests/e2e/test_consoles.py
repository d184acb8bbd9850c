"""The judge's and the confederate's consoles at a desktop's and a phone's size: nothing wider than the
screen, the countdown on screen after a long conversation, both witnesses reachable on a phone through
tabs (with an unread badge), a title/favicon badge in a background tab, the sound toggle remembered, and
end screens without inputs. Screenshots of each state go to one folder (printed; E2E_SCREENSHOTS=dir
chooses it)."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from arena import services

from ..arena.helpers import sides, three_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
OVERFLOW = "document.scrollingElement.scrollWidth - window.innerWidth"


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = (
        Path(os.environ["E2E_SCREENSHOTS"])
        if os.environ.get("E2E_SCREENSHOTS")
        else tmp_path_factory.mktemp("screenshots")
    )
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nconsole screenshots: {folder}")
    return folder


def open_as(browser, live, username, url, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    page.goto(f"{live}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", f"{username}-pw")
    page.click("#login-submit")
    page.wait_for_url(f"{live}/")
    page.goto(url)
    expect(page.locator("#status")).to_have_text(re.compile("running|ended"))
    return page


def in_viewport(page, selector):
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] + box["width"] <= size["width"]
    )


def scroll_to_bottom(page):
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    page.wait_for_timeout(100)


def set_hidden(page, hidden):
    """What a browser does when its tab goes to the background (or comes back)."""
    page.evaluate(
        """(hidden) => {
        Object.defineProperty(document, "visibilityState", {
            configurable: true, get: () => hidden ? "hidden" : "visible" });
        Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
        document.dispatchEvent(new Event("visibilitychange"));
    }""",
        hidden,
    )


def long_conversation(cast, human, n=24):
    for i in range(n):
        role, user = ("interrogator", cast.jude) if i % 2 == 0 else ("witness", cast.connie)
        services.message_post(
            conversation_id=human.pk, sender_role=role, text=f"message {i}: " + "words " * (i % 7), user=user
        )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_consoles_fit_keep_the_clock_on_screen_and_end_cleanly(browser, live_daphne, cast, shots, viewport):
    size = "desktop" if viewport is DESKTOP else "phone"
    interrogation = three_party(cast, time_limit_s=600)
    human, machine = sides(interrogation)
    long_conversation(cast, human)
    judge = open_as(browser, live_daphne, "jude", f"{live_daphne}/judge/{interrogation.public_id}/", viewport)
    witness = open_as(browser, live_daphne, "connie", f"{live_daphne}/witness/{human.public_id}/", viewport)

    if viewport is DESKTOP:  # both witnesses side by side, no tabs
        left, right = judge.locator("#pane-left").bounding_box(), judge.locator("#pane-right").bounding_box()
        assert abs(left["y"] - right["y"]) < 2 and left["x"] + left["width"] <= right["x"]
        expect(judge.locator("#pane-tabs")).to_be_hidden()

    # bubbles with times: the judge's own on the right, the witness's on the left
    if viewport is PHONE:
        judge.click(f"#tab-{human.side}")
    mine, theirs = (
        judge.locator(f"#pane-{human.side} .log .msg.you").last,
        judge.locator(f"#pane-{human.side} .log .msg.witness").last,
    )
    expect(mine.locator("time")).to_have_text(re.compile(r"^\d\d:\d\d"))
    assert mine.bounding_box()["x"] > theirs.bounding_box()["x"]
    assert "20" in (mine.locator("time").get_attribute("title") or "")  # the full date in its tooltip

    for page, name in ((judge, "judge"), (witness, "confederate")):
        scroll_to_bottom(page)
        page.screenshot(path=shots / f"{name}-running-{size}.png", full_page=False)
        assert page.evaluate(OVERFLOW) <= 0, f"{name} page wider than the {size} screen"
        assert in_viewport(page, "#countdown"), f"{name}'s countdown off screen after a long conversation ({size})"

    # the confederate answers while the judge's tab is in the background: "(1) …" and a badged favicon
    title = judge.title()
    set_hidden(judge, True)
    witness.fill("#text", "Still here, and it is sunny.")
    witness.press("#text", "Enter")
    expect(judge).to_have_title(f"(1) {title}")
    expect(judge.locator("link[rel=icon]")).to_have_attribute("href", re.compile("^data:image/png"))
    expect(judge.locator("#announcer")).to_contain_text("Still here, and it is sunny.")
    set_hidden(judge, False)
    expect(judge).to_have_title(title)
    expect(judge.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"favicon.*\.svg$"))

    # the sound is off until the user turns it on, and stays on after a reload
    expect(witness.locator("#sound")).not_to_be_checked()
    witness.check("#sound")
    witness.reload()
    expect(witness.locator("#sound")).to_be_checked()

    # the judge ends it: no input left anywhere, an end screen for each
    judge.once("dialog", lambda dialog: dialog.accept())
    judge.click("#end")
    expect(judge.locator("#ended")).to_contain_text("Time for your verdict")
    expect(witness.locator("#ended")).to_contain_text("Thank you")
    for page, name in ((judge, "judge"), (witness, "confederate")):
        expect(page.locator("#status")).to_have_text("ended")
        expect(page.locator(".send input:visible, .send button:visible")).to_have_count(0)
        assert page.evaluate(OVERFLOW) <= 0, f"{name} page wider than the {size} screen once ended"
    witness.screenshot(path=shots / f"confederate-ended-{size}.png", full_page=True)
    judge.screenshot(path=shots / f"judge-verdict-{size}.png", full_page=True)

    judge.click("#verdict-submit")  # no answer chosen: told so, nothing sent
    expect(judge.locator("#notice")).to_have_text("Choose an answer first.")
    judge.check(f"#choice-{human.side}")
    judge.click("#verdict-submit")
    expect(judge.locator("#ended")).to_contain_text("Your verdict is recorded")
    expect(judge.locator("#notice")).to_have_text("")  # the earlier prompt does not stay beside the reveal
    expect(judge.locator("#reveal")).to_be_visible()
    expect(judge.locator("#verdict")).to_be_hidden()
    judge.screenshot(path=shots / f"judge-recorded-{size}.png", full_page=True)
    assert judge.js_errors == [] and witness.js_errors == []


def test_on_a_phone_the_witnesses_are_tabs_with_unread_badges_and_the_nav_is_a_menu(browser, live_daphne, cast, shots):
    interrogation = three_party(cast, time_limit_s=600)
    human, machine = sides(interrogation)
    long_conversation(cast, human)
    judge = open_as(browser, live_daphne, "jude", f"{live_daphne}/judge/{interrogation.public_id}/", PHONE)
    witness = open_as(browser, live_daphne, "connie", f"{live_daphne}/witness/{human.public_id}/", PHONE)

    # one witness at a time: the other's tab is one tap away, not below a whole history
    judge.click(f"#tab-{machine.side}")
    expect(judge.locator(f"#pane-{machine.side}")).to_be_visible()
    expect(judge.locator(f"#pane-{human.side}")).to_be_hidden()
    expect(judge.locator(f"#tab-{human.side}")).to_have_attribute("aria-selected", "false")

    witness.fill("#text", "Are you still there?")
    witness.press("#text", "Enter")
    badge = judge.locator(f"#tab-{human.side} .badge")
    expect(badge).to_be_visible()
    expect(badge).to_contain_text("1")
    judge.screenshot(path=shots / "judge-tabs-unread-phone.png")

    # the keyboard reaches the other tab too (arrow keys, as in any tab list)
    judge.focus(f"#tab-{machine.side}")
    judge.keyboard.press("ArrowLeft" if human.side == "left" else "ArrowRight")
    expect(judge.locator(f"#pane-{human.side}")).to_be_visible()
    expect(judge.locator(f"#pane-{human.side} .log .msg.witness .text").last).to_have_text("Are you still there?")
    expect(badge).to_be_hidden()
    judge.screenshot(path=shots / "judge-tabs-switched-phone.png")
    scroll_to_bottom(judge)
    expect(judge.locator(f"#pane-{human.side} .log .msg.witness").last).to_be_in_viewport()
    assert in_viewport(judge, "#countdown")
    assert judge.js_errors == [] and witness.js_errors == []

    # the nav bar: one line on a phone, its links behind a menu button the keyboard opens and closes
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_daphne}/")
    assert page.locator("header.top").bounding_box()["height"] < 60 and page.evaluate(OVERFLOW) <= 0
    expect(page.locator("#site-nav")).to_be_hidden()
    page.focus(".nav-toggle")
    page.keyboard.press("Enter")
    expect(page.locator(".nav-toggle")).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_role("link", name="Transcripts")).to_be_visible()
    page.screenshot(path=shots / "nav-menu-open-phone.png")
    page.keyboard.press("Escape")
    expect(page.locator("#site-nav")).to_be_hidden()
    expect(page.locator(".nav-toggle")).to_be_focused()
    # no 404 for the icon browsers ask for on their own
    response = page.request.get(f"{live_daphne}/favicon.ico")
    assert response.ok and response.headers["content-type"].startswith("image/svg")
