"""A legacy LPP entry (Perl) as a live witness: a judge in a real browser questions it through the bridge."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from arena.models import Entry, Keystroke

from ..arena.helpers import sides, three_party
from ..lpp.test_legacy_perl import bridging
from .conftest import login

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    # the bridge is a process of its own: its pushes reach daphne's pages only through Redis
    pytest.mark.skipif(not settings.REDIS_URL, reason="the LPP bridge streams to pages through Redis (set REDIS_URL)"),
]


def test_judge_questions_a_bridged_perl_entry_in_keystroke_mode(browser, live_daphne, cast, tmp_path):
    entry = Entry.objects.create(display_name="Perl classic", engine="lpp", settings={})
    interrogation = three_party(cast, machine=entry, keystroke_mode=True, time_limit_s=120)
    _, machine = sides(interrogation)
    with bridging(entry, tmp_path / "comm"):
        judge = login(browser, live_daphne, "jude", "jude-pw")
        judge.goto(f"{live_daphne}/judge/{interrogation.public_id}/")
        expect(judge.locator("#status")).to_have_text("running")
        judge.locator(f"#pane-{machine.side} input").click()
        judge.keyboard.type("Are you real?")
        judge.keyboard.press("Enter")
        expect(judge.locator(f"#pane-{machine.side} .log .msg.witness .text")).to_have_text(
            "Perl heard: Are you real?", timeout=15000
        )
        assert judge.js_errors == []
        program_keys = Keystroke.objects.filter(conversation=machine, sender_role="witness")
        assert program_keys.count() == len("Perl heard: Are you real?") + 1
        assert all(k.stamp.isdigit() for k in program_keys)  # the program's own LPP stamps are kept
