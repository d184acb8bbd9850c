"""The entrants' API at its edges: revoking a key ends its open long polls, a failure of the server (a
database that is down) answers the one JSON error body, and an engine URL whose name does not resolve is
told as one that resolves to an internal address (no DNS probe)."""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import OperationalError
from django.test import Client
from rest_framework.test import APIClient

from arena import roles, services
from arena.models import EngineCall, Entry
from arena.services.apikeys import apikey_create, apikey_revoke
from tests.arena.helpers import sides, three_party
from tests.conftest import FAST, make_user


@pytest.mark.django_db(transaction=True)
def test_revoking_a_key_ends_its_open_long_poll_which_receives_nothing_more(cast, settings):
    settings.ARENA_PULL_POLL_S = 0.05
    ada = make_user("ada", roles.ENTRANT)
    entry = Entry.objects.create(owner=ada, display_name="Ada pull", engine="pull", settings=dict(FAST))
    key = apikey_create(user=ada, name="laptop")
    conversation = sides(three_party(cast, machine=entry))[1]

    def poll():
        api = APIClient(HTTP_AUTHORIZATION=f"Token {key.key}")
        return api.get(f"/api/v1/entries/{entry.pk}/pending/", {"wait": "15"})

    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(poll)
        time.sleep(0.5)  # the poll is waiting (an order of events, not a measured time)
        assert apikey_revoke(user=ada, key_id=key.api_key.pk)
        services.message_post(
            conversation_id=conversation.pk, sender_role="interrogator", text="the secret question", user=cast.jude
        )
        answer = waiting.result(timeout=30)
    assert answer.status_code == 401 and answer["WWW-Authenticate"] == "Token"
    assert answer.json()["code"] == "authentication_failed" and "revoked" in answer.json()["error"]
    assert "the secret question" not in answer.content.decode()


@pytest.mark.django_db
def test_a_database_that_is_down_answers_the_apis_json_error_not_an_html_page(monkeypatch):
    def down(**_):
        raise OperationalError("connection to server failed: Connection refused")

    monkeypatch.setattr("arena.api.auth.apikey_authenticate", down)
    client = Client(raise_request_exception=False, HTTP_AUTHORIZATION="Token arena_whatever")
    answer = client.get("/api/v1/entries/")
    assert answer.status_code == 500 and answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "server_error" and answer.json()["error"]
    assert "<html" not in answer.content.decode()


@pytest.mark.django_db
def test_an_unresolvable_engine_host_is_told_as_an_internal_one(cast, settings):
    settings.ARENA_OUTBOUND_ALLOW = []  # localhost is internal: refused
    ada = make_user("ada", roles.ENTRANT)
    api = APIClient(HTTP_AUTHORIZATION=f"Token {apikey_create(user=ada, name='k').key}")
    told = {}
    for host in ("localhost", "no-such-host.invalid"):
        created = api.post(
            "/api/v1/entries/",
            {
                "display_name": host,
                "engine": "webhook",
                "settings": {"url": f"http://{host}:9/hook", "secret": "s" * 24, "timeout_s": 2},
            },
            format="json",
        )
        assert created.status_code == 201, created.content
        entry_id = created.json()["id"]
        probe = api.post(f"/api/v1/entries/{entry_id}/probe/", {"message": "hi"}, format="json").json()
        calls = api.get(f"/api/v1/entries/{entry_id}/calls/").json()["results"]
        last_error = api.get(f"/api/v1/entries/{entry_id}/").json()["last_error"]
        told[host] = (probe["outcome"], probe["error"], [c["error"] for c in calls], last_error)
    assert told["localhost"] == told["no-such-host.invalid"]
    assert EngineCall.objects.count() == 2  # one call each: neither was retried
