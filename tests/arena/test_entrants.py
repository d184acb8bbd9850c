"""The entrant's sign-up, API keys (hashed, shown once, revocable), the API's authentication (401 with
WWW-Authenticate), its one error body, and its throttles (per token, per address, 429 with Retry-After)."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from arena import roles
from arena.models import ApiKey, EntrantApplication, Entry
from arena.services.apikeys import apikey_create, key_digest
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def signup(client, username="newbie", password="a-long-passphrase", about=""):
    return client.post(
        "/entrant/signup/", {"username": username, "password1": password, "password2": password, "about": about}
    )


def register_entry(client, name="My bot", engine="simple", settings="{}"):
    return client.post("/entrant/", {"display_name": name, "engine": engine, "settings": settings})


def test_signing_up_makes_an_entrant_who_registers_an_entry_at_once(cast, settings):
    settings.ARENA_ENTRANT_APPROVAL = False
    client = Client()
    answer = signup(client, about="A <b>chatty</b> program")
    assert answer.status_code == 302 and answer["Location"] == "/entrant/"
    user = EntrantApplication.objects.get(user__username="newbie").user
    assert roles.has_role(user, roles.ENTRANT)
    page = client.get("/entrant/")
    assert b'id="entry-form"' in page.content and b'id="pending"' not in page.content
    made = register_entry(client, settings='{"think_s": 0}')
    entry = Entry.objects.get(display_name="My bot")
    assert made["Location"] == f"/entrant/entries/{entry.pk}/" and entry.owner == user
    assert entry.settings["think_s"] == 0


def test_with_approval_on_a_pending_entrant_cannot_register_until_an_organiser_approves(cast, settings):
    settings.ARENA_ENTRANT_APPROVAL = True
    client = Client()
    signup(client)
    user = EntrantApplication.objects.get().user
    page = client.get("/entrant/")
    assert b'id="pending"' in page.content and b'id="entry-form"' not in page.content
    register_entry(client)
    assert not Entry.objects.filter(display_name="My bot").exists()
    key = apikey_create(user=user, name="k").key  # keys may be made while pending; the API still refuses
    api = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    refused = api.post("/api/v1/entries/", {"display_name": "Via API", "engine": "simple"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"

    organiser = Client()
    organiser.force_login(cast.olivia)
    application = EntrantApplication.objects.get()
    organiser.post("/admin/arena/entrantapplication/", {"action": "approve", "_selected_action": [application.pk]})
    application.refresh_from_db()
    assert application.approved_by == cast.olivia and roles.has_role(user, roles.ENTRANT)
    assert (
        api.post("/api/v1/entries/", {"display_name": "Via API", "engine": "simple"}, format="json").status_code == 201
    )


def test_signup_refuses_a_taken_name_and_mismatched_passwords(cast):
    client = Client()
    assert b"not available" in signup(client, username="jude").content
    answer = client.post(
        "/entrant/signup/", {"username": "x1", "password1": "a-long-passphrase", "password2": "another-passphrase"}
    )
    assert answer.status_code == 200 and not EntrantApplication.objects.exists()


def test_an_api_key_is_shown_once_stored_hashed_and_revocable(cast):
    ada = make_user("ada", roles.ENTRANT)
    Entry.objects.create(owner=ada, display_name="Ada's", engine="pull")
    client = Client()
    client.force_login(ada)
    page = client.post("/entrant/keys/", {"name": "laptop <script>"})
    key = page.context["created"].key
    assert key.startswith("arena_") and key.encode() in page.content
    assert b"laptop &lt;script&gt;" in page.content  # names are shown as text
    stored = ApiKey.objects.get(user=ada)
    assert stored.key_hash == key_digest(key) and key not in stored.key_hash and stored.prefix == key[:12]
    assert key.encode() not in client.get("/entrant/keys/").content  # never shown again

    api = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    assert [e["display_name"] for e in api.get("/api/v1/entries/").json()] == ["Ada's"]
    stored.refresh_from_db()
    assert stored.last_used_at is not None

    client.post(f"/entrant/keys/{stored.pk}/revoke/")
    revoked = api.get("/api/v1/entries/")
    assert revoked.status_code == 401 and revoked.json()["code"] == "authentication_failed"
    assert revoked["WWW-Authenticate"] == "Token"


def test_someone_elses_key_cannot_be_revoked_and_names_are_checked(cast):
    ada, bob = make_user("ada", roles.ENTRANT), make_user("bob", roles.ENTRANT)
    key = apikey_create(user=ada, name="main")
    client = Client()
    client.force_login(bob)
    assert client.post(f"/entrant/keys/{key.api_key.pk}/revoke/").status_code == 404
    client.force_login(ada)
    for bad in ("", "x" * 61, "main"):
        answer = client.post("/entrant/keys/", {"name": bad})
        assert answer.context["created"] is None and answer.context["error"]
    assert ApiKey.objects.get(pk=key.api_key.pk).active


def test_a_plain_drf_token_authenticates_beside_api_keys(cast):
    from rest_framework.authtoken.models import Token

    ada = make_user("ada", roles.ENTRANT)
    token = Token.objects.create(user=ada)
    assert APIClient(HTTP_AUTHORIZATION=f"Token {token.key}").get("/api/v1/entries/").status_code == 200


@pytest.mark.parametrize("header", [None, "Token nope", "Token arena_nope", "Bearer something"])
def test_no_or_a_bad_token_answers_401_with_a_challenge_in_the_one_error_body(cast, header):
    client = APIClient(**({"HTTP_AUTHORIZATION": header} if header else {}))
    answer = client.get("/api/v1/entries/")
    assert answer.status_code == 401 and answer["WWW-Authenticate"] == "Token"
    body = answer.json()
    assert set(body) == {"error", "code", "detail"} and body["code"] in ("not_authenticated", "authentication_failed")


def test_invalid_input_names_its_fields(cast):
    ada = make_user("ada", roles.ENTRANT)
    client = APIClient(HTTP_AUTHORIZATION=f"Token {apikey_create(user=ada, name='k').key}")
    answer = client.post("/api/v1/entries/", {"engine": ["simple"]}, format="json")
    body = answer.json()
    assert answer.status_code == 400 and body["code"] == "invalid"
    assert set(body["fields"]) == {"display_name", "engine"} and "display_name" in body["error"]
    assert client.post("/api/v1/entries/", "{not json", content_type="application/json").json()["code"] == "parse_error"


def test_the_api_root_lists_the_endpoints_and_the_docs_are_served_without_a_cdn(client, db):
    root = client.get("/api/v1/").json()
    assert root["schema"].endswith("/api/schema/") and root["docs"].endswith("/api/docs/")
    assert "GET entries/{id}/health/" in root["endpoints"]
    docs = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in docs
    assert "//cdn" not in docs and "unpkg" not in docs and "jsdelivr" not in docs
    from django.contrib.staticfiles import finders

    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")  # served by the platform


# --- throttles --------------------------------------------------------------------------------


def test_a_token_past_its_rate_gets_429_with_retry_after_and_another_token_does_not(cast, settings):
    settings.ARENA_API_RATE_PER_TOKEN = 3
    ada, bob = make_user("ada", roles.ENTRANT), make_user("bob", roles.ENTRANT)
    ada_api = APIClient(HTTP_AUTHORIZATION=f"Token {apikey_create(user=ada, name='k').key}")
    bob_api = APIClient(HTTP_AUTHORIZATION=f"Token {apikey_create(user=bob, name='k').key}")
    assert [ada_api.get("/api/v1/entries/").status_code for _ in range(3)] == [200, 200, 200]
    throttled = ada_api.get("/api/v1/entries/")
    assert throttled.status_code == 429 and throttled.json()["code"] == "throttled"
    assert 1 <= int(throttled["Retry-After"]) <= settings.ARENA_API_RATE_WINDOW_S
    assert bob_api.get("/api/v1/entries/").status_code == 200  # per token: bob's own budget


def test_an_address_past_its_rate_is_throttled_before_its_token_is_checked(cast, settings):
    settings.ARENA_API_RATE_PER_ADDRESS = 4
    guesses = [
        APIClient(HTTP_AUTHORIZATION=f"Token arena_guess{i}").get("/api/v1/entries/").status_code for i in range(6)
    ]
    assert guesses == [401, 401, 401, 401, 429, 429]  # guessing tokens is throttled too
    other_address = APIClient(REMOTE_ADDR="10.9.8.7").get("/api/v1/entries/")
    assert other_address.status_code == 401


@pytest.mark.django_db(transaction=True)
def test_the_long_poll_is_throttled_and_counts_as_one_request(cast, settings):
    settings.ARENA_API_RATE_PER_TOKEN = 2
    settings.ARENA_PULL_MAX_WAIT_S = 0.3
    ada = make_user("ada", roles.ENTRANT)
    entry = Entry.objects.create(owner=ada, display_name="Ada's", engine="pull")
    api = APIClient(HTTP_AUTHORIZATION=f"Token {apikey_create(user=ada, name='k').key}")
    first = api.get(f"/api/v1/entries/{entry.pk}/pending/", {"wait": "0.3"})  # waits, polling many times
    assert first.status_code == 200 and first.json() == {"pending": []}
    assert api.get(f"/api/v1/entries/{entry.pk}/").status_code == 200  # the second request of two
    throttled = api.get(f"/api/v1/entries/{entry.pk}/pending/")
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) >= 1
    assert throttled.json()["code"] == "throttled"


def test_the_demo_entrant_has_a_printed_key_and_a_pull_entry(db):
    from io import StringIO

    from django.core.management import call_command

    from arena.demo import DEMO_API_KEY, DEMO_PULL_ENTRY

    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=out)  # idempotent: one key, one entry
    entry = Entry.objects.get(display_name=DEMO_PULL_ENTRY)
    assert DEMO_API_KEY in out.getvalue() and f"--entry {entry.pk}" in out.getvalue()
    assert ApiKey.objects.filter(user__username="entrant").count() == 1
    listed = APIClient(HTTP_AUTHORIZATION=f"Token {DEMO_API_KEY}").get("/api/v1/entries/").json()
    assert [(e["display_name"], e["engine"]) for e in listed] == [(DEMO_PULL_ENTRY, "pull")]


def test_an_unknown_api_path_answers_the_one_error_body_and_pages_stay_html(client, db):
    answer = client.get("/api/v1/no-such-thing/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    page = client.get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
