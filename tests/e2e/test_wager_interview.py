"""A wager interview in real browsers: the judge finds it on the session page under an alias, questions a
foil, loses the page in the middle (a reload: the socket reconnects) and carries on with every message and
the same clock; the console offers no verdict; the verdicts and ranks are given on the session page."""

import re

import pytest
from playwright.sync_api import expect

from arena import services as arena
from arena.models import Interrogation, Message
from tournaments.wager.models import TrialVerdict

from ..tournaments.wager_helpers import wager_session
from .conftest import login

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_an_interview_survives_a_reconnect_and_ends_in_verdicts(browser, live_daphne, cast):
    session = wager_session(cast, rehearsal=True, trials=1, minutes=10)
    trial = session.trials.get()
    interview = trial.interviews.select_related("interrogation").get(judge=cast.jude, candidate="F1")  # connie
    alias = trial.aliases["F1"]
    conversation = interview.interrogation.conversations.get()

    judge = login(browser, live_daphne, "jude", "jude-pw")
    judge.goto(f"{live_daphne}/wager/sessions/{session.pk}/")
    row = judge.locator("#judge-trial-1 tr", has_text=f"Candidate {alias}")
    assert "connie" not in judge.content() and "Simple Bot" not in judge.content()
    row.get_by_role("link", name="open the console").click()
    expect(judge.locator("h1")).to_have_text(re.compile(f"Candidate {alias}$"))
    judge.click("#start")
    expect(judge.locator("#status")).to_have_text("running")
    deadline = Interrogation.objects.get(pk=interview.interrogation_id).deadline

    witness = login(browser, live_daphne, "connie", "connie-pw")
    witness.goto(f"{live_daphne}/witness/{conversation.public_id}/")
    box = judge.locator("#pane-sole input")
    box.fill("What did you do this morning?")
    box.press("Enter")
    expect(witness.locator("#log .msg.judge .text")).to_have_text(["What did you do this morning?"])
    witness.fill("#text", "Walked the dog <b>in the rain</b>.")
    witness.press("#text", "Enter")
    expect(judge.locator("#pane-sole .msg.witness .text")).to_have_text(["Walked the dog <b>in the rain</b>."])

    # the page goes away in the middle of the interview and comes back: everything is there, the clock too
    judge.reload()
    expect(judge.locator("#status")).to_have_text("running")
    expect(judge.locator("#pane-sole .log .msg")).to_have_count(2)
    expect(judge.locator("#countdown")).to_have_text(re.compile(r"0?9:\d\d"))
    assert judge.locator("#pane-sole .msg b").count() == 0  # text, never markup
    box.fill("And after that?")
    box.press("Enter")
    expect(witness.locator("#log .msg.judge .text")).to_have_text(["What did you do this morning?", "And after that?"])
    assert Interrogation.objects.get(pk=interview.interrogation_id).deadline == deadline  # the same timer

    judge.once("dialog", lambda dialog: dialog.accept())
    judge.click("#end")
    expect(witness.locator("#status")).to_have_text("ended")
    expect(judge.locator("#status")).to_have_text(re.compile("ended"))
    judge.wait_for_timeout(300)
    expect(judge.locator("#verdict")).to_be_hidden()  # no verdict (nor reveal) in the console
    expect(judge.locator("#reveal")).to_be_hidden()
    expect(judge.locator("#notice")).to_have_text(
        "This interview is over: your verdict is given on the contest's page."
    )
    assert list(Message.objects.filter(conversation=conversation).order_by("seq").values_list("text", flat=True)) == [
        "What did you do this morning?",
        "Walked the dog <b>in the rain</b>.",
        "And after that?",
    ]

    for other in trial.interviews.filter(judge=cast.jude).exclude(pk=interview.pk):  # the judge's other interviews
        arena.interrogation_start(interrogation_id=other.interrogation_id)
        arena.interrogation_end(interrogation_id=other.interrogation_id, reason="judge")
    judge.goto(f"{live_daphne}/wager/sessions/{session.pk}/")
    for rank, letter in enumerate(sorted(trial.aliases.values()), start=1):
        judge.check(f"input[name=verdict-{letter}][value={'human' if letter == alias else 'machine'}]")
        judge.fill(f"input[name=rank-{letter}]", str(rank))
    judge.click("#verdicts-1 button[type=submit]")
    expect(judge.locator("#messages")).to_contain_text("are recorded")
    given = {v.candidate: (v.verdict, v.rank) for v in TrialVerdict.objects.filter(judge=cast.jude)}
    assert given["F1"][0] == "human" and len(given) == 4
    assert judge.js_errors == [] and witness.js_errors == []
