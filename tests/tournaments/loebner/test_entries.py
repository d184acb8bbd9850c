"""Entering a contest (service and API), the compliance rules, and closing: the first compliant entries
by receipt, the roll-over when none is compliant, the single compliant entry."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from core.errors import Closed, Conflict, InvalidInput, NotAllowed
from tests.tournaments.loebner.helpers import contest_make, entered, entrant_make, entry_make
from tournaments.loebner import selectors, services
from tournaments.loebner.models import Contest, ContestEntry, PrizeRow

pytestmark = pytest.mark.django_db


def test_a_person_may_be_affiliated_with_one_entry_only(cast):
    contest = contest_make()
    ada = entrant_make("ada")
    entered(contest, ada, "Ada One", people=["Ada Lovelace"])
    other = entry_make(ada, "Ada Two")
    with pytest.raises(InvalidInput, match="(?i)ada lovelace"):
        services.contest_enter(
            contest_id=contest.pk, entry_id=other.pk, entrant=ada, people=["ada  lovelace"], rights_statement=True
        )


def test_statements_decide_whether_an_entry_can_be_compliant(cast):
    contest = contest_make()
    bob = entrant_make("bob")
    no_rights = entered(contest, bob, "No rights", rights_statement=False, compliant=None)
    minor = entered(contest, bob, "Minor", under_18=True, compliant=None)
    with pytest.raises(InvalidInput, match="rights statement"):
        services.entry_check(contest_entry_id=no_rights.pk, compliant=True)
    with pytest.raises(InvalidInput, match="guardian"):
        services.entry_check(contest_entry_id=minor.pk, compliant=True)
    allowed = entered(contest, bob, "Minor with permission", under_18=True, guardian_permission=True)
    assert ContestEntry.objects.get(pk=allowed.pk).compliant


def test_closing_sends_the_first_compliant_entries_by_receipt_to_qualifying(cast):
    contest = contest_make(qualifying_limit=3, finalists=2)
    ada = entrant_make("ada")
    late = entered(contest, ada, "Late", minutes=50)
    refused = entered(contest, ada, "Refused", minutes=1, compliant=False)
    unchecked = entered(contest, ada, "Unchecked", minutes=2, compliant=None)
    first, second, third = (entered(contest, ada, f"On time {i}", minutes=10 + i) for i in range(3))
    services.contest_close(contest_id=contest.pk)
    qualified = set(ContestEntry.objects.filter(contest=contest, qualified=True).values_list("pk", flat=True))
    assert qualified == {first.pk, second.pk, third.pk}
    assert not {late.pk, refused.pk, unchecked.pk} & qualified
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.QUALIFYING
    with pytest.raises(Closed):
        services.contest_enter(
            contest_id=contest.pk,
            entry_id=entry_make(ada, "Too late").pk,
            entrant=ada,
            people=["X"],
            rights_statement=True,
        )


def test_no_compliant_entry_rolls_the_prize_over_into_the_next_contest(cast):
    next_year = contest_make("2010 Prize", status="draft")
    PrizeRow.objects.create(contest=next_year, place=1, amount=Decimal("3000"))
    this_year = contest_make("2009 Prize", rolls_into=next_year)
    PrizeRow.objects.create(contest=this_year, place=1, amount=Decimal("3000"))
    entered(this_year, entrant_make("ada"), "Broken", compliant=False)
    assert selectors.prize_ladder(contest=next_year)[0]["amount"] == Decimal("3000")
    with pytest.raises(
        Conflict, match="No entry is marked compliant: closing now rolls the prize over into 2010 Prize"
    ):
        services.contest_close(contest_id=this_year.pk)  # unless told so, nobody rolls a prize over by mistake
    assert Contest.objects.get(pk=this_year.pk).status == Contest.Status.OPEN
    assert selectors.prize_ladder(contest=next_year)[0]["amount"] == Decimal("3000")
    services.contest_close(contest_id=this_year.pk, confirm_rollover=True)
    assert Contest.objects.get(pk=this_year.pk).status == Contest.Status.ROLLED_OVER
    ladder = selectors.prize_ladder(contest=next_year)
    assert ladder[0]["amount"] == Decimal("6000") and ladder[0]["rolled_over"] == Decimal("3000")


def test_a_single_compliant_entry_gets_the_prize_without_a_contest(cast, client):
    contest = contest_make()
    only = entered(contest, entrant_make("ada"), "Alone")
    services.contest_close(contest_id=contest.pk)
    contest.refresh_from_db()
    assert contest.status == Contest.Status.SINGLE
    assert ContestEntry.objects.get(pk=only.pk).finalist
    page = client.get(f"/contests/{contest.pk}/results/")
    assert (
        "single compliant entry receives the prize without a contest: <strong>Alone</strong>" in page.content.decode()
    )


def _api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_entrants_enter_through_the_api_and_see_their_receipt_times(cast):
    contest = contest_make()
    ada, bob = entrant_make("ada"), entrant_make("bob")
    entry = entry_make(ada, "Ada-API")
    url = f"/contests/api/{contest.pk}/entries/"
    made = _api(ada).post(url, {"entry": entry.pk, "people": ["Ada L"], "rights_statement": True}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["compliance"] == "pending" and made.json()["received_at"]
    again = _api(ada).post(url, {"entry": entry.pk, "people": ["Someone"], "rights_statement": True}, format="json")
    assert again.status_code == 409
    stolen = _api(bob).post(url, {"entry": entry.pk, "people": ["Bob"], "rights_statement": True}, format="json")
    assert stolen.status_code == 403
    bad = _api(ada).post(url, {"entry": entry.pk, "people": [], "rights_statement": "maybe"}, format="json")
    assert bad.status_code == 400 and {"people", "rights_statement"} <= set(bad.json())
    listed = _api(ada).get(url).json()
    assert [row["display_name"] for row in listed] == ["Ada-API"]
    assert _api(bob).get(url).json() == []
    assert APIClient().get(url).status_code in (401, 403)


def test_a_closed_or_draft_contest_refuses_entries(cast):
    ada = entrant_make("ada")
    draft = contest_make("Draft", status="draft")
    with pytest.raises(Closed):
        services.contest_enter(
            contest_id=draft.pk, entry_id=entry_make(ada, "D").pk, entrant=ada, people=["A"], rights_statement=True
        )
    with pytest.raises(NotAllowed):
        services.contest_enter(contest_id=10**6, entry_id=1, entrant=ada, people=["A"], rights_statement=True)
    contest = contest_make()
    item = entered(contest, ada, "Once")
    with pytest.raises(Conflict):
        services.contest_enter(
            contest_id=contest.pk, entry_id=item.entry_id, entrant=ada, people=["B"], rights_statement=True
        )


def test_people_are_rows_with_a_name_and_perhaps_an_email_and_an_affiliation(cast):
    contest = contest_make()
    ada = entrant_make("ada")
    url = f"/contests/api/{contest.pk}/entries/"
    people = [{"name": "Ada L", "email": "ada@example.org", "affiliation": "UCL"}, "Charles B"]
    made = _api(ada).post(
        url, {"entry": entry_make(ada, "Rows").pk, "people": people, "rights_statement": True}, format="json"
    )
    assert made.status_code == 201, made.content
    assert made.json()["people"] == [
        {"name": "Ada L", "email": "ada@example.org", "affiliation": "UCL"},
        {"name": "Charles B", "email": "", "affiliation": ""},
    ]
    odd = [{"name": "Eve", "phone": "555"}]
    refused = _api(ada).post(
        url, {"entry": entry_make(ada, "Odd").pk, "people": odd, "rights_statement": True}, format="json"
    )
    assert refused.status_code == 400 and "phone" in str(refused.json()["people"])
    with pytest.raises(InvalidInput, match="(?i)ada@example.org"):  # the same person, by e-mail
        services.contest_enter(
            contest_id=contest.pk,
            entry_id=entry_make(ada, "Again").pk,
            entrant=ada,
            people=[{"name": "Augusta Ada King", "email": "ADA@example.org"}],
            rights_statement=True,
        )
    with pytest.raises(InvalidInput, match=r"people\[1\]\.email: x@ is not an e-mail address"):
        services.contest_enter(
            contest_id=contest.pk,
            entry_id=entry_make(ada, "Bad").pk,
            entrant=ada,
            people=["Someone", {"name": "Else", "email": "x@"}],
            rights_statement=True,
        )


def test_entries_that_fit_the_finalist_places_reach_the_final_without_qualifying(cast):
    """No question set and no more compliant entries than finalist places: qualifying could not change who
    reaches the final, so closing makes them finalists E1… by receipt; with a question set they qualify."""
    contest = contest_make(finalists=2)
    ada = entrant_make("ada")
    second = entered(contest, ada, "Second", minutes=5)
    first = entered(contest, ada, "First", minutes=1)
    entered(contest, ada, "Refused", minutes=0, compliant=False)
    assert "closing makes them all finalists" in selectors.contest_close_no_qualifying(contest=contest)
    services.contest_close(contest_id=contest.pk)
    contest.refresh_from_db()
    assert contest.status == Contest.Status.FINALS
    labels = {p.label: p.contest_entry_id for p in contest.participants.filter(kind="entry")}
    assert labels == {"E1": first.pk, "E2": second.pk}
    assert set(contest.entries.filter(finalist=True).values_list("pk", flat=True)) == {first.pk, second.pk}

    from tournaments.loebner.models import QuestionSet

    asked = contest_make("Asked Prize", finalists=2, question_set=QuestionSet.objects.create(name="own"))
    for i in range(2):
        entered(asked, entrant_make(f"b{i}"), f"Asked {i}", minutes=i)
    assert selectors.contest_close_no_qualifying(contest=asked) == ""
    services.contest_close(contest_id=asked.pk)
    assert Contest.objects.get(pk=asked.pk).status == Contest.Status.QUALIFYING
