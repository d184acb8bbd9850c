"""A Loebner round in real Chromium: the organiser starts it in the admin, the judge questions a bot
entry and a confederate at once (left/right as the schedule stored), the board turns green, the organiser
ends the talking, the judge picks the human and is told it is recorded (the truth waits for the published
results) and where to go next, and the results count it."""

import pytest
from playwright.sync_api import expect

from arena.models import Verdict
from tests.tournaments.loebner.helpers import finals_make
from tournaments.loebner.models import Judgment

from .conftest import login

pytest.importorskip("tournaments.loebner.rules.schedule")
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def admin_action(page, base, round_pk, action):
    page.goto(f"{base}/admin/loebner/round/")
    page.check(f"input[name=_selected_action][value='{round_pk}']")
    page.select_option("select[name=action]", action)
    page.click("button[name=index]")
    expect(page.locator(".messagelist")).to_contain_text("round 1")


def test_a_round_with_a_judge_a_confederate_and_a_bot_entry(browser, live_daphne, cast, task_worker):
    contest = finals_make(cast, fmt="aisb")
    round_ = contest.rounds.get(number=1)
    meeting = round_.meetings.select_related("judge__user", "confederate__user", "interrogation").get(judge__label="J1")
    interrogation = meeting.interrogation
    human = interrogation.conversations.get(witness_human__isnull=False)
    machine = interrogation.conversations.get(witness_entry__isnull=False)
    assert (machine.side == "left") == (meeting.left == "entry")

    organiser = login(browser, live_daphne, "olivia", "olivia-pw")
    admin_action(organiser, live_daphne, round_.pk, "start")
    judge = login(browser, live_daphne, "jude", "jude-pw")
    confederate_name = meeting.confederate.user.username
    witness = login(browser, live_daphne, confederate_name, f"{confederate_name}-pw")
    judge.goto(f"{live_daphne}/judge/{interrogation.public_id}/")
    witness.goto(f"{live_daphne}/witness/{human.public_id}/")
    expect(judge.locator("#status")).to_have_text("running")
    expect(witness.locator("#status")).to_have_text("running")

    judge.fill(f"#pane-{human.side} input", "Which is larger, a grape or a grapefruit?")
    judge.press(f"#pane-{human.side} input", "Enter")
    judge.fill(f"#pane-{machine.side} input", "What would I use a hammer for?")
    judge.press(f"#pane-{machine.side} input", "Enter")
    expect(witness.locator("#log .msg.judge .text")).to_have_text("Which is larger, a grape or a grapefruit?")
    witness.fill("#text", "A grapefruit, obviously.")
    witness.press("#text", "Enter")
    expect(judge.locator(f"#pane-{human.side} .msg.witness .text")).to_have_text("A grapefruit, obviously.")
    expect(judge.locator(f"#pane-{machine.side} .msg.witness .text")).to_have_count(1, timeout=15000)
    html = judge.content()
    for secret in (confederate_name, meeting.entry.contest_entry.entry.display_name, contest.name.split()[0] + " E"):
        assert secret not in html

    organiser.goto(f"{live_daphne}/contests/{contest.pk}/board/")
    expect(organiser.locator("#board tbody tr")).to_have_count(round_.meetings.count())
    expect(organiser.locator("#board td.green", has_text="J1")).to_have_count(1)

    admin_action(organiser, live_daphne, round_.pk, "finish")
    expect(judge.locator("#verdict")).to_be_visible()
    judge.check(f"#choice-{human.side}")
    judge.locator("#confidence").fill("80")
    judge.click("#verdict-submit")
    # recorded, and the truth kept until the results are published; the end screen leads to round 2
    expect(judge.locator("#reveal-later")).to_have_text(
        "Verdict recorded. The truth is revealed when the results are published."
    )
    expect(judge.locator("#reveal-later")).to_be_visible()
    expect(judge.locator("#reveal")).to_be_hidden()
    later = contest.rounds.get(number=2).meetings.select_related("interrogation").get(judge__label="J1")
    expect(judge.locator("#next-link")).to_have_attribute("href", f"/judge/{later.interrogation.public_id}/")
    expect(judge.locator("#next-link")).to_have_text(f"{contest.name}, round 2: your next meeting")
    html = judge.content()
    for secret in (confederate_name, meeting.entry.contest_entry.entry.display_name, "You were right"):
        assert secret not in html
    assert Verdict.objects.get(interrogation=interrogation).correct

    organiser.goto(f"{live_daphne}/contests/{contest.pk}/results/")
    expect(organiser.locator("#entries")).to_be_visible()
    assert Judgment.objects.get(meeting=meeting).human == "confederate"
    assert judge.js_errors == [] and witness.js_errors == []


def test_a_sequential_round_shows_the_judge_which_witness_waits(browser, live_daphne, cast):
    """2009's rules: the left witness first, then the right. The judge sees the right pane waiting (its box
    closed, a line saying why) and the held confederate reads that the judge is not talking to them yet."""
    from tournaments.loebner import services

    contest = finals_make(cast, fmt="2009-rules")
    round_ = contest.rounds.get(number=1)
    meeting = round_.meetings.select_related("judge__user", "confederate__user", "interrogation").get(judge__label="J1")
    services.round_start(round_id=round_.pk)
    human = meeting.interrogation.conversations.get(witness_human__isnull=False)
    judge = login(browser, live_daphne, meeting.judge.user.username, f"{meeting.judge.user.username}-pw")
    judge.set_viewport_size({"width": 1280, "height": 800})
    judge.goto(f"{live_daphne}/judge/{meeting.interrogation.public_id}/")
    expect(judge.locator("#status")).to_have_text("running")
    expect(judge.locator("#pane-right .pane-held")).to_be_visible()
    expect(judge.locator("#pane-right input")).to_be_disabled()
    expect(judge.locator("#pane-right button")).to_be_disabled()
    expect(judge.locator("#help-held")).to_be_visible()
    expect(judge.locator("#pane-left .pane-held")).to_be_hidden()
    expect(judge.locator("#pane-left input")).to_be_enabled()
    name = meeting.confederate.user.username
    witness = login(browser, live_daphne, name, f"{name}-pw")
    witness.goto(f"{live_daphne}/witness/{human.public_id}/")
    if human.side == "right":
        expect(witness.locator("#status")).to_have_text("waiting: the judge is not talking to you yet")
        expect(witness.locator("#text")).to_be_disabled()
    else:
        expect(witness.locator("#status")).to_have_text("running")
        expect(witness.locator("#text")).to_be_enabled()
    organiser = login(browser, live_daphne, "olivia", "olivia-pw")
    admin_action(organiser, live_daphne, round_.pk, "pause")  # both sides held: "paused", not a far-off deadline
    expect(judge.locator("#status")).to_have_text("paused")
    expect(judge.locator("#countdown")).to_have_text("--:--")
    expect(judge.locator("#pane-left input")).to_be_disabled()
    expect(judge.locator("#help-held")).to_be_hidden()
    expect(witness.locator("#text")).to_be_disabled()
