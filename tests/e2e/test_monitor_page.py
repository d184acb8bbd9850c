"""The organisers' live monitor in Chromium: the format in words, the deadline as a local time and a
countdown, each message's time, and the admin header's title readable (not blue on blue)."""

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
