"""A refusal on a console holds while it is true: the witness's "the interrogator speaks first" goes when
the judge writes, the judge's "wait for the witness's answer" when the witness answers, and none is left on
an end screen. On a phone the notice stays in sight (in the sticky bar) however far the page is scrolled."""

import re

import pytest
from playwright.sync_api import expect

from arena import services

from .test_consoles import PHONE, open_as, scroll_to_bottom

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# the point at the notice's centre shows the notice (not the sticky bar drawn over it), on screen
IN_SIGHT = """() => {
  const notice = document.getElementById("notice"), box = notice.getBoundingClientRect();
  if (!box.height || box.top < 0 || box.bottom > window.innerHeight) return false;
  return notice.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
}"""


def send(page, selector, text):
    page.fill(selector, text)
    page.press(selector, "Enter")


def test_refusals_leave_when_untrue_and_stay_in_sight_on_a_phone(browser, live_daphne, cast):
    interrogation = services.interrogation_create(
        judge=cast.jude, witnesses=[cast.connie], time_limit_s=600, title="notices", turn_rule="alternate"
    )
    services.interrogation_start(interrogation_id=interrogation.pk)
    conversation = interrogation.conversations.get()
    judge = open_as(browser, live_daphne, "jude", f"{live_daphne}/judge/{interrogation.public_id}/", PHONE)
    witness = open_as(browser, live_daphne, "connie", f"{live_daphne}/witness/{conversation.public_id}/", PHONE)

    send(witness, "#text", "Hello there")
    expect(witness.locator("#notice")).to_have_text("The interrogator speaks first: wait for their message.")
    send(judge, "#pane-sole input", "Good morning")
    expect(witness.locator(".log .msg.judge")).to_have_count(1)
    expect(witness.locator("#notice")).to_have_text("")

    for i in range(12):  # a long enough chat to scroll a phone's page
        send(witness, "#text", f"answer {i}")
        expect(judge.locator(".log .msg.witness")).to_have_count(i + 1)
        send(judge, "#pane-sole input", f"question {i + 1}")
        expect(witness.locator(".log .msg.judge")).to_have_count(i + 2)
    send(judge, "#pane-sole input", "one more")
    expect(judge.locator("#notice")).to_have_text(re.compile("Wait for the witness's answer"))
    scroll_to_bottom(judge)
    assert judge.evaluate(IN_SIGHT), "the judge's notice is off screen or under the sticky bar on a phone"
    send(witness, "#text", "here is my answer")
    expect(judge.locator("#notice")).to_have_text("")

    send(witness, "#text", "and another")
    expect(witness.locator("#notice")).to_have_text(re.compile("Wait for the interrogator"))
    judge.once("dialog", lambda dialog: dialog.accept())
    judge.click("#end")
    expect(witness.locator("#ended")).to_be_visible()
    expect(witness.locator("#notice")).to_have_text("")  # no refusal on the end screen
    expect(judge.locator("#pane-sole input")).to_have_attribute("aria-label", "Your question to the witness")
    assert judge.js_errors == [] and witness.js_errors == []
