"""Anonymous players of a public study are participants, not the organisers' people: no user dropdown,
autocomplete or list of users in the admin offers their stand-in accounts."""

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.conftest import make_user

from .helpers import player_client, study_make

pytestmark = pytest.mark.django_db


def test_no_admin_page_offers_an_anonymous_player_among_its_people(client):
    study = study_make()
    _, participant = player_client(study)
    stand_in = participant.player.username
    assert stand_in.startswith("player-")
    client.force_login(make_user("root", staff=True))
    pages = [reverse("admin:auth_user_changelist"), reverse("admin:auth_user_changelist") + "?q=player"]
    for model in admin.site._registry:
        meta = model._meta
        pages.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
    checked = 0
    for page in pages:
        response = client.get(page)
        if response.status_code != 200:
            continue
        checked += 1
        assert stand_in not in response.content.decode(), page
    assert checked > 20
    # the autocomplete every user picker asks (e.g. a study's owner)
    answer = client.get(
        "/admin/autocomplete/",
        {"app_label": "studies", "model_name": "study", "field_name": "owner", "term": "player"},
    )
    assert answer.status_code in (200, 403) and stand_in not in answer.content.decode()
    assert "root" in client.get(reverse("admin:auth_user_changelist")).content.decode()
