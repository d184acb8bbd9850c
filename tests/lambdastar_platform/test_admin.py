"""An organiser defines, launches, cancels and clones experiments in the admin."""

import json

import pytest

from lambdastar.models import Experiment

from .conftest import tiny


@pytest.fixture
def organiser(cast, client):
    client.force_login(cast.olivia)
    return cast.olivia


def add(client, configuration, seed=0):
    return client.post(
        "/admin/lambdastar/experiment/add/",
        {
            "name": "admin sweep",
            "seed": seed,
            "configuration": json.dumps(configuration),
            "runs-TOTAL_FORMS": 0,
            "runs-INITIAL_FORMS": 0,
        },
    )


def test_a_bad_configuration_is_shown_with_its_option(client, organiser):
    response = add(client, tiny(sweep={"agents": [1, 99]}))
    assert response.status_code == 200
    assert "agents: more agents than cells" in response.content.decode()
    assert not Experiment.objects.exists()


def test_define_launch_cancel_and_clone(client, organiser, settings):
    assert add(client, tiny()).status_code == 302
    experiment = Experiment.objects.get()
    assert experiment.owner == organiser and experiment.status == "draft"
    changelist = "/admin/lambdastar/experiment/"
    client.post(changelist, {"action": "launch", "_selected_action": [experiment.pk]})
    experiment.refresh_from_db()
    assert experiment.status == "queued" and experiment.runs.count() == 2
    page = client.get(f"{changelist}{experiment.pk}/change/").content.decode()
    assert 'name="configuration"' not in page  # launched: read-only
    client.post(changelist, {"action": "cancel", "_selected_action": [experiment.pk]})
    client.post(changelist, {"action": "clone", "_selected_action": [experiment.pk]})
    experiment.refresh_from_db()
    clone = Experiment.objects.exclude(pk=experiment.pk).get()
    assert experiment.status == "cancelled" and clone.status == "draft" and clone.cloned_from == experiment


def test_the_quota_refusal_is_shown(client, organiser, settings):
    settings.LAMBDASTAR_QUOTA_EPISODES = 10
    add(client, tiny())
    experiment = Experiment.objects.get()
    response = client.post(
        "/admin/lambdastar/experiment/", {"action": "launch", "_selected_action": [experiment.pk]}, follow=True
    )
    assert "passes the quota of 10" in response.content.decode()
    experiment.refresh_from_db()
    assert experiment.status == "draft"
