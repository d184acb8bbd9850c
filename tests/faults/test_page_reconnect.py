"""The judge's and the confederate's pages in a real browser while daphne freezes and dies.

What they notice: "Reconnecting…", then the page comes back by itself with the conversation; a
message typed while the server was frozen (sent, never shown back stored) is not swallowed: it stays
in the box, the page says it was not delivered, and Enter sends it, once.
"""

import os
import signal

import pytest
from playwright.sync_api import expect

from arena.models import Message
from bench.harness import free_port
from tests.arena.helpers import sides, three_party
from tests.e2e.conftest import login
from tests.faults.conftest import services_only

pytestmark = [*services_only, pytest.mark.browser]

NOT_DELIVERED = "Your last message was not delivered: press Enter to send it again."


def test_pages_reconnect_after_a_crash_and_keep_what_was_never_stored(browser, platform, cast):
    interrogation = three_party(cast, time_limit_s=900)
    human, _ = sides(interrogation)
    port = free_port()
    server = platform.daphne(port)
    live = f"http://127.0.0.1:{port}"
    judge = login(browser, live, "jude", "jude-pw")
    witness = login(browser, live, "connie", "connie-pw")
    judge.goto(f"{live}/judge/{interrogation.public_id}/")
    witness.goto(f"{live}/witness/{human.public_id}/")
    expect(judge.locator("#status")).to_have_text("running")
    expect(witness.locator("#status")).to_have_text("running")
    box = judge.locator(f"#pane-{human.side} input")
    judge_log = judge.locator(f"#pane-{human.side} .log .msg .text")

    box.fill("Before the crash?")
    box.press("Enter")
    expect(witness.locator("#log .msg.judge .text")).to_have_text(["Before the crash?"])
    expect(box).to_have_value("")  # shown back stored: the box is cleared

    # the server freezes: a message sent now is never stored, and never shown back
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        box.fill("Lost in the crash?")
        box.press("Enter")
        box.press("Enter")  # impatient: still nothing sent twice
        judge.wait_for_timeout(700)
        expect(box).to_have_value("Lost in the crash?")
        expect(judge_log).to_have_text(["Before the crash?"])
    finally:
        server.kill()  # and dies (SIGKILL ends a stopped process too)
    expect(judge.locator("#notice")).to_have_text("Reconnecting…")
    expect(witness.locator("#notice")).to_have_text("Reconnecting…")

    platform.daphne(port)  # back on the same port: the pages reconnect by themselves
    expect(judge.locator("#notice")).to_have_text(NOT_DELIVERED, timeout=40_000)
    expect(witness.locator("#notice")).to_have_text("", timeout=40_000)
    expect(judge_log).to_have_text(["Before the crash?"])
    expect(box).to_have_value("Lost in the crash?")
    box.press("Enter")
    expect(witness.locator("#log .msg.judge .text")).to_have_text(["Before the crash?", "Lost in the crash?"])
    expect(box).to_have_value("")

    witness.fill("#text", "Back again.")
    witness.press("#text", "Enter")
    expect(judge.locator(f"#pane-{human.side} .msg.witness .text")).to_have_text(["Back again."])
    expect(witness.locator("#text")).to_have_value("")
    assert list(Message.objects.filter(conversation=human).order_by("seq").values_list("text", flat=True)) == [
        "Before the crash?",
        "Lost in the crash?",
        "Back again.",
    ]
    assert judge.js_errors == [] and witness.js_errors == []
