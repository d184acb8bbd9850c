"""A wager session's control room: committee → trials → interviews → verdicts → report, what is missing at
each step (each named), the next action (publishing the transcripts, asked first), and the sessions page's
"not started yet" list and "New session" link for organisers only."""

import html

import pytest

from arena.control import CURRENT, DONE, TODO
from tournaments.wager import control, services
from tournaments.wager.models import Committee

from .wager_helpers import fooled_by, run_trial, wager_session

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def room_url(session) -> str:
    return f"/admin/wager/session/{session.pk}/control/"


def missing(room) -> list[str]:
    return [item.label for item in room.missing]


def test_a_committee_short_of_members_is_the_first_thing_missing(cast):
    committee = Committee.objects.create(name="Half a committee")
    services.committee_member_appoint(committee=committee, name="Rae", role="for_pass", appointed_by="party")
    session = wager_session(cast, committee=committee, title="Short committee")
    room = control.session_control(session=session)
    assert [s.state for s in room.steps] == [CURRENT, TODO, TODO, TODO, TODO]
    assert missing(room) == [
        "Half a committee: not seated: the member designated by the party predicting no pass (Kapor)",
        "Half a committee: not seated: the third member, a middle ground",
    ]
    assert room.next.is_link and room.next.url == f"/admin/wager/committeemember/add/?committee={committee.pk}"


def test_interviews_wait_for_their_times_then_verdicts_name_the_judges_then_the_report_is_published(cast):
    session = wager_session(cast, trials=3)
    room = control.session_control(session=session)
    assert room.current.key == "interviews" and [s.state for s in room.steps][:2] == [DONE, DONE]
    assert room.next is None and "start at their times by themselves" in room.waiting
    assert len(room.missing) == 13 and room.missing[-1].label == "… and 24 more"  # 36 interviews, 12 shown

    judges = [j.user for j in session.judges.all()]
    for trial in session.trials.all():
        run_trial(trial)
    room = control.session_control(session=session)
    assert room.current.key == "verdicts"
    assert missing(room) == [f"trial {n}: no verdicts from J1 jude, J2 june, J3 judy" for n in (1, 2, 3)]

    for trial in session.trials.all():
        fooled_by(trial, judges, 1)
    room = control.session_control(session=session)
    assert room.current.key == "report" and room.next.name == "publish" and room.next.consequence
    services.session_publish(session_id=session.pk)
    room = control.session_control(session=session)
    assert room.finished and room.next is None


def test_publishing_from_the_room_asks_first_then_runs_the_sessions_list_action(cast, client):
    session = wager_session(cast, trials=3)
    client.force_login(cast.olivia)
    refused = text(client.post(room_url(session), {"action": "publish"}, follow=True))
    assert "Wager 2029: not done: that is not a step it can take now." in refused  # interviews not over

    judges = [j.user for j in session.judges.all()]
    for trial in session.trials.all():
        run_trial(trial)
        fooled_by(trial, judges, 1)
    page = text(client.get(room_url(session)))
    assert "Control room: Wager 2029" in page and 'value="publish"' in page
    asked = text(client.post(room_url(session), {"action": "publish"}))
    assert 'id="irreversible-confirm"' in asked and "This cannot be undone." in asked
    assert f'href="{room_url(session)}" class="button cancel-link">Cancel' in asked
    assert not session.trials.first().interviews.first().interrogation.is_published
    done = text(client.post(room_url(session), {"action": "publish", "post": "yes"}, follow=True))
    assert "Wager 2029: 36 transcript(s) published." in done
    assert "Every step is done." in done


def test_the_sessions_page_lists_the_sessions_not_started_to_organisers_only(cast, client):
    session = wager_session(cast, title="Not yet")
    client.force_login(cast.olivia)
    page = text(client.get("/wager/"))
    assert 'href="/admin/wager/session/add/"' in page and "New session" in page
    assert f'href="{room_url(session)}">Not yet' in page
    client.force_login(cast.jude)  # a judge of it sees the session, not the organisers' list
    page = text(client.get("/wager/"))
    assert "Not yet" in page and "New session" not in page and room_url(session) not in page


def test_a_committee_is_added_in_the_admin_then_its_members_from_the_room(cast, client):
    """The committee's add page (its members shown below, read-only) saves the committee; the members are
    appointed one by one."""
    client.force_login(cast.olivia)
    form = {"name": "Village committee", "members-TOTAL_FORMS": "0", "members-INITIAL_FORMS": "0"}
    response = client.post("/admin/wager/committee/add/", form, follow=True)
    assert response.status_code == 200
    assert "was added successfully" in text(response)
    committee = Committee.objects.get(name="Village committee")
    assert list(committee.members.all()) == []
