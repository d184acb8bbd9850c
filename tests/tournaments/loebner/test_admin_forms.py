"""The organisers' forms: building the schedule shows what the format becomes (rounds, meetings, who sits
out) and warns of idle people before anything is built, offering a format that keeps everyone busy; the
contest's page says the same; an entry's people are rows, checked when the entry is saved, each clash on
its person's box; the receipt time is the server's."""

import re

import pytest
from django.utils import timezone

from tests.tournaments.loebner.helpers import contest_make, entered, entrant_make, entry_make, finals_make
from tests.tournaments.loebner.test_guards import CONTESTS, act, text
from tournaments.loebner import services
from tournaments.loebner.models import Contest, ContestEntry, Participant

pytestmark = pytest.mark.django_db

ENTRIES = "/admin/loebner/contestentry/"


def plain(page: str) -> str:
    """The page's text as read: tags dropped, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split()).replace(" .", ".").replace(" :", ":")


def two_finalists(cast, fmt="generic"):
    """A contest in its finals with 2 finalists, 2 judges and 2 confederates seated, no schedule yet."""
    contest = contest_make("Two Finalists Prize", fmt=fmt, finalists=2)
    owner = entrant_make("pair-owner")
    for i in range(2):
        item = entered(contest, owner, f"Finalist {i + 1}", minutes=i)
        item.qualified = item.finalist = True
        item.save()
        Participant.objects.create(contest=contest, label=f"E{i + 1}", kind=Participant.Kind.ENTRY, contest_entry=item)
    Contest.objects.filter(pk=contest.pk).update(status=Contest.Status.FINALS)
    services.participants_assign(
        contest_id=contest.pk, judges=[cast.jude, cast.june], confederates=[cast.connie, cast.carl]
    )
    contest.refresh_from_db()
    return contest


# --- the format preview --------------------------------------------------------------------------


def test_building_the_schedule_shows_what_the_format_becomes_and_warns_of_idle_people_first(cast, client):
    contest = two_finalists(cast)
    client.force_login(cast.olivia)
    asked = client.post(CONTESTS, {"action": "build_schedule", "_selected_action": [contest.pk]})
    page = text(asked)
    assert asked.status_code == 200 and "This cannot be undone." in page
    assert (
        "Seated: 2 finalists, 2 judges and 2 confederates. Format generic: 4 rounds of 1 meeting; someone sits "
        "out 4 rounds of 4." in plain(page)
    )
    assert (
        "With format generic, someone sits idle in 4 of 4 rounds (round 1: J2, C2, E2; round 2: J1, C2, E1; "
        "round 3: J2, C1, E1; round 4: J1, C1, E2)." in page
    )
    assert "Format compact keeps everyone busy: 2 rounds of 2 meetings; nobody sits out." in page
    assert f'name="format-{contest.pk}" value="compact"' in page
    assert f'name="format-{contest.pk}" value="generic" checked' in page  # the contest's own, until chosen
    assert f'name="format-{contest.pk}" value="aisb" disabled' in page  # 4 entries: cannot be built
    assert not contest.rounds.exists()  # asking built nothing

    done = text(act(client, "build_schedule", contest, post="yes", **{f"format-{contest.pk}": "compact"}))
    assert "Two Finalists Prize: schedule built (2 rounds)" in done
    contest.refresh_from_db()
    assert contest.format_name == "compact"
    assert [r.meetings.count() for r in contest.rounds.order_by("number")] == [2, 2]


def test_a_format_that_keeps_everyone_busy_is_shown_without_a_warning(cast, client):
    finals = finals_make(cast, schedule=False)
    client.force_login(cast.olivia)
    page = text(client.post(CONTESTS, {"action": "build_schedule", "_selected_action": [finals.pk]}))
    assert "Format aisb: 4 rounds of 4 meetings; nobody sits out." in plain(page)
    assert "sits idle" not in page and "schedule-warnings" not in page


def test_building_is_refused_at_once_by_message_where_it_cannot_be_built(cast, client):
    contest = contest_make()
    client.force_login(cast.olivia)
    page = text(act(client, "build_schedule", contest))
    assert "Test Prize: not done: the contest is open for entries, not in its finals." in page
    assert 'id="irreversible-confirm"' not in page


def test_the_contests_page_says_what_its_format_becomes_and_what_keeps_everyone_busy(cast, client):
    contest = two_finalists(cast)
    client.force_login(cast.olivia)
    page = text(client.get(f"{CONTESTS}{contest.pk}/change/"))
    assert (
        "For 2 finalists, 2 judges and 2 confederates: 4 rounds of 1 meeting; someone sits out 4 rounds of 4. "
        "Format compact keeps everyone busy: 2 rounds of 2 meetings; nobody sits out." in page
    )
    assert 'name="rounds_follow_on"' in page


# --- the entry form ------------------------------------------------------------------------------


def entry_data(contest, entry, entrant, rows, **extra):
    """The entry form as a browser posts it: its rows of people, ``people-N-name`` and so on."""
    data = {
        "contest": contest.pk,
        "entry": entry.pk,
        "entrant": entrant.pk,
        "rights_statement": "on",
        "compliance": "pending",
        "compliance_note": "",
        "people-rows": str(len(rows)),
        **extra,
    }
    for i, row in enumerate(rows):
        for field, value in row.items():
            data[f"people-{i}-{field}"] = value
    return data


def test_the_entry_form_takes_people_as_rows_and_records_the_receipt_time_itself(cast, client):
    contest = contest_make()
    ada = entrant_make("ada")
    entry = entry_make(ada, "Ada's bot")
    client.force_login(cast.olivia)
    form = text(client.get(f"{ENTRIES}add/"))
    assert 'name="people-0-name"' in form and 'placeholder="Ada Lovelace"' in form
    assert 'name="received_at"' not in form  # the server's
    before = timezone.now()
    rows = [
        {"name": " Ada  Lovelace ", "email": "ada@example.org", "affiliation": "Analytical Engines"},
        {"name": "", "email": "", "affiliation": ""},  # an empty row is dropped
        {"name": "Charles Babbage"},
    ]
    made = client.post(f"{ENTRIES}add/", entry_data(contest, entry, ada, rows, received_at="2001-01-01 00:00"))
    assert made.status_code == 302, text(made)
    item = ContestEntry.objects.get(entry=entry)
    assert item.people == [
        {"name": "Ada Lovelace", "email": "ada@example.org", "affiliation": "Analytical Engines"},
        {"name": "Charles Babbage", "email": "", "affiliation": ""},
    ]
    assert before <= item.received_at <= timezone.now()
    again = text(client.get(f"{ENTRIES}{item.pk}/change/"))
    assert 'value="Charles Babbage"' in again and 'name="people-3-name"' in again  # the rows, and two empty ones


def test_the_entry_form_refuses_a_person_of_another_entry_on_that_persons_box(cast, client):
    contest = contest_make()
    ada = entrant_make("ada")
    entered(contest, ada, "First bot", people=[{"name": "Ada Lovelace", "email": "ada@example.org"}])
    second = entry_make(ada, "Second bot")
    client.force_login(cast.olivia)
    rows = [{"name": "Charles Babbage"}, {"name": "A. Lovelace", "email": "ADA@example.org"}]
    refused = client.post(f"{ENTRIES}add/", entry_data(contest, second, ada, rows))
    page = text(refused)
    assert refused.status_code == 200 and not ContestEntry.objects.filter(entry=second).exists()
    assert "Person 2: ADA@example.org is already affiliated with First bot." in page
    box = page.index('id="id_people-1-email"')
    assert 'aria-invalid="true"' in page[box : box + 300]
    assert page.index("ADA@example.org is already affiliated with First bot", box) < page.index(
        'id="id_people-1-affiliation"'
    )
    assert 'id="id_people-0-name-error"' not in page and 'id="id_people-1-name-error"' not in page

    rows = [{"name": "Charles Babbage", "email": "charles@"}]
    page = text(client.post(f"{ENTRIES}add/", entry_data(contest, second, ada, rows)))
    assert "Person 1: charles@ is not an e-mail address." in page and 'id="id_people-0-email-error"' in page
    assert (
        client.post(f"{ENTRIES}add/", entry_data(contest, second, ada, [{"name": "Charles Babbage"}])).status_code
        == 302
    )


def test_an_entry_with_no_person_is_refused_on_its_people(cast, client):
    contest = contest_make()
    ada = entrant_make("ada")
    client.force_login(cast.olivia)
    page = text(client.post(f"{ENTRIES}add/", entry_data(contest, entry_make(ada, "Nobody's"), ada, [{}])))
    assert "List everyone affiliated with the entry: at least one person." in page
    assert not ContestEntry.objects.exists()
