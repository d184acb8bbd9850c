"""A contest's control room: its steps, where it stands, what is missing for the next step (each named) and
the one next action (``tournaments.loebner.control``); the page in the admin, for organisers only, whose
buttons run the same list actions as the contest list (refusals shown, irreversible steps asked first);
the entries' compliance decided there; the undos the rules allow; and the public pages' drafts."""

import html

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from arena import roles
from arena.control import CURRENT, DONE, SKIPPED, TODO
from core.errors import Closed
from tests.conftest import make_user
from tests.tournaments.loebner.helpers import contest_make, entered, entrant_make, finals_make, rounds_play
from tournaments.loebner import control, selectors, services
from tournaments.loebner.models import Contest, ContestEntry, QualifyingSubject, Question, QuestionSet

pytest.importorskip("tournaments.loebner.rules.scoring")
pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def room_url(contest) -> str:
    return f"/admin/loebner/contest/{contest.pk}/control/"


def states(room) -> dict[str, str]:
    return {step.key: step.state for step in room.steps}


def missing(room) -> list[str]:
    return [item.label for item in room.missing]


def question_set_make() -> QuestionSet:
    question_set = QuestionSet.objects.create(name=f"two questions {QuestionSet.objects.count() + 1}")
    Question.objects.create(question_set=question_set, order=1, text="Q one?", category="memory")
    Question.objects.create(question_set=question_set, order=2, text="Q two?", category="things")
    return question_set


def qualifying_make(*, scored: bool, finalists: int = 2, names=("Qualifier 0", "Qualifier 1")) -> Contest:
    """Entries closed, every qualified entry asked the questions (the simple bot), scored 1 each or not."""
    contest = contest_make("Qualifying Prize", question_set=question_set_make(), finalists=finalists)
    for i, name in enumerate(names):
        entered(contest, entrant_make(f"q{i}"), name, minutes=i)
    services.contest_close(contest_id=contest.pk)
    for item in contest.entries.all():
        subject = QualifyingSubject.objects.create(contest=contest, contest_entry=item)
        services.qualifying_ask(subject_id=subject.pk)
        if scored:
            for answer in subject.answers.all():
                services.answer_score(answer_id=answer.pk, score=1, by=None)
    contest.refresh_from_db()
    return contest


# --- the selector: each step's missing list and next action --------------------------------------


def test_a_draft_stands_first_and_its_next_action_opens_it_for_entries():
    contest = contest_make(status="draft")
    room = control.contest_control(contest=contest)
    assert states(room) == {key: CURRENT if key == "draft" else TODO for key, _ in control.STEPS}
    assert room.next.name == "open_for_entries" and not room.next.is_link
    assert missing(room) == [] and room.undo == []
    assert room.notes == [
        "No question set is chosen yet: qualifying will need one.",
        "No closing date for entries is set: entries are received until you close them.",
    ]
    room = control.contest_control(contest=contest_make("Ready", status="draft", question_set=question_set_make()))
    assert room.notes == ["No closing date for entries is set: entries are received until you close them."]


def test_open_entries_name_each_entry_without_a_compliance_decision_and_offer_closing():
    contest = contest_make()
    ada = entrant_make("ada")
    entered(contest, ada, "Checked", minutes=0)
    entered(contest, ada, "Unchecked", minutes=1, compliant=None)
    entered(contest, ada, "No rights", minutes=2, compliant=None, rights_statement=False)
    room = control.contest_control(contest=contest)
    assert room.current.key == "open" and states(room)["draft"] == DONE
    assert missing(room) == ["Unchecked: no compliance decision", "No rights: no compliance decision"]
    assert room.next.name == "close_entries"
    assert room.notes == ["Entries without a compliance decision when entries close do not go to qualifying."]
    assert room.undo == []  # entries were received: it stays open

    rows = {item.label.split(" (")[0]: item for item in room.items}
    assert rows["Checked"].state == "compliant" and [a.name for a in rows["Checked"].actions] == ["mark_refused"]
    assert [a.label for a in rows["Unchecked"].actions] == ["compliant", "not compliant"]
    assert rows["No rights"].note == "No rights cannot be compliant without the rights statement."


def test_open_with_no_entry_warns_of_the_roll_over_and_may_go_back_to_draft():
    contest = contest_make()
    room = control.contest_control(contest=contest)
    assert missing(room) == ["no entry received yet"]
    assert room.notes == [selectors.contest_close_warning(contest=contest)]
    assert [a.name for a in room.undo] == ["back_to_draft"]


def test_a_prize_rolled_over_ends_the_contest_at_entries_closed():
    contest = contest_make()
    services.contest_close(contest_id=contest.pk, confirm_rollover=True)
    contest.refresh_from_db()
    room = control.contest_control(contest=contest)
    assert states(room)["closed"] == CURRENT and states(room)["qualifying"] == SKIPPED
    assert room.next is None and "the prize rolled over" in room.waiting


def test_qualifying_asks_then_names_the_unscored_answers_then_picks_the_finalists():
    contest = contest_make("Asked Prize", question_set=question_set_make())
    for i in range(2):
        entered(contest, entrant_make(f"a{i}"), f"Asked {i}", minutes=i)
    services.contest_close(contest_id=contest.pk)
    contest.refresh_from_db()
    room = control.contest_control(contest=contest)
    assert room.current.key == "qualifying"
    assert missing(room) == ["Asked 0: not asked yet", "Asked 1: not asked yet"]
    assert room.next.name == "ask_qualifying" and [a.name for a in room.undo] == ["reopen_entries"]

    unscored = qualifying_make(scored=False)
    room = control.contest_control(contest=unscored)
    assert missing(room) == [
        "Qualifier 0: 2 of 2 answers not scored",
        "Qualifier 1: 2 of 2 answers not scored",
    ]
    assert room.next.is_link and room.next.url == f"/contests/{unscored.pk}/qualifying/"
    assert room.undo == []  # questions were asked: entries stay closed

    for subject, score in zip(unscored.qualifying_subjects.order_by("pk"), (2, 0)):
        for answer in subject.answers.all():
            services.answer_score(answer_id=answer.pk, score=score, by=None)
    room = control.contest_control(contest=Contest.objects.get(pk=unscored.pk))
    assert missing(room) == [] and room.next.name == "pick_finalists"


def test_a_tie_across_the_finalists_cut_is_named_as_the_undecided_tie_break():
    contest = qualifying_make(scored=True, finalists=1)
    room = control.contest_control(contest=contest)
    assert missing(room) == [
        "undecided tie-break: Qualifier 0 (2), Qualifier 1 (2) tie for the last 1 finalist place(s)"
    ]
    assert room.next.is_link and "qualifying" in room.next.url


def test_finalists_name_the_judges_and_confederates_the_format_still_needs(cast):
    contest = finals_make(cast, schedule=False)
    contest.participants.filter(label__in=["J4", "C3"]).delete()
    room = control.contest_control(contest=contest)
    assert room.current.key == "finalists" and states(room)["closed"] == DONE
    assert states(room)["qualifying"] == SKIPPED  # finals_make: finalists without qualifying
    assert missing(room) == ["format aisb: no judge J4 assigned", "format aisb: no confederate C3 assigned"]
    assert room.next.name == "build_schedule"


def test_the_schedule_then_the_rounds_start_one_by_one_and_name_the_unjudged_meetings(cast):
    contest = finals_make(cast)
    room = control.contest_control(contest=contest)
    first = contest.rounds.get(number=1)
    assert room.current.key == "schedule"
    assert (room.next.name, room.next.model, room.next.target) == ("start", "loebner.Round", first.pk)

    services.round_start(round_id=first.pk)
    room = control.contest_control(contest=contest)
    assert room.current.key == "rounds" and room.next is None
    assert room.waiting == "Round 1 is talking: follow it on the live board."

    services.round_finish(round_id=first.pk)
    room = control.contest_control(contest=contest)
    second = contest.rounds.get(number=2)
    assert room.next.label == "Start round 2" and room.next.target == second.pk
    assert "rounds not finished: rounds 2, 3, 4 (not started)" in missing(room)
    assert "meetings without a verdict: round 1: 4 of 4 (J1 jude, J2 june, J3 judge3, J4 judge4)" in missing(room)


@pytest.mark.slow
def test_ranking_names_the_missing_ranks_then_publishing_is_the_last_step(cast):
    contest = finals_make(cast)
    rounds_play(contest)
    room = control.contest_control(contest=contest)
    assert room.current.key == "ranking" and room.next.name == "publish"
    assert missing(room) == [
        "judges' ranks missing: J1 jude (none given), J2 june (none given), J3 judge3 (none given), "
        "J4 judge4 (none given)"
    ]


# --- undo ----------------------------------------------------------------------------------------


def test_opening_is_undone_only_while_no_entry_is_received():
    contest = contest_make()
    services.contest_unopen(contest_id=contest.pk)
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.DRAFT
    with pytest.raises(Closed, match="not open for entries"):
        services.contest_unopen(contest_id=contest.pk)
    services.contest_open(contest_id=contest.pk)
    entered(contest, entrant_make("ada"), "Early")
    with pytest.raises(Closed, match="1 entry received: the contest stays open"):
        services.contest_unopen(contest_id=contest.pk)


def test_closing_is_undone_only_while_no_qualifying_question_is_asked():
    contest = contest_make(question_set=question_set_make())
    for i in range(2):
        entered(contest, entrant_make(f"r{i}"), f"Reopened {i}", minutes=i)
    services.contest_close(contest_id=contest.pk)
    assert contest.entries.filter(qualified=True).count() == 2
    services.contest_reopen(contest_id=contest.pk)
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.OPEN
    assert not contest.entries.filter(qualified=True).exists()

    services.contest_close(contest_id=contest.pk)
    services.qualifying_start(contest_id=contest.pk)
    with pytest.raises(Closed, match="Qualifying has started"):
        services.contest_reopen(contest_id=contest.pk)
    published = contest_make("Published", status="done")
    with pytest.raises(Closed, match="only entries closed for qualifying can reopen"):
        services.contest_reopen(contest_id=published.pk)


# --- the page in the admin -----------------------------------------------------------------------


def test_the_room_is_the_organisers_and_linked_from_the_contests_list_and_page(cast, client):
    contest = contest_make(status="draft")
    client.force_login(cast.olivia)
    page = text(client.get(room_url(contest)))
    assert "Control room: Test Prize" in page and 'aria-current="step"' in page
    assert 'data-step="draft"' in page and 'data-step="published"' in page
    assert '<input type="hidden" name="action" value="open_for_entries">' in page
    assert f'href="{room_url(contest)}" class="control-room-link"' in text(client.get("/admin/loebner/contest/"))
    change = text(client.get(f"/admin/loebner/contest/{contest.pk}/change/"))
    assert f'href="{room_url(contest)}" class="control-room-link">Control room' in change
    index = text(client.get("/admin/"))
    assert 'id="control-rooms"' in index and f'href="{room_url(contest)}">Test Prize' in index

    stan = make_user("stan")  # staff, but no organiser and no right on contests
    stan.is_staff = True
    stan.save()
    client.force_login(stan)
    assert client.get(room_url(contest)).status_code == 403
    assert client.post(room_url(contest), {"action": "open_for_entries"}).status_code == 403
    assert 'id="control-rooms"' not in text(client.get("/admin/"))
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.DRAFT

    stan.user_permissions.add(Permission.objects.get(content_type__app_label="loebner", codename="view_contest"))
    stan = type(stan).objects.get(pk=stan.pk)
    client.force_login(stan)
    assert client.get(room_url(contest)).status_code == 200  # may look,
    assert client.post(room_url(contest), {"action": "open_for_entries"}).status_code == 403  # not act
    client.force_login(cast.oscar)  # not staff: the admin's login page
    assert client.get(room_url(contest)).status_code == 302


def test_a_staff_member_of_the_organiser_group_runs_contests_without_being_a_superuser(client):
    """The organiser group carries every format's permissions (roles.ORGANISER_APPS): ticking Staff status
    and the group is all a new organiser needs."""
    contest = contest_make(status="draft")
    olga = make_user("olga", roles.ORGANISER)
    olga.is_staff = True
    olga.save()
    client.force_login(olga)
    assert client.get("/admin/loebner/contest/").status_code == 200
    assert (
        client.get("/admin/wager/session/").status_code == 200
        and client.get("/admin/studies/study/").status_code == 200
    )
    assert "Control room: Test Prize" in text(client.get(room_url(contest)))
    client.post(room_url(contest), {"action": "open_for_entries"})
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.OPEN


def test_the_next_action_runs_the_contests_list_action_and_refusals_are_shown(cast, client):
    contest = contest_make(status="draft")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(cast.olivia)
    assert browser.post(room_url(contest), {"action": "open_for_entries"}).status_code == 403  # no CSRF token
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.DRAFT
    client.force_login(cast.olivia)
    done = client.post(room_url(contest), {"action": "open_for_entries"}, follow=True)
    assert done.redirect_chain[-1][0] == room_url(contest)
    assert "Test Prize: open" in text(done)
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.OPEN

    again = text(client.post(room_url(contest), {"action": "open_for_entries"}, follow=True))
    assert "Test Prize: not done: that is not a step it can take now." in again  # no longer offered
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.OPEN


def test_starting_a_round_from_the_room_runs_the_rounds_list_action(cast, client):
    contest = finals_make(cast)
    first, second = contest.rounds.order_by("number")[:2]
    client.force_login(cast.olivia)
    early = text(client.post(room_url(contest), {"action": "start", "target": second.pk}, follow=True))
    assert "Finals aisb: not done: that is not a step it can take now." in early  # round 1 comes first
    done = text(client.post(room_url(contest), {"action": "start", "target": first.pk}, follow=True))
    assert "Finals aisb round 1: started" in done and "Round 1 is talking: follow it on the live board." in done
    assert contest.rounds.get(number=1).status == "running" and contest.rounds.get(number=2).status == "scheduled"


@pytest.mark.slow
def test_publishing_from_the_room_is_refused_naming_what_is_missing_then_asked_first(cast, client):
    contest = finals_make(cast)
    rounds_play(contest)
    client.force_login(cast.olivia)
    refused = text(client.post(room_url(contest), {"action": "publish"}, follow=True))
    assert "Finals aisb: not done: judges' ranks missing: J1 jude (none given)" in refused
    assert 'id="irreversible-confirm"' not in refused
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.FINALS

    for judge in contest.participants.filter(kind="judge"):
        met = selectors.judge_rankable(contest=contest, judge=judge, ranking="mean-rank")[0]
        services.ranks_submit(contest_id=contest.pk, judge=judge.user, ranks={p.label: i for i, p in enumerate(met, 1)})
    asked = text(client.post(room_url(contest), {"action": "publish"}))
    assert 'id="irreversible-confirm"' in asked and "This cannot be undone." in asked
    assert f'href="{room_url(contest)}" class="button cancel-link">Cancel' in asked
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.FINALS
    confirmed = client.post(
        room_url(contest), {"action": "publish", "_selected_action": contest.pk, "post": "yes"}, follow=True
    )
    assert "Finals aisb: published, with" in text(confirmed)
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.DONE
    assert "Every step is done." in text(client.get(room_url(contest)))


def test_compliance_is_decided_in_the_room_and_closing_with_none_compliant_asks_naming_the_roll_over(cast, client):
    next_year = contest_make("2010 Prize", status="draft")
    contest = contest_make("2009 Prize", rolls_into=next_year)
    ada = entrant_make("ada")
    good = entered(contest, ada, "Good", compliant=None)
    no_rights = entered(contest, ada, "No rights", minutes=1, compliant=None, rights_statement=False)
    client.force_login(cast.olivia)
    page = text(client.get(room_url(contest)))
    assert "Good: no compliance decision" in page and "No rights: no compliance decision" in page
    assert f'name="target" value="{good.pk}"' in page

    refused = text(client.post(room_url(contest), {"action": "mark_compliant", "target": no_rights.pk}, follow=True))
    assert "No rights cannot be compliant without the rights statement." in refused
    client.post(room_url(contest), {"action": "mark_refused", "target": no_rights.pk})
    assert ContestEntry.objects.get(pk=no_rights.pk).compliance == ContestEntry.Check.REFUSED

    asked = text(client.post(room_url(contest), {"action": "close_entries"}))
    assert 'id="irreversible-confirm"' in asked
    assert "No entry is marked compliant: closing now rolls the prize over into 2010 Prize" in asked
    assert f'name="confirmed" value="rollover:{contest.pk}"' in asked
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.OPEN

    client.post(room_url(contest), {"action": "mark_compliant", "target": good.pk})
    assert ContestEntry.objects.get(pk=good.pk).compliant
    asked = text(client.post(room_url(contest), {"action": "close_entries"}))
    assert "No entry is marked compliant" not in asked and "This cannot be undone." in asked
    closed = text(
        client.post(
            room_url(contest), {"action": "close_entries", "_selected_action": contest.pk, "post": "yes"}, follow=True
        )
    )
    assert "2009 Prize: entries closed: a single compliant entry" in closed
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.SINGLE


def test_the_undos_run_from_the_room_and_are_refused_once_unsafe(cast, client):
    contest = contest_make(question_set=question_set_make())
    client.force_login(cast.olivia)
    client.post(room_url(contest), {"action": "back_to_draft"})
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.DRAFT
    services.contest_open(contest_id=contest.pk)
    for i in range(2):
        entered(contest, entrant_make(f"u{i}"), f"Undo {i}", minutes=i)
    refused = text(client.post(room_url(contest), {"action": "back_to_draft"}, follow=True))
    assert "Test Prize: not done: that is not a step it can take now." in refused

    services.contest_close(contest_id=contest.pk)
    done = text(client.post(room_url(contest), {"action": "reopen_entries"}, follow=True))
    assert "Test Prize: entries open again" in done
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.OPEN


# --- the public pages ----------------------------------------------------------------------------


def test_organisers_see_their_drafts_and_a_new_contest_link_others_do_not(cast, client):
    draft = contest_make("Secret Draft", status="draft")
    listed = contest_make("Open Prize")
    client.force_login(cast.olivia)
    page = text(client.get("/contests/"))
    assert 'href="/admin/loebner/contest/add/"' in page and "New contest" in page
    assert f'href="{room_url(draft)}">Secret Draft' in page
    assert f'href="{room_url(listed)}">control room' in page
    for who in (cast.oscar, None):
        if who:
            client.force_login(who)
        else:
            client.logout()
        page = text(client.get("/contests/"))
        assert "Open Prize" in page and "Secret Draft" not in page and "New contest" not in page
        assert "/control/" not in page


def test_a_drafts_results_page_tells_its_organiser_nothing_is_published_and_is_404_to_others(cast, client):
    draft = contest_make("Secret Draft", status="draft")
    client.force_login(cast.olivia)
    page = text(client.get(f"/contests/{draft.pk}/results/"))
    assert "nothing about it is published yet" in page and f'href="{room_url(draft)}"' in page
    client.force_login(cast.oscar)
    assert client.get(f"/contests/{draft.pk}/results/").status_code == 404
    client.logout()
    assert client.get(f"/contests/{draft.pk}/results/").status_code == 404


def test_closing_says_first_that_the_entries_go_straight_to_the_final(cast, client):
    contest = contest_make("Small Prize", finalists=2)
    for i in range(2):
        entered(contest, entrant_make(f"s{i}"), f"Small {i}", minutes=i)
    client.force_login(cast.olivia)
    assert "closing makes them all finalists" in text(client.get(room_url(contest)))
    asked = text(client.post(room_url(contest), {"action": "close_entries"}))
    assert 'id="irreversible-confirm"' in asked and "without qualifying" in asked
    closed = text(
        client.post(
            room_url(contest), {"action": "close_entries", "_selected_action": contest.pk, "post": "yes"}, follow=True
        )
    )
    assert "Small Prize: entries closed: finals" in closed
    room = control.contest_control(contest=Contest.objects.get(pk=contest.pk))
    assert room.next.label == "Build the schedule"
    assert states(room)["closed"] == DONE and states(room)["qualifying"] == SKIPPED  # it went straight on
