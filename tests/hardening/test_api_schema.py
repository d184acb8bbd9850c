"""The entrants' REST API against its own OpenAPI schema (/api/schema/, drf-spectacular), fuzzed by
schemathesis in-process (the Django WSGI app, no server), authenticated as an entrant with a DRF token.

Every operation, with generated parameters and bodies: no 5xx, and every answer conforms to the schema
(status code documented, body of the documented shape, content type). The entry id in a path is the
entrant's own pull entry (a judge message awaits its answer), another entrant's entry, or none.
"""

import os

import pytest
import schemathesis

# imported (and, schemathesis being a pytest plugin, assertion-rewritten) here at collection, in the main
# thread: compiled later beside an in-process task's thread, Python 3.11's compile() can fail with
# "AST constructor recursion depth mismatch"
import schemathesis.specs.openapi.schemas
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.conftest import make_user

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def entrant_world(transactional_db, cast, settings, end_stray_sessions):
    """Committed (the long poll is an async view: its database calls run on threads of their own)."""
    from rest_framework.authtoken.models import Token

    from arena import roles, services
    from arena.models import Entry, Message

    settings.ARENA_PULL_MAX_WAIT_S = 0.05  # a generated ?wait= never holds a test for long
    settings.ARENA_REHEARSAL_PAUSE_S = 60  # a generated rehearsal's scripted judge asks nothing during the test
    ada, bob = make_user("ada", roles.ENTRANT), make_user("bob", roles.ENTRANT)
    own = Entry.objects.create(owner=ada, display_name="Ada's program", engine="pull", settings={})
    other = Entry.objects.create(owner=bob, display_name="Bob's program", engine="pull", settings={})
    interrogation = services.interrogation_create(judge=cast.jude, witnesses=[own], title="api")
    services.interrogation_start(interrogation_id=interrogation.pk)
    conversation = interrogation.conversations.get()
    services.message_post(
        conversation_id=conversation.pk, sender_role=Message.Role.INTERROGATOR, text="Hi?", user=cast.jude
    )
    idle = Entry.objects.create(owner=ada, display_name="Ada's idle program", engine="pull", settings={})
    return {"token": Token.objects.create(user=ada).key, "entry_ids": [own.pk, other.pk, 10**9], "idle": idle.pk}


@pytest.fixture
def api_schema(entrant_world):
    """The schema, loaded from the WSGI app in this thread; requests keep the test's database connection
    open (as Django's test client does), so they see the test's data."""
    from django.core.signals import request_finished, request_started
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


# every operation of the schema (test_the_schema_is_served_and_names_every_operation keeps this whole)
OPERATIONS = [
    ("GET", "/api/v1/"),
    ("GET", "/api/v1/entries/"),
    ("POST", "/api/v1/entries/"),
    ("GET", "/api/v1/entries/{entry_id}/"),
    ("POST", "/api/v1/entries/{entry_id}/probe/"),
    ("GET", "/api/v1/entries/{entry_id}/pending/"),
    ("POST", "/api/v1/entries/{entry_id}/replies/"),
    ("POST", "/api/v1/entries/{entry_id}/typing/"),
    ("GET", "/api/v1/entries/{entry_id}/health/"),
    ("GET", "/api/v1/entries/{entry_id}/calls/"),
    ("POST", "/api/v1/entries/{entry_id}/rehearse/"),
    ("GET", "/api/v1/entries/{entry_id}/rehearsals/{rehearsal_id}/"),
    ("GET", "/api/v1/learner/consent/"),
    ("PUT", "/api/v1/learner/consent/"),
    ("DELETE", "/api/v1/learner/consent/"),
]


# schemathesis drives hypothesis here through its strategies (its pytest plugin's lazy loader does not
# run on pytest 9): valid requests, and invalid ones (wrong types, missing fields, values out of range)
@pytest.mark.slow
@pytest.mark.parametrize(("method", "path"), OPERATIONS)
@settings(
    max_examples=int(os.environ.get("API_FUZZ_EXAMPLES", 30)),
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)  # the fixtures are meant to last all examples; load varies
@given(data=st.data())
def test_the_api_answers_every_request_as_its_schema_says(api_schema, entrant_world, method, path, data):
    operation = api_schema[path][method]
    mode = data.draw(st.sampled_from([GenerationMode.POSITIVE, GenerationMode.NEGATIVE]), label="mode")
    entry = (
        {"entry_id": data.draw(st.sampled_from(entrant_world["entry_ids"]), label="entry")}
        if "{entry_id}" in path
        else None
    )
    case = data.draw(operation.as_strategy(mode, path_parameters=entry), label="case")
    token = data.draw(st.sampled_from([entrant_world["token"]] * 8 + [None, "arena_revoked-or-made-up"]), label="token")
    case.call_and_validate(headers={"Authorization": f"Token {token}"} if token else {}, checks=CHECKS)


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
@settings(max_examples=3, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_throttled_answers_match_the_schema(api_schema, entrant_world, method, path, data):
    """One request per token and window: the rest answer 429 with Retry-After, as documented."""
    from django.test import override_settings

    operation = api_schema[path][method]
    entry = {"entry_id": entrant_world["entry_ids"][0]} if "{entry_id}" in path else None
    case = data.draw(operation.as_strategy(GenerationMode.POSITIVE, path_parameters=entry), label="case")
    with override_settings(ARENA_API_RATE_PER_TOKEN=1):
        answer = case.call_and_validate(headers={"Authorization": f"Token {entrant_world['token']}"}, checks=CHECKS)
    SEEN[(method, path)] = SEEN.get((method, path), 0) + 1
    if SEEN[(method, path)] > 1:  # the token's one request of the window is spent (the cache lives all examples)
        headers = {name.lower(): value for name, value in answer.headers.items()}
        assert answer.status_code == 429 and "retry-after" in headers


SEEN = {}


@pytest.mark.parametrize("url", ["/api/schema/", "/api/v1/schema/"])
def test_the_schema_is_served_and_names_every_operation(client, db, url):
    schema_text = client.get(url, HTTP_ACCEPT="application/json").json()
    assert schema_text["openapi"].startswith("3.")
    served = {(method.upper(), path) for path, item in schema_text["paths"].items() for method in item}
    assert served == set(OPERATIONS)
    assert "tokenAuth" in schema_text["components"]["securitySchemes"]
    refusal = {"$ref": "#/components/schemas/Refusal"}
    for path, item in schema_text["paths"].items():
        for method, operation in item.items():
            answers = operation["responses"]
            # documented: throttling (with Retry-After), and every 4xx in the one error body
            assert "Retry-After" in answers["429"]["headers"], (method, path)
            assert all(
                answer["content"]["application/json"]["schema"] == refusal
                for code, answer in answers.items()
                if code.startswith("4")
            ), (method, path)
            if path != "/api/v1/":
                assert "WWW-Authenticate" in answers["401"]["headers"], (method, path)


@pytest.mark.parametrize("body", [[], ["message"], "hello", 42])
def test_a_probe_body_that_is_not_an_object_is_refused(entrant_world, body):
    """A JSON array, string or number as the probe's body: 400, not a server error."""
    from rest_framework.test import APIClient

    client = APIClient(HTTP_AUTHORIZATION=f"Token {entrant_world['token']}")
    entry_id = entrant_world["entry_ids"][0]
    assert client.post(f"/api/v1/entries/{entry_id}/probe/", body, format="json").status_code == 400


def test_a_long_poll_of_nan_seconds_is_refused_at_once(entrant_world):
    """``?wait=nan`` passed every bound (NaN compares false): with nothing pending, the request was held
    forever. ``inf`` is no number of seconds either.)"""
    import signal

    from rest_framework.test import APIClient

    def too_long(*_):
        raise TimeoutError("GET pending?wait=nan did not answer within 5 s")

    client = APIClient(HTTP_AUTHORIZATION=f"Token {entrant_world['token']}")
    previous = signal.signal(signal.SIGALRM, too_long)
    signal.setitimer(signal.ITIMER_REAL, 5)
    try:
        answers = [
            client.get(f"/api/v1/entries/{entrant_world['idle']}/pending/", {"wait": wait})
            for wait in ("nan", "NaN", "-nan")
        ]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert [a.status_code for a in answers] == [400, 400, 400]
    assert client.get(f"/api/v1/entries/{entrant_world['idle']}/pending/", {"wait": "inf"}).status_code == 400


HOSTILE_ENTRIES = [
    {"display_name": "Surrogate \ud800", "engine": "pull"},
    {"display_name": "Zero\u200bwidth", "engine": "pull", "settings": {"note": "\ud800"}},
    {"display_name": "Nul in settings", "engine": "pull", "settings": {"note": "a\u0000b"}},
    {"display_name": "Nul key", "engine": "pull", "settings": {"\u0000": 1}},
    {"display_name": "Deep", "engine": "pull", "settings": {"a": [[[[[[[[[[[]]]]]]]]]]]}},
    {"display_name": "Huge number", "engine": "pull", "settings": {"n": 10**400}},
]


@pytest.mark.parametrize(
    "body", HOSTILE_ENTRIES, ids=[b["display_name"].encode("ascii", "replace").decode() for b in HOSTILE_ENTRIES]
)
def test_hostile_entry_registrations_are_stored_sound_or_refused(entrant_world, body):
    """Text no database can store (a lone surrogate, NUL in JSON) is refused with 400, never a 500."""
    import json

    from rest_framework.test import APIClient

    client = APIClient(HTTP_AUTHORIZATION=f"Token {entrant_world['token']}")
    answer = client.post("/api/v1/entries/", json.dumps(body, ensure_ascii=True), content_type="application/json")
    assert answer.status_code in (201, 400), answer.content[:300]
    if answer.status_code == 201:
        assert client.get(f"/api/v1/entries/{answer.json()['id']}/").json()["display_name"] == body["display_name"]
