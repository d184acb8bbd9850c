"""Organisers run interrogations from the admin."""

import pytest

from arena.models import Interrogation

from .helpers import three_party


@pytest.mark.parametrize("model", ["entry", "interrogation", "conversation", "message", "verdict"])
def test_every_changelist_loads_with_search(cast, client, model):
    three_party(cast)
    client.force_login(cast.olivia)
    assert client.get(f"/admin/arena/{model}/").status_code == 200
    assert client.get(f"/admin/arena/{model}/?q=test").status_code == 200


def test_organiser_creates_a_three_party_interrogation(cast, client):
    client.force_login(cast.olivia)
    response = client.post(
        "/admin/arena/interrogation/add/",
        {
            "title": "Round 1",
            "judge": cast.june.pk,
            "time_limit_s": 300,
            "entries": [cast.eliza.pk],
            "confederates": [cast.carl.pk],
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    created = Interrogation.objects.get(title="Round 1")
    assert created.kind == "three_party"
    assert sorted(c.side for c in created.conversations.all()) == ["left", "right"]
    page = client.get(f"/admin/arena/interrogation/{created.pk}/change/").content.decode()
    assert "ELIZA" in page and "carl" in page


def test_admin_form_refuses_a_bad_witness_list(cast, client):
    client.force_login(cast.olivia)
    response = client.post(
        "/admin/arena/interrogation/add/", {"title": "Bad", "judge": cast.june.pk, "time_limit_s": 300}
    )
    assert response.status_code == 200 and "Choose one witness" in response.content.decode()
    assert not Interrogation.objects.filter(title="Bad").exists()


def test_entry_settings_are_validated_by_the_engine(cast, client):
    client.force_login(cast.olivia)
    response = client.post(
        "/admin/arena/entry/add/",
        {"display_name": "Broken", "engine": "eliza", "settings": '{"think_s": -3}', "active": "on"},
    )
    assert response.status_code == 200 and "think_s" in response.content.decode()


def test_admin_actions_start_end_publish(cast, client):
    interrogation = three_party(cast, start=False)
    client.force_login(cast.olivia)
    changelist = "/admin/arena/interrogation/"
    for action, expected in [("start", "running"), ("end", "ended")]:
        client.post(changelist, {"action": action, "_selected_action": [interrogation.pk]})
        interrogation.refresh_from_db()
        assert interrogation.status == expected
    client.post(changelist, {"action": "publish", "_selected_action": [interrogation.pk]})
    interrogation.refresh_from_db()
    assert interrogation.is_published and not interrogation.published_with_names
    assert client.get(f"/transcripts/{interrogation.public_id}/").status_code == 200
