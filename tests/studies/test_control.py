"""A study's control room: draft → open → running → closed → exported, what is missing or worth knowing at
each step, the next action (the study admin's open and close actions, through ``study_status_set``), and
the one undo (back to draft while no one has taken part)."""

import html

import pytest

from arena.control import CURRENT, DONE, TODO
from core.errors import Closed
from studies import control, services
from studies.models import Study

from .helpers import config, ready, study_make

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def room_url(study) -> str:
    return f"/admin/studies/study/{study.pk}/control/"


def test_a_draft_opens_and_is_told_when_another_study_holds_play():
    draft = services.study_load(config=config(title="Draft study"), slug="draft")
    room = control.study_control(study=draft)
    assert [s.state for s in room.steps] == [CURRENT, TODO, TODO, TODO, TODO]
    assert room.next.name == "open_studies" and room.notes == []
    study_make(title="Running study")
    room = control.study_control(study=draft)
    assert room.notes == ["Running study is open: /play/ serves the newest open study, which this one would become."]


def test_open_waits_for_participants_then_runs_then_closes_to_its_downloads():
    study = study_make()
    room = control.study_control(study=study)
    assert room.current.key == "open" and room.next.name == "close_studies"
    assert [a.name for a in room.undo] == ["back_to_draft"]

    person = ready(study)[0]
    services.game_create(study=study, interrogator=person, condition=study.conditions.first())
    room = control.study_control(study=study)
    assert room.current.key == "running" and room.undo == []
    assert room.notes == ["1 game(s) still running: closing lets no one start another game."]

    services.study_status_set(study_id=study.pk, status=Study.Status.CLOSED)
    room = control.study_control(study=Study.objects.get(pk=study.pk))
    assert [s.state for s in room.steps] == [DONE, DONE, DONE, DONE, CURRENT]
    assert room.next.is_link and room.next.url == f"/studies/{study.pk}/#downloads"


def test_an_open_study_goes_back_to_draft_only_while_no_one_has_taken_part():
    study = study_make()
    services.study_unopen(study_id=study.pk)
    assert Study.objects.get(pk=study.pk).status == Study.Status.DRAFT
    with pytest.raises(Closed, match="not open"):
        services.study_unopen(study_id=study.pk)
    services.study_status_set(study_id=study.pk, status=Study.Status.OPEN)
    ready(study)
    with pytest.raises(Closed, match="People have taken part: close the study instead."):
        services.study_unopen(study_id=study.pk)


def test_the_room_opens_and_closes_through_the_studies_list_actions(cast, client):
    study = services.study_load(config=config(title="Draft study"), slug="draft")
    client.force_login(cast.olivia)
    page = text(client.get(room_url(study)))
    assert "Control room: Draft study" in page and 'value="open_studies"' in page
    done = text(client.post(room_url(study), {"action": "open_studies"}, follow=True))
    assert "Draft study: open (on /play/)" in done
    assert Study.objects.get(pk=study.pk).status == Study.Status.OPEN
    client.post(room_url(study), {"action": "back_to_draft"})
    assert Study.objects.get(pk=study.pk).status == Study.Status.DRAFT

    listed = text(
        client.post("/admin/studies/study/", {"action": "close_studies", "_selected_action": [study.pk]}, follow=True)
    )
    assert "Draft study: closed" in listed and Study.objects.get(pk=study.pk).status == Study.Status.CLOSED
    assert f'href="{room_url(study)}" class="control-room-link"' in listed
