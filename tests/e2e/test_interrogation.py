"""A judge and a confederate in two real browsers, a machine witness, the timer, the verdict, the reveal."""

import re

import pytest
from playwright.sync_api import expect

from arena.models import Conversation, Interrogation, Keystroke, Message, Verdict

from ..arena.helpers import sides, three_party, wait_for
from .conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def console_urls(live, interrogation):
    human, machine = sides(interrogation)
    return f"{live}/judge/{interrogation.public_id}/", f"{live}/witness/{human.public_id}/", human, machine


def test_three_party_interrogation_end_to_end(browser, live_daphne, cast, task_worker):
    interrogation = three_party(cast, start=False, time_limit_s=120)
    judge_url, witness_url, human, machine = console_urls(live_daphne, interrogation)

    judge = login(browser, live_daphne, "jude", "jude-pw")
    witness = login(browser, live_daphne, "connie", "connie-pw")
    judge.goto(judge_url)
    witness.goto(witness_url)
    expect(witness.locator("#status")).to_have_text("waiting for the judge to start")

    judge.click("#start")
    expect(judge.locator("#status")).to_have_text("running")
    expect(judge.locator("#countdown")).to_have_text(re.compile(r"0[12]:\d\d"))
    expect(witness.locator("#status")).to_have_text("running")

    # the judge questions both witnesses at the same time
    judge.fill(f"#pane-{human.side} input", "What is the weather like where you are?")
    judge.press(f"#pane-{human.side} input", "Enter")
    judge.fill(f"#pane-{machine.side} input", "<script>alert(1)</script> hello?")
    judge.press(f"#pane-{machine.side} input", "Enter")

    expect(witness.locator("#log .msg.judge .text")).to_have_text("What is the weather like where you are?")
    witness.fill("#text", "Grey & rainy, <i>as usual</i>.")
    witness.press("#text", "Enter")
    expect(judge.locator(f"#pane-{human.side} .msg.witness .text")).to_have_text("Grey & rainy, <i>as usual</i>.")
    expect(judge.locator(f"#pane-{machine.side} .msg.witness .text")).to_have_text(
        "Hmmm...That's an interesting question.", timeout=15000
    )
    # user text is shown as text, never as markup
    assert judge.locator(f"#pane-{human.side} .msg i").count() == 0
    assert judge.locator(f"#pane-{machine.side} .msg script").count() == 0

    # a reload mid-conversation shows every earlier message
    judge.reload()
    expect(judge.locator(f"#pane-{human.side} .log .msg")).to_have_count(2)
    expect(judge.locator(f"#pane-{machine.side} .log .msg")).to_have_count(2)
    # nothing on the judge's page says which witness is which before the verdict
    html = judge.content()
    for secret in ("connie", "Simple Bot", "simple", str(human.public_id), str(machine.public_id)):
        assert secret not in html

    judge.once("dialog", lambda dialog: dialog.accept())
    judge.click("#end")
    expect(judge.locator("#verdict")).to_be_visible()
    expect(witness.locator("#status")).to_have_text("ended")
    judge.check(f"#choice-{human.side}")
    judge.locator("#confidence").fill("85")
    judge.fill("#reason", "The machine dodged the question.")
    judge.click("#verdict-submit")

    expect(judge.locator("#reveal")).to_be_visible()
    expect(judge.locator("#reveal-result")).to_contain_text("You were right")
    expect(judge.locator(f"#reveal-{machine.side}")).to_contain_text("Simple Bot")
    verdict = Verdict.objects.get(interrogation=interrogation)
    assert (verdict.choice, verdict.confidence, verdict.correct) == (human.side, 85, True)
    assert verdict.reason == "The machine dodged the question."
    assert Message.objects.filter(conversation__interrogation=interrogation).count() == 4
    assert judge.js_errors == [] and witness.js_errors == []


def test_the_server_timer_ends_the_interrogation(browser, live_daphne, cast, task_worker):
    interrogation = three_party(cast, start=False, time_limit_s=10)
    judge_url, witness_url, human, _ = console_urls(live_daphne, interrogation)
    judge = login(browser, live_daphne, "jude", "jude-pw")
    judge.goto(judge_url)
    judge.click("#start")
    expect(judge.locator("#status")).to_have_text("running")
    # the server closes it on time, whether or not any page is watching
    judge.close()
    wait_for(lambda: Interrogation.objects.get(pk=interrogation.pk).status == "ended", timeout=20)
    ended = Interrogation.objects.get(pk=interrogation.pk)
    assert ended.end_reason == "time" and ended.ended_at == ended.deadline
    assert set(Conversation.objects.filter(interrogation=interrogation).values_list("status", flat=True)) == {"ended"}


def test_keystroke_mode_shows_typing_character_by_character(browser, live_daphne, cast, task_worker):
    interrogation = three_party(cast, keystroke_mode=True, time_limit_s=120)
    judge_url, witness_url, human, _ = console_urls(live_daphne, interrogation)
    judge = login(browser, live_daphne, "jude", "jude-pw")
    witness = login(browser, live_daphne, "connie", "connie-pw")
    judge.goto(judge_url)
    witness.goto(witness_url)
    expect(witness.locator("#status")).to_have_text("running")

    box = judge.locator(f"#pane-{human.side} input")
    box.click()
    judge.keyboard.type("Helo")
    judge.keyboard.press("Backspace")
    judge.keyboard.type("lo the")
    # the confederate watches the judge's line being typed, BackSpace included
    expect(witness.locator("#composing")).to_have_text("Hello the")
    judge.keyboard.type("re")
    judge.keyboard.press("Enter")
    expect(witness.locator("#log .msg.judge .text")).to_have_text("Hello there")
    expect(witness.locator("#composing")).to_be_hidden()

    witness.locator("#text").click()
    witness.keyboard.type("hi <b>")
    expect(judge.locator(f"#pane-{human.side} .composing")).to_have_text("hi <b>")
    witness.keyboard.press("Enter")
    expect(judge.locator(f"#pane-{human.side} .log .msg.witness .text")).to_have_text("hi <b>")
    keys = list(Keystroke.objects.filter(conversation=human).order_by("seq").values_list("sender_role", "key"))
    assert keys[:5] == [("interrogator", k) for k in ["H", "e", "l", "o", "BackSpace"]]
    assert len(keys) == len("Helo") + 1 + len("lo the") + len("re") + 1 + len("hi <b>") + 1
    assert judge.js_errors == [] and witness.js_errors == []


@pytest.fixture
def state_window_of_3(monkeypatch):
    """ARENA_STATE_MESSAGES=3 for the live daphne (requested before it: its process, spawned, reads the
    settings from the environment afresh)."""
    monkeypatch.setenv("ARENA_STATE_MESSAGES", "3")


def test_a_long_conversation_reloads_its_last_messages_and_says_how_many_came_before(
    browser, state_window_of_3, live_daphne, cast
):
    from arena import services

    interrogation = three_party(cast)
    judge_url, witness_url, human, machine = console_urls(live_daphne, interrogation)
    for i in range(8):
        role, user = ("interrogator", cast.jude) if i % 2 == 0 else ("witness", cast.connie)
        services.message_post(conversation_id=human.pk, sender_role=role, text=f"line {i}", user=user)

    judge = login(browser, live_daphne, "jude", "jude-pw")
    judge.goto(judge_url)
    expect(judge.locator(f"#pane-{human.side} .log .msg .text")).to_have_text(["line 5", "line 6", "line 7"])
    expect(judge.locator(f"#pane-{human.side} .log .earlier")).to_have_text("5 earlier messages — see the transcript")
    expect(judge.locator(f"#pane-{machine.side} .log .earlier")).to_have_count(0)
    witness = login(browser, live_daphne, "connie", "connie-pw")
    witness.goto(witness_url)
    expect(witness.locator("#log .msg .text")).to_have_text(["line 5", "line 6", "line 7"])
    expect(witness.locator("#log .earlier")).to_have_text("5 earlier messages — see the transcript")

    # a new message keeps the note above it; the page's messages stay in order
    witness.fill("#text", "line 8")
    witness.press("#text", "Enter")
    expect(judge.locator(f"#pane-{human.side} .log .msg .text")).to_have_text(["line 5", "line 6", "line 7", "line 8"])
    expect(judge.locator(f"#pane-{human.side} .log > :first-child")).to_have_class("earlier")
    assert judge.js_errors == [] and witness.js_errors == []
