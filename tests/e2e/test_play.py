"""Three browsers join /play/: two are matched with each other and the bot (three-party: one questions,
one is the human witness), the third waits, then falls back to the bot; they chat, give verdicts, and
the reveal appears."""

import pytest
from playwright.sync_api import expect

from studies.models import Game

from ..studies.helpers import study_make
from .test_play_first_time import ready_to_play

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def join(browser, base):
    page = ready_to_play(browser, base)
    page.click("#play")
    return page


def test_three_browsers_play(browser, live_daphne, task_worker):
    study = study_make(
        format="three-party",
        min_wait_s=12,
        human_wait_s=14,
        minutes=2,
        seed=5,
        witnesses=[
            {
                "name": "Simple-PERSONA",
                "engine": "simple",
                "label": "a scripted chatbot",
                "settings": {"think_s": 0.3, "per_char_s": 0, "jitter": 0},
            }
        ],
    )
    first = join(browser, live_daphne)
    expect(first.locator("#lobby-status")).to_contain_text("Looking for a partner")
    second = join(browser, live_daphne)
    first.wait_for_url("**/play/game/**", timeout=30_000)
    second.wait_for_url("**/play/game/**", timeout=30_000)
    assert first.url == second.url
    judge, witness = (first, second) if first.locator("#judge").count() else (second, first)
    assert witness.locator("#witness").count() == 1

    # the third has nobody to pair with: at their drawn wait the bot takes the human's place
    third = join(browser, live_daphne)
    expect(third.locator("#lobby-status")).to_contain_text("Looking for a partner")
    third.wait_for_url("**/play/game/**", timeout=30_000)
    expect(third.locator("#pane-sole")).to_be_visible()

    game = Game.objects.get(study=study, human_witness__isnull=False)
    human_side = game.interrogation.conversations.get(witness_human__isnull=False).side
    bot_side = "left" if human_side == "right" else "right"
    expect(judge.locator("#status")).to_have_text("running")
    judge.fill(f"#pane-{human_side} input", "Where did you grow up?")
    judge.press(f"#pane-{human_side} input", "Enter")
    judge.fill(f"#pane-{bot_side} input", "Where did you grow up?")
    judge.press(f"#pane-{bot_side} input", "Enter")
    expect(witness.locator("#log .msg.judge .text")).to_have_text("Where did you grow up?")
    witness.fill("#text", "by the sea <b>mostly</b>")
    witness.press("#text", "Enter")
    expect(judge.locator(f"#pane-{human_side} .msg.witness .text")).to_have_text("by the sea <b>mostly</b>")
    expect(judge.locator(f"#pane-{bot_side} .msg.witness")).to_have_count(1, timeout=15000)
    assert judge.locator(".msg b").count() == 0  # text, never markup
    # strict alternation: a second question before the answer is refused, and says why
    judge.fill(f"#pane-{human_side} input", "And now?")
    judge.press(f"#pane-{human_side} input", "Enter")
    expect(judge.locator(f"#pane-{human_side} .msg.you")).to_have_count(2)
    judge.fill(f"#pane-{human_side} input", "Still there?")
    judge.press(f"#pane-{human_side} input", "Enter")
    expect(judge.locator("#notice")).to_contain_text("Wait for the witness")
    for secret in ("Simple-PERSONA", "player-", "human player"):
        assert secret not in judge.content()

    judge.once("dialog", lambda dialog: dialog.accept())
    judge.click("#end")
    expect(witness.locator("#status")).to_have_text("ended")
    judge.check(f"#choice-{human_side}")
    judge.fill("#reason", "typed like a person")
    judge.click("#verdict-submit")
    expect(judge.locator("#reveal-result")).to_contain_text("You were right")
    expect(judge.locator(f"#reveal-{human_side}")).to_contain_text("a human player")
    expect(judge.locator(f"#reveal-{bot_side}")).to_contain_text("a scripted chatbot")  # its public label

    third.fill("#pane-sole input", "are you a bot?")
    third.press("#pane-sole input", "Enter")
    expect(third.locator("#pane-sole .msg.witness")).to_have_count(1, timeout=15000)
    third.once("dialog", lambda dialog: dialog.accept())
    third.click("#end")
    third.check("#choice-machine")
    third.click("#verdict-submit")
    expect(third.locator("#reveal-sole")).to_contain_text("a scripted chatbot")
    assert "Simple-PERSONA" not in judge.content() + third.content()  # the internal name stays internal

    judge.click("#play-again")
    expect(judge.locator("#accuracy")).to_contain_text("right 1 time")
    assert first.js_errors == second.js_errors == third.js_errors == []
