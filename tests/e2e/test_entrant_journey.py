"""An entrant's journey in a real browser: sign up, create an API key, register a webhook entry against a
local stub, rehearse with the test judge, and read the rehearsal's transcript and the entry's call log."""

import json

import httpx
import pytest
from playwright.sync_api import expect

from arena.models import ApiKey, EngineCall, Entry, Interrogation
from arena.services.apikeys import key_digest
from arena.services.rehearsals import QUESTIONS

from ..bots.test_outbound_engines import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

STUB_REPLY = "Fish & chips > salad, says the stub."
NAME = "Stub <i>webhook</i>"


@pytest.fixture
def fast_rehearsals(monkeypatch, settings):
    monkeypatch.setenv("ARENA_REHEARSAL_PAUSE_S", "0.05")  # the daphne process reads its environment
    settings.ARENA_REHEARSAL_PAUSE_S = 0.05  # a worker of this process, in services mode


def test_sign_up_key_webhook_entry_rehearsal_transcript(browser, cast, fast_rehearsals, live_daphne, task_worker):
    context = browser.new_context()
    outside = []  # nothing is fetched from anywhere but the platform (no CDN)

    def local_only(route):
        if route.request.url.startswith(live_daphne):
            return route.continue_()
        outside.append(route.request.url)
        return route.abort()

    context.route("**/*", local_only)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(f"{live_daphne}/")
    page.click("text=Sign up")
    page.fill("#id_username", "newentrant")
    page.fill("#id_password1", "a-long-passphrase")
    page.fill("#id_password2", "a-long-passphrase")
    page.click("#signup-submit")
    page.wait_for_url(f"{live_daphne}/entrant/")
    expect(page.locator("#entry-form")).to_be_visible()

    page.click("#keys-link")
    page.fill("#key-name", "my laptop")
    page.click("#key-create")
    key = page.locator("#new-key-value").inner_text()
    assert ApiKey.objects.get(name="my laptop").key_hash == key_digest(key)
    listed = httpx.get(f"{live_daphne}/api/v1/entries/", headers={"Authorization": f"Token {key}"})
    assert listed.status_code == 200 and listed.json() == []
    page.reload()
    assert key not in page.content()  # shown once

    with Server(payload={"reply": STUB_REPLY}) as stub:
        page.goto(f"{live_daphne}/entrant/")
        page.fill("#id_display_name", NAME)
        page.select_option("#id_engine", "webhook")
        settings = {
            "url": stub.url + "/hook",
            "secret": "a-shared-secret-16+",
            "think_s": 0,
            "per_char_s": 0,
            "jitter": 0,
        }
        page.fill("#id_settings", json.dumps(settings))
        page.click("#entry-submit")
        entry = Entry.objects.get(display_name=NAME)
        page.wait_for_url(f"{live_daphne}/entrant/entries/{entry.pk}/")
        assert "a-shared-secret-16+" not in page.content()  # the secret is never shown back

        page.click("#rehearse-bot")
        rehearsal = Interrogation.objects.get(rehearsal=True)
        page.wait_for_url(f"{live_daphne}/entrant/rehearsals/{rehearsal.public_id}/")
        expect(page.locator("#status")).to_have_text("ended", timeout=30000)  # the page refreshes while it runs
        assert len(stub.requests) == len(QUESTIONS)

    log = page.locator("#log .msg")
    expect(log).to_have_count(2 * len(QUESTIONS))
    expect(page.locator("#log .msg.judge .text").first).to_have_text(QUESTIONS[0])
    expect(page.locator("#log .msg.witness .text").first).to_have_text(STUB_REPLY)
    expect(page.locator("#log .msg.witness .who").first).to_have_text(NAME)  # text, never markup
    assert page.locator("main i").count() == 0

    page.click("h1 a")
    expect(page.locator("#breaker")).to_have_text("closed")
    expect(page.locator("#calls tr.ok")).to_have_count(len(QUESTIONS))
    expect(page.locator("#rehearsals li")).to_have_count(1)
    assert EngineCall.objects.filter(entry=entry, outcome="ok").count() == len(QUESTIONS)
    assert str(rehearsal.public_id) not in httpx.get(f"{live_daphne}/transcripts/").text  # never published

    page.goto(f"{live_daphne}/api/docs/")  # the reference, generated from the code, served by the platform
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Turing Arena")
    expect(page.locator(".opblock-summary-path", has_text="/api/v1/entries/{entry_id}/rehearse/")).to_have_count(1)
    assert errors == [] and outside == []
    context.close()
