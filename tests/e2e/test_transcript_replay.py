"""A published transcript replays in Chromium as it was typed: an imported Loebner 2012 log (LPP keystrokes)
key by key with play/pause, speed and a position slider; the end of a replay is the static transcript; the
times read in the viewer's own time zone. Without JavaScript the page is the static transcript."""

import re

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from arena.models import Interrogation
from tests.data_files import LOEBNER2012

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
LOG = "logfile.m_allan_linguo.2012-05-15--13-14-57.log"


def published_log():
    if not (LOEBNER2012 / LOG).is_file():
        pytest.fail(f"shared 2012 logs not found at {LOEBNER2012} (set SHARED_DIR)")
    call_command("lpp_import", str(LOEBNER2012 / LOG), verbosity=0)
    interrogation = Interrogation.objects.get()
    Interrogation.objects.filter(pk=interrogation.pk).update(published_at=timezone.now())
    return interrogation


def logs_text(page):
    """Each pane's rows as shown (hidden rows excluded), composing rows included."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('.log')).map((log) =>
        Array.from(log.querySelectorAll('.msg')).filter((row) => !row.hidden)
             .map((row) => row.querySelector('.text').textContent).join('\\n'))""")


def position(page):
    return int(page.get_attribute("#replay", "data-position"))


def typing_moment(data) -> int:
    """A slider position (a multiple of 100 ms) at which someone has typed keys not yet sent."""
    for conversation in data["conversations"]:
        sent = [m[0] for m in conversation["messages"]]
        for ms, _role, text in conversation["keys"]:
            at = -(-ms // 100) * 100
            if text not in "\b\n" and all(not (ms <= t <= at) for t in sent):
                return at
    raise AssertionError("no moment with a line being typed")


def test_a_transcript_replays_as_typed(live_daphne, browser):
    interrogation = published_log()
    url = f"{live_daphne}/transcripts/{interrogation.public_id}/"

    static = browser.new_context(java_script_enabled=False).new_page()
    static.goto(url)
    assert static.locator("#replay").is_hidden()  # no controls without JavaScript, every message readable
    final = logs_text(static)
    assert "Hello there.What is your name?" in final[1] and all(final), final
    static.context.close()

    context = browser.new_context(timezone_id="Asia/Tokyo", locale="en-GB", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    expect(page.locator("#replay")).to_be_visible()
    assert logs_text(page) == final  # before playing: the whole transcript
    first_time = page.locator(".log time").first
    assert first_time.get_attribute("data-local") == "1" and "UTC" in first_time.get_attribute("title")
    assert re.search(r"GMT\+9|JST", first_time.inner_text())  # 12:18 UTC read as 21:18 in Tokyo
    duration = int(page.get_attribute(".replay-position", "max"))
    assert duration > 60_000 and "key by key" in page.inner_text("#replay")

    page.locator(".replay-position").fill("0")  # the slider: back to the start, nothing sent yet
    assert page.locator(".log .msg:not(.composing):visible").count() == 0
    assert len("".join(logs_text(page))) <= 1  # at most the first key
    middle = duration // 2
    page.locator(".replay-position").fill(str(middle))
    halfway = logs_text(page)
    assert 0 < sum(len(t) for t in halfway) < sum(len(t) for t in final)

    typing_at = typing_moment(page.evaluate("() => JSON.parse(document.getElementById('replay-data').textContent)"))
    page.locator(".replay-position").fill(str(typing_at))  # a line half typed, not yet sent: shown as typed so far
    assert page.locator(".msg.composing:visible").count() >= 1
    page.locator(".replay-position").fill(str(middle))

    page.click(".replay-play")  # 1×
    page.wait_for_timeout(1000)
    page.click(".replay-play")  # pause
    slow = position(page) - middle
    paused_at = position(page)
    page.wait_for_timeout(600)
    assert position(page) == paused_at and page.get_attribute("#replay", "data-playing") == "false"  # pause stops
    page.select_option(".replay-speed", "10")
    page.click(".replay-play")
    page.wait_for_timeout(1000)
    page.click(".replay-play")
    fast = position(page) - paused_at
    assert 500 <= slow <= 2500 and fast >= 4 * slow, (slow, fast)  # 10× runs ten times as fast

    page.locator(".replay-position").fill(str(duration - 3000))
    page.click(".replay-play")
    expect(page.locator("#replay")).to_have_attribute("data-playing", "false", timeout=5000)
    assert position(page) == duration and logs_text(page) == final  # the end of a replay is the transcript
    assert page.locator(".msg.composing:visible").count() == 0
    assert not errors
    context.close()
