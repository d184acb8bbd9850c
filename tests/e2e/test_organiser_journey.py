"""An organiser runs a whole Loebner contest alone, in Chromium, from a database holding nothing but their
own account (a superuser, as the organisers' guide starts): the people's accounts, two built-in bots as
entries, the contest with its judges and confederates, its finalists (no qualifying: see below), the
schedule, every round
(each judge and confederate in a browser of their own, on their own pages), every judge's ranks, the
publication and the downloads; and, the same way, a wager rehearsal's trial (the committee, the session,
its judges, foil and computer, the interviews, the verdicts, the publication and the report).

What counts as an organiser's step (``Steps``): each page the organiser opens by a link or an address,
each form submitted and each button pressed that submits (a confirmation page's Confirm included), and
each download. Filling in a form's fields before submitting it is part of that one step; logging in is
not counted. What the judges and confederates do on their own pages (their consoles, their ranks) is theirs,
not the organiser's, and is not counted. No step edits a field to mend a wrong state: every step after the
admin's add forms is one the control room, its confirmation pages, or the results page or report offers.

The contest has no question set and as many finalist places as entries, so it goes from closing straight
to its final; its format is ``compact`` (2 rounds, everyone busy in each), its rounds follow on, and the
judges end each meeting themselves from their consoles once both sides have answered."""

import csv
import io
import json
import re
import zipfile

import pytest
from playwright.sync_api import expect

from tests.conftest import FAST

from .conftest import login

pytest.importorskip("tournaments.loebner.rules.preview")
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ORGANISER_STEPS = 25
JUDGES = ["judith", "jules"]
CONFEDERATES = ["cora", "colin"]
BOTS = [("Simple Bot", "simple"), ("ELIZA", "eliza")]


class Steps:
    """Counts one person's actions, each named (the list says what was done, in order)."""

    def __init__(self):
        self.done: list[str] = []

    def __call__(self, what: str) -> None:
        self.done.append(what)

    def __len__(self) -> int:
        return len(self.done)


# --- the organiser's moves ------------------------------------------------------------------------


def open_page(page, steps, url: str, what: str) -> None:
    page.goto(url)
    steps(what)


def follow(page, steps, link) -> None:
    """A link clicked."""
    what = link.inner_text().strip()
    link.click()
    page.wait_for_load_state("load")
    steps(f"follow {what}")


def press(page, steps, button, what: str) -> None:
    """A button that submits its form."""
    button.click()
    page.wait_for_load_state("load")
    steps(what)


def room_press(page, steps, label: str) -> None:
    """The control room's (or a confirmation page's) button of that label."""
    press(page, steps, page.get_by_role("button", name=label, exact=True), label)


def users_add(page, steps, base: str, usernames: list[str]) -> None:
    """The admin's add-user page once, then Save and add another for each but the last."""
    open_page(page, steps, f"{base}/admin/auth/user/add/", "open Users › Add")
    for k, username in enumerate(usernames):
        page.fill("input[name=username]", username)
        page.fill("input[name=password1]", f"{username}-Secret-42")
        page.fill("input[name=password2]", f"{username}-Secret-42")
        last = k == len(usernames) - 1
        press(page, steps, page.locator(f"input[name={'_save' if last else '_addanother'}]"), f"add {username}")
        expect(page.locator(".messagelist")).to_contain_text("was added successfully")


def entries_add(page, steps, base: str, bots=BOTS) -> None:
    """Built-in bots as arena entries, replying at once (no typing delay)."""
    open_page(page, steps, f"{base}/admin/arena/entry/add/", "open Entries › Add")
    for k, (name, engine) in enumerate(bots):
        page.fill("input[name=display_name]", name)
        page.select_option("select[name=engine]", engine)
        page.fill("textarea[name=settings]", json.dumps(FAST))
        last = k == len(bots) - 1
        press(page, steps, page.locator(f"input[name={'_save' if last else '_addanother'}]"), f"add {name}")
        expect(page.locator(".messagelist")).to_contain_text("was added successfully")


def contest_add(page, steps, base: str) -> None:
    """One form: the contest, its two entries (compliant) and its judges and confederates."""
    open_page(page, steps, f"{base}/admin/loebner/contest/add/", "open Contests › Add")
    page.fill("input[name=name]", "Village Hall Prize")
    page.select_option("select[name=format_name]", "compact")
    page.fill("input[name=seed]", "7")
    page.fill("input[name=round_minutes]", "3")
    page.fill("input[name=review_minutes]", "0")
    page.fill("input[name=break_minutes]", "0")
    page.check("input[name=rounds_follow_on]")
    page.fill("input[name=finalists]", "2")
    for i, (name, _engine) in enumerate(BOTS):
        page.get_by_role("button", name="Add another Contest entry").click()
        page.select_option(f"select[name=entries-{i}-entry]", label=name)
        page.fill(f"input[name=entries-{i}-people-0-name]", f"Author of {name}")
        page.check(f"input[name=entries-{i}-rights_statement]")
        page.select_option(f"select[name=entries-{i}-compliance]", "compliant")
    seats = [(f"J{k}", "judge", u) for k, u in enumerate(JUDGES, 1)]
    seats += [(f"C{k}", "confederate", u) for k, u in enumerate(CONFEDERATES, 1)]
    for i, (label, kind, username) in enumerate(seats):
        page.get_by_role("button", name="Add another Participant").click()
        page.fill(f"input[name=participants-{i}-label]", label)
        page.select_option(f"select[name=participants-{i}-kind]", kind)
        page.select_option(f"select[name=participants-{i}-user]", label=username)
    press(page, steps, page.locator("input[name=_save]"), "add the contest")
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")


def download(page, steps, link) -> bytes:
    """A download link of the results page, fetched with the organiser's own session."""
    href = link.get_attribute("href")
    response = page.request.get(page.url.split("/contests/")[0] + href if href.startswith("/") else href)
    assert response.ok, f"{href}: {response.status}"
    steps(f"download {href.rsplit('/', 1)[-1]}")
    return response.body()


# --- the participants' moves (small, so that the consoles may change under them) -------------------


def console_open(page, base: str, kind: str) -> None:
    """From the participant's own home page, their meeting that is under way."""
    page.goto(f"{base}/")
    heading = "judge" if kind == "judge" else "witness"
    item = page.locator("li", has=page.locator(".status.running"))
    expect(item.first).to_be_visible(timeout=20000)
    item.first.get_by_role("link").first.click()
    page.wait_for_url(re.compile(f"/{heading}/"))
    expect(page.locator("#status")).to_have_text("running", timeout=15000)


def judge_ask(page, side: str, text: str) -> None:
    box = page.locator(f"#pane-{side} input")
    box.fill(text)
    box.press("Enter")


def judge_wait_replies(page) -> None:
    for side in ("left", "right"):
        expect(page.locator(f"#pane-{side} .msg.witness").first).to_be_visible(timeout=20000)


def judge_end(page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="End now").click()


def judge_verdict(page, side: str) -> None:
    expect(page.locator("#verdict")).to_be_visible(timeout=15000)
    page.check(f"#choice-{side}")
    page.locator("#confidence").fill("70")
    page.locator("#verdict-submit").click()
    recorded = page.get_by_text(re.compile("verdict is recorded|Verdict recorded", re.I))
    expect(recorded.locator("visible=true").first).to_be_visible()


def judge_rank(page, base: str, contest_pk: int) -> None:
    page.goto(f"{base}/contests/{contest_pk}/results/")
    page.get_by_role("link", name=re.compile("^Rank the ", re.I)).click()
    boxes = page.locator("input[name^=rank-]")
    expect(boxes.first).to_be_visible()
    for k in range(boxes.count()):
        boxes.nth(k).fill(str(k + 1))
    page.get_by_role("button", name="Store my ranks").click()
    expect(page.get_by_text(re.compile("stored|recorded", re.I)).locator("visible=true").first).to_be_visible()


def confederate_answer(page, text: str) -> None:
    expect(page.locator("#log .msg.judge").first).to_be_visible(timeout=20000)
    page.fill("#text", text)
    page.press("#text", "Enter")


def round_played(judges, confederates, base: str) -> None:
    """Each judge questions both sides, each confederate answers, each judge ends the meeting and picks."""
    for page in [*judges, *confederates]:
        console_open(page, base, "judge" if page in judges else "witness")
    for number, page in enumerate(judges, 1):
        judge_ask(page, "left", f"Hello left, I am judge {number}. What is your favourite fruit?")
        judge_ask(page, "right", f"Hello right, I am judge {number}. What is your favourite fruit?")
    for page in confederates:
        confederate_answer(page, "Plums, since I was a child.")
    for page in judges:
        judge_wait_replies(page)
        judge_end(page)
        judge_verdict(page, "left")


def test_an_organiser_runs_a_loebner_contest_alone(browser, live_daphne, task_worker, django_user_model):
    from tournaments.loebner.models import Contest

    base = live_daphne
    django_user_model.objects.create_superuser("ada", "ada@example.org", "ada-pw")
    steps = Steps()
    organiser = login(browser, base, "ada", "ada-pw")

    users_add(organiser, steps, base, [*JUDGES, *CONFEDERATES])
    entries_add(organiser, steps, base)
    contest_add(organiser, steps, base)
    contest = Contest.objects.get()

    follow(organiser, steps, organiser.locator("a.control-room-link").first)
    room_press(organiser, steps, "Open for entries")
    expect(organiser.locator("#control-stands")).to_contain_text("Entries open")
    room_press(organiser, steps, "Close entries")
    room_press(organiser, steps, "Confirm")
    expect(organiser.locator("#control-stands")).to_contain_text("Finalists")
    expect(organiser.locator("#control-steps li.skipped")).to_have_text(re.compile("Qualifying"))
    room_press(organiser, steps, "Build the schedule")
    expect(organiser.get_by_text("nobody sits out").first).to_be_visible()
    room_press(organiser, steps, "Confirm")
    expect(organiser.locator("#control-stands")).to_contain_text("Schedule")
    room_press(organiser, steps, "Start round 1")
    expect(organiser.locator("#control-stands")).to_contain_text("Rounds")

    judges = [login(browser, base, u, f"{u}-Secret-42") for u in JUDGES]
    confederates = [login(browser, base, u, f"{u}-Secret-42") for u in CONFEDERATES]
    round_played(judges, confederates, base)  # round 1; round 2 follows on by itself
    round_played(judges, confederates, base)
    for page in judges:
        judge_rank(page, base, contest.pk)

    open_page(organiser, steps, organiser.url, "the control room again")
    expect(organiser.locator("#control-stands")).to_contain_text("Ranking")
    room_press(organiser, steps, "Publish the results and every transcript")
    room_press(organiser, steps, "Confirm")
    expect(organiser.locator("#control-stands")).to_contain_text("Every step is done.")
    follow(organiser, steps, organiser.locator("#control-links").get_by_role("link", name="Results page"))

    table = download(organiser, steps, organiser.get_by_role("link", name="CSV")).decode()
    rows = list(csv.DictReader(io.StringIO(table)))
    assert sorted(row["name"] for row in rows) == sorted(name for name, _ in BOTS)
    assert [row["n"] for row in rows] == ["2", "2"] and all(row["rank"] for row in rows), rows  # 4 meetings
    results = json.loads(download(organiser, steps, organiser.get_by_role("link", name="JSON", exact=True)))
    assert results["published"] and results["not_scored"] is None
    assert sorted(judge["label"] for judge in results["judges"]) == ["J1", "J2"]
    assert all(len(judge["meetings"]) == 2 and judge["meetings"][0]["human"] for judge in results["judges"])
    transcripts = json.loads(download(organiser, steps, organiser.locator("#transcripts-json")))["transcripts"]
    assert sorted((t["round"], t["confederate"]) for t in transcripts) == [(1, "C1"), (1, "C2"), (2, "C1"), (2, "C2")]
    assert "Plums, since I was a child." in json.dumps(transcripts)
    logs = zipfile.ZipFile(io.BytesIO(download(organiser, steps, organiser.locator("#transcripts-jcomm"))))
    names = [name for name in logs.namelist() if re.fullmatch(r"R\d-J\d-E\d-C\d\.log", name)]
    assert len(names) == 4
    assert logs.read(names[0]).decode("utf-8", "replace").startswith("Loebner Prize Protocol log")
    for secret in [*JUDGES, *CONFEDERATES]:  # people are named by their labels
        assert secret not in json.dumps(transcripts)

    print("organiser's steps:", len(steps), *steps.done, sep="\n  ")
    assert len(steps) <= ORGANISER_STEPS, steps.done
    assert all(page.js_errors == [] for page in [organiser, *judges, *confederates])


# --- a wager session's trial ----------------------------------------------------------------------

WAGER_JUDGES = ["wanda", "walt"]
WAGER_FOILS = ["fiona"]
MEMBERS = [("Rae", "for_pass"), ("Sol", "against_pass"), ("Tam", "third")]  # each appointed by the Foundation


def committee_seat(page, steps) -> None:
    """From the control room: Appoint a committee member (its add page, the committee filled in), three times."""
    follow(page, steps, page.get_by_role("link", name="Appoint a committee member"))
    committee = page.locator("select[name=committee]").input_value()
    for k, (name, role) in enumerate(MEMBERS):
        page.select_option("select[name=committee]", committee)
        page.fill("input[name=name]", name)
        page.select_option("select[name=role]", role)
        page.select_option("select[name=appointed_by]", "foundation")
        last = k == len(MEMBERS) - 1
        press(page, steps, page.locator(f"input[name={'_save' if last else '_addanother'}]"), f"appoint {name}")
        expect(page.locator(".messagelist")).to_contain_text("was added successfully")


def session_add(page, steps, base: str) -> None:
    from django.utils import timezone

    open_page(page, steps, f"{base}/admin/wager/committee/add/", "open Committees › Add")
    page.fill("input[name=name]", "Village committee")
    press(page, steps, page.locator("input[name=_save]"), "add the committee")
    open_page(page, steps, f"{base}/admin/wager/session/add/", "open Sessions › Add")
    page.select_option("select[name=committee]", label="Village committee")
    page.fill("input[name=title]", "Village rehearsal")
    page.fill("input[name=called_by]", "Rae")
    page.select_option("select[name=called_by_kind]", "member")
    page.fill("input[name=funded_by]", "Rae")
    page.select_option("select[name=computer]", label="Simple Bot")
    page.select_option("select[name=judges]", label=WAGER_JUDGES)
    page.select_option("select[name=foils]", label=WAGER_FOILS)
    page.fill("input[name=trials_planned]", "1")
    page.fill("input[name=interview_minutes]", "2")
    page.fill("input[name=break_minutes]", "0")
    now = timezone.localtime()
    page.fill("input[name=starts_at_0]", f"{now:%Y-%m-%d}")
    page.fill("input[name=starts_at_1]", f"{now:%H:%M:%S}")
    page.check("input[name=rehearsal]")
    press(page, steps, page.locator("input[name=_save]"), "add the session")
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")


def interview_open(page, base: str, session_pk: int, slot: int) -> None:
    """The judge's interview of that slot, from the session page; started from the console if need be."""
    page.goto(f"{base}/wager/sessions/{session_pk}/")
    row = page.locator("#judge-trial-1 tr", has=page.locator("td", has_text=re.compile(f"^{slot}$")))
    row.get_by_role("link", name="open the console").click()
    expect(page.locator("#status")).to_have_text(re.compile("running|scheduled|waiting"))
    if page.locator("#start").is_visible():
        page.click("#start")
    expect(page.locator("#status")).to_have_text("running", timeout=15000)


def interview_ask(page, text: str) -> None:
    box = page.locator("#pane-sole input")
    box.fill(text)
    box.press("Enter")


def interview_end(page) -> None:
    """Once the candidate has answered: End now (the console offers no verdict in a wager session)."""
    expect(page.locator("#pane-sole .msg.witness").first).to_be_visible(timeout=20000)
    judge_end(page)
    expect(page.locator("#status")).to_have_text(re.compile("ended"))


def verdicts_give(page, base: str, session_pk: int) -> None:
    page.goto(f"{base}/wager/sessions/{session_pk}/")
    form = page.locator("#verdicts-1")
    ranks = form.locator("input[name^=rank-]")
    for k in range(ranks.count()):
        letter = ranks.nth(k).get_attribute("name").removeprefix("rank-")
        form.locator(f"input[name=verdict-{letter}][value=human]").check()
        ranks.nth(k).fill(str(k + 1))
    form.get_by_role("button", name="Give my verdicts").click()
    expect(page.get_by_text("are recorded")).to_be_visible()


def test_an_organiser_runs_a_wager_sessions_trial_alone(browser, live_daphne, task_worker, django_user_model):
    """A rehearsal of one trial (two judges, one foil and the computer: two slots), as the Loebner contest
    above: the same steps count, from a database holding only the organiser's account."""
    from tournaments.wager.models import Session

    base = live_daphne
    django_user_model.objects.create_superuser("ada", "ada@example.org", "ada-pw")
    steps = Steps()
    organiser = login(browser, base, "ada", "ada-pw")

    users_add(organiser, steps, base, [*WAGER_JUDGES, *WAGER_FOILS])
    entries_add(organiser, steps, base, BOTS[:1])
    session_add(organiser, steps, base)
    session = Session.objects.get()
    follow(organiser, steps, organiser.locator("a.control-room-link").first)
    room = organiser.url
    expect(organiser.locator("#control-stands")).to_contain_text("Committee")
    committee_seat(organiser, steps)
    open_page(organiser, steps, room, "the control room again")
    expect(organiser.locator("#control-stands")).to_contain_text("Interviews")

    judges = [login(browser, base, u, f"{u}-Secret-42") for u in WAGER_JUDGES]
    foil = login(browser, base, WAGER_FOILS[0], f"{WAGER_FOILS[0]}-Secret-42")
    for slot in (1, 2):
        for page in judges:
            interview_open(page, base, session.pk, slot)
        console_open(foil, base, "witness")
        for number, page in enumerate(judges, 1):
            interview_ask(page, f"Judge {number} here: what did you have for breakfast?")
        confederate_answer(foil, "Porridge with honey.")
        for page in judges:
            interview_end(page)
    for page in judges:
        verdicts_give(page, base, session.pk)

    open_page(organiser, steps, room, "the control room again")
    expect(organiser.locator("#control-stands")).to_contain_text("Report")
    room_press(organiser, steps, "Publish the transcripts (anonymised)")
    room_press(organiser, steps, "Confirm")
    expect(organiser.locator(".messagelist")).to_contain_text("4 transcript(s) published")
    expect(organiser.locator("#control-stands")).to_contain_text("Every step is done.")
    follow(organiser, steps, organiser.locator("#control-links").get_by_role("link", name="Report"))
    expect(organiser.locator("#report")).to_contain_text("Village committee")
    expect(organiser.locator("#report")).to_contain_text("Simple Bot")
    expect(organiser.locator("#trial-1-result td").nth(1)).to_have_text("2 of 2")  # both judges' verdicts in
    expect(organiser.locator("#trial-1-result td").nth(2)).to_have_text("2 of 2")  # both called it human
    decided = re.compile(
        "the computer (passed|did not pass) the Turing Test"
    )  # its rank order rests on the letters drawn
    expect(organiser.locator("#session-result")).to_contain_text(decided)
    expect(organiser.locator("#seals a.transcript-json")).to_have_count(4)

    print("organiser's steps:", len(steps), *steps.done, sep="\n  ")
    assert len(steps) <= ORGANISER_STEPS, steps.done
    assert all(page.js_errors == [] for page in [organiser, *judges, foil])
