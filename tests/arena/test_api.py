"""The entrants' REST API: registration, secrets, probes, pull mode and its isolation, consent."""

import time

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arena import roles, services
from arena.models import EngineCall, Entry, LearnedPair, LearnerConsent

from ..conftest import FAST, make_user
from .helpers import sides, three_party, wait_for


def client_for(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def entrants(cast):
    ada, bob = make_user("ada", roles.ENTRANT), make_user("bob", roles.ENTRANT)
    return ada, bob, client_for(ada), client_for(bob)


def register(client, name, engine="pull", settings=None):
    return client.post(
        "/api/v1/entries/", {"display_name": name, "engine": engine, "settings": settings or {}}, format="json"
    )


def test_anonymous_requests_are_refused(cast):
    assert APIClient().get("/api/v1/entries/").status_code in (401, 403)


def test_entrants_register_entries_validated_by_the_engine(cast, entrants):
    ada, _, api, _ = entrants
    created = register(api, "Ada's ELIZA", "eliza", {"think_s": 0.5})
    assert created.status_code == 201 and created.json()["engine"] == "eliza"
    assert Entry.objects.get(display_name="Ada's ELIZA").owner == ada
    bad = register(api, "Bad", "webhook", {"url": "ftp://x"})
    assert bad.status_code == 400 and "url" in bad.json()["error"]
    assert register(api, "Nope", "no-such-engine").status_code == 400
    assert register(api, "Legacy", "lpp").status_code == 400  # organisers set those up
    assert register(client_for(cast.oscar), "Oscar's", "simple").status_code == 403  # not an entrant


def test_secrets_are_never_sent_back(cast, entrants):
    _, _, api, _ = entrants
    created = register(api, "Hook", "webhook", {"url": "http://127.0.0.1:9/hook", "secret": "s" * 20 + "-top-secret"})
    assert created.status_code == 201
    for answer in (created, api.get(f"/api/v1/entries/{created.json()['id']}/"), api.get("/api/v1/entries/")):
        assert "top-secret" not in answer.content.decode() and "********" in answer.content.decode()


def test_probe_endpoint(cast, entrants):
    _, _, api, other = entrants
    entry_id = register(api, "Ada's Simple", "simple").json()["id"]
    report = api.post(f"/api/v1/entries/{entry_id}/probe/", {"message": "hi"}, format="json").json()
    assert report["outcome"] == "ok" and report["reply"] and report["latency_ms"] >= 0
    assert other.post(f"/api/v1/entries/{entry_id}/probe/").status_code == 404
    assert EngineCall.objects.filter(kind="probe").count() == 1


def test_pull_mode_long_poll_and_isolation_between_entrants(cast, entrants, transactional_db, task_worker):
    ada, bob, api_ada, api_bob = entrants
    entry_a = Entry.objects.get(pk=register(api_ada, "Ada pull", settings=FAST).json()["id"])
    entry_b = Entry.objects.get(pk=register(api_bob, "Bob pull").json()["id"])
    conv_a = sides(three_party(cast, machine=entry_a))[1]
    conv_b = sides(three_party(cast, machine=entry_b, judge=cast.june, confederate=cast.carl))[1]
    services.message_post(conversation_id=conv_a.pk, sender_role="interrogator", text="are you a bot?", user=cast.jude)
    services.message_post(
        conversation_id=conv_b.pk, sender_role="interrogator", text="bob's secret question", user=cast.june
    )

    pending = api_ada.get(f"/api/v1/entries/{entry_a.pk}/pending/?wait=5").json()["pending"]
    assert [(p["conversation"], p["message"], p["history"]) for p in pending] == [
        (str(conv_a.public_id), "are you a bot?", [])
    ]
    assert "bob's secret" not in api_ada.get(f"/api/v1/entries/{entry_a.pk}/pending/").content.decode()
    # Ada cannot read Bob's entry, nor answer in Bob's conversation through her own entry
    assert api_ada.get(f"/api/v1/entries/{entry_b.pk}/pending/").status_code == 404
    assert (
        api_ada.post(
            f"/api/v1/entries/{entry_b.pk}/replies/",
            {"conversation": str(conv_b.public_id), "text": "x"},
            format="json",
        ).status_code
        == 404
    )
    assert (
        api_ada.post(
            f"/api/v1/entries/{entry_a.pk}/replies/",
            {"conversation": str(conv_b.public_id), "text": "x"},
            format="json",
        ).status_code
        == 404
    )
    assert not conv_b.messages.filter(sender_role="witness").exists()
    assert (
        api_ada.post(
            f"/api/v1/entries/{entry_a.pk}/typing/", {"conversation": str(conv_a.public_id)}, format="json"
        ).status_code
        == 204
    )
    assert (
        api_ada.post(
            f"/api/v1/entries/{entry_a.pk}/typing/", {"conversation": str(conv_b.public_id)}, format="json"
        ).status_code
        == 404
    )

    posted = api_ada.post(
        f"/api/v1/entries/{entry_a.pk}/replies/",
        {"conversation": str(conv_a.public_id), "text": "<b>no</b>, are <i>you</i>?"},
        format="json",
    )
    assert posted.status_code == 202  # accepted, held for the entry's typing delay (none here), then shown
    assert posted.json()["reply_to"] == 1 and posted.json()["text"] == "no, are you?"
    assert wait_for(lambda: list(conv_a.messages.filter(sender_role="witness").values_list("seq", "text"))) == [
        (2, "no, are you?")
    ]
    assert EngineCall.objects.get(entry=entry_a).kind == "pull"
    start = time.monotonic()  # answered: nothing pending, and the long poll returns after its wait
    assert api_ada.get(f"/api/v1/entries/{entry_a.pk}/pending/?wait=0.3").json() == {"pending": []}
    assert 0.25 <= time.monotonic() - start < 3
    assert (
        api_ada.post(
            f"/api/v1/entries/{entry_a.pk}/replies/",
            {"conversation": str(conv_a.public_id), "text": "  "},
            format="json",
        ).status_code
        == 400
    )
    # the second message's history carries the first exchange
    services.message_post(conversation_id=conv_a.pk, sender_role="interrogator", text="me? no", user=cast.jude)
    item = api_ada.get(f"/api/v1/entries/{entry_a.pk}/pending/").json()["pending"][0]
    assert item["history"] == [
        {"role": "interrogator", "text": "are you a bot?"},
        {"role": "witness", "text": "no, are you?"},
    ]


def test_pull_entries_get_no_reply_task_answer(cast, entrants):
    _, _, api, _ = entrants
    entry = Entry.objects.get(pk=register(api, "Ada pull").json()["id"])
    conv = sides(three_party(cast, machine=entry))[1]
    services.message_post(conversation_id=conv.pk, sender_role="interrogator", text="hi", user=cast.jude)
    assert services.bot_reply_compose(conversation_id=conv.pk, trigger_seq=1) is False


def test_long_poll_wakes_up_when_a_judge_writes(cast, entrants, transactional_db):
    import threading

    _, _, api, _ = entrants
    entry = Entry.objects.get(pk=register(api, "Ada pull").json()["id"])
    conv = sides(three_party(cast, machine=entry))[1]

    def judge_writes():
        time.sleep(0.4)
        services.message_post(conversation_id=conv.pk, sender_role="interrogator", text="late question", user=cast.jude)

    writer = threading.Thread(target=judge_writes)
    start = time.monotonic()
    writer.start()
    pending = api.get(f"/api/v1/entries/{entry.pk}/pending/?wait=5").json()["pending"]
    writer.join()
    assert [p["message"] for p in pending] == ["late question"] and time.monotonic() - start < 4


def test_learner_consent_and_purge(cast):
    api = client_for(cast.connie)
    assert api.put("/api/v1/learner/consent/").json()["donating"] is True
    assert LearnerConsent.objects.filter(user=cast.connie).exists()
    LearnedPair.objects.create(prompt="q", reply="a", reply_author=cast.connie)
    assert api.delete("/api/v1/learner/consent/").json() == {"donating": False, "purged": 1}
    assert not LearnedPair.objects.exists()
