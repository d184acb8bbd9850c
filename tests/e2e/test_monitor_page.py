"""The organisers' live monitor in Chromium: the format in words, the deadline as a local time and a
countdown, each message's time, and the admin header's title readable (not blue on blue); the running
interrogation in view without scrolling at a desktop's and a phone's size, the rest folded, and a card
that moves to its section when its interrogation starts."""

import re

import pytest
from playwright.sync_api import expect

from arena import services
from tests.arena.helpers import sides, three_party

from .conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_the_monitor_reads_as_words_and_local_times(live_daphne, browser, cast):
    interrogation = three_party(cast)
    human, _ = sides(interrogation)
    services.message_post(conversation_id=human.pk, sender_role="interrogator", text="Hello?", user=cast.jude)
    page = login(browser, live_daphne, "olivia", "olivia-pw")
    page.goto(f"{live_daphne}/monitor/")
    card = page.locator(f"#interrogation-{interrogation.pk}")
    expect(card.locator(".meta")).to_contain_text("Three-party · judge jude · Running")
    assert "three_party" not in card.inner_text()
    ends = card.locator(".meta .ends time")
    expect(ends).to_have_attribute("data-local", "1")
    assert not re.search(r"\d{4}-\d\d-\d\dT", ends.inner_text()) and ends.get_attribute("datetime").endswith("Z")
    expect(card.locator(".meta .countdown")).to_have_text(
        re.compile(r"^0[0-4]:\d\d$")
    )  # a 5-minute limit, counting down
    expect(card.locator(".msg time")).to_have_count(1)
    colours = page.evaluate("""() => [getComputedStyle(document.querySelector('#site-name a')).color,
                                      getComputedStyle(document.querySelector('#header')).backgroundColor]""")
    assert colours[0] != colours[1] and colours[0] == "rgb(245, 221, 93)", colours  # the admin's yellow

    for i in range(31):  # 32 in all: the monitor shows each conversation's last 30, and says so
        services.message_post(conversation_id=human.pk, sender_role="interrogator", text=f"q{i}", user=cast.jude)
    page.reload()
    expect(card.locator(".earlier")).to_have_text("2 earlier messages — see the transcript")
    expect(card.locator(".msg")).to_have_count(30)
    assert not page.js_errors


DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


def _busy_monitor(cast, ended=8):
    """One running interrogation, made first (the oldest), then ``ended`` ones that ended with a long talk
    and no verdict yet, and one scheduled."""
    running = three_party(cast, time_limit_s=600)
    for _ in range(ended):
        other = three_party(cast, judge=cast.june, confederate=cast.carl, machine=cast.eliza)
        human, _ = sides(other)
        for i in range(12):
            services.message_post(conversation_id=human.pk, sender_role="interrogator", text=f"q{i}", user=cast.june)
        services.interrogation_end(interrogation_id=other.pk, reason="judge")
    scheduled = three_party(cast, confederate=cast.carl, start=False)
    return running, scheduled


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_running_interrogation_is_in_view_without_scrolling(live_daphne, browser, cast, viewport):
    running, scheduled = _busy_monitor(cast)
    page = login(browser, live_daphne, "olivia", "olivia-pw")
    page.set_viewport_size(viewport)
    page.goto(f"{live_daphne}/monitor/")
    expect(page.locator("#status")).to_have_text("live")
    card = page.locator(f"#interrogation-{running.pk}")
    expect(card.locator(".meta")).to_contain_text("Running")
    expect(card.locator(".meta .countdown")).to_be_visible()
    box = card.locator(".meta").bounding_box()
    assert page.evaluate("window.scrollY") == 0 and 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"]
    expect(page.locator("#monitor-ended > summary .count")).to_have_text("(8)")
    expect(page.locator("#monitor-ended .monitor-card").first).to_be_hidden()  # folded until opened
    page.locator("#monitor-ended > summary").click()
    expect(page.locator("#monitor-ended .monitor-card").first).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth") <= 0
    assert not page.js_errors


def test_an_interrogation_that_starts_moves_into_the_running_section(live_daphne, browser, cast, services_mode):
    if not services_mode:
        pytest.skip("the test process's pushes reach the server through Redis (services mode)")
    running, scheduled = _busy_monitor(cast, ended=1)
    page = login(browser, live_daphne, "olivia", "olivia-pw")
    page.goto(f"{live_daphne}/monitor/")
    expect(page.locator("#status")).to_have_text("live")
    expect(page.locator("#monitor-scheduled .count")).to_have_text("(1)")
    services.interrogation_start(interrogation_id=scheduled.pk)
    moved = page.locator(f"#monitor-running #interrogation-{scheduled.pk}")
    expect(moved.locator(".meta")).to_contain_text("Running")
    expect(page.locator("#monitor-running > h2 .count")).to_have_text("(2)")
    expect(page.locator("#monitor-scheduled .count")).to_have_text("(0)")
    assert not page.js_errors
