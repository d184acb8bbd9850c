"""The engines an entrant may choose, pull mode among them, each with what it needs: listed alike by the
web form and by the API's schema, and an engine off the list is refused with the list."""

import json

from arena import roles
from arena.models import Entry
from tests.conftest import make_user


def test_the_entry_form_offers_pull_mode_and_says_what_each_engine_needs(client, db):
    client.force_login(make_user("ada", roles.ENTRANT))
    page = client.get("/entrant/").content.decode()
    assert '<option value="pull">' in page and '<option value="webhook">' in page
    assert '<option value="lpp">' not in page  # organisers set legacy programs up
    assert "What each engine needs" in page and "API key" in page and "secret" in page
    client.post("/entrant/", {"display_name": "Polling", "engine": "pull", "settings": ""})
    assert Entry.objects.get(display_name="Polling").engine == "pull"


def test_the_api_schema_lists_the_engines_with_what_each_needs(client, db):
    schema = json.loads(client.get("/api/v1/schema/?format=json").content)
    components = schema["components"]["schemas"]
    engine = components["EntryInputRequest"]["properties"]["engine"]
    if "$ref" in engine or "allOf" in engine:
        ref = (engine.get("allOf") or [engine])[0]["$ref"].rsplit("/", 1)[-1]
        values = components[ref]["enum"]
    else:
        values = engine["enum"]
    assert {"pull", "webhook", "llm", "simple"} <= set(values) and "lpp" not in values
    assert "`pull`" in json.dumps(engine) or "`pull`" in json.dumps(components)
    assert "API key" in json.dumps(components)


def test_the_api_refuses_an_engine_off_the_list_naming_the_choices(client, db):
    from rest_framework.authtoken.models import Token

    ada = make_user("ada", roles.ENTRANT)
    token = Token.objects.create(user=ada)
    answer = client.post(
        "/api/v1/entries/",
        {"display_name": "x", "engine": "lpp"},
        content_type="application/json",
        headers={"authorization": f"Token {token.key}"},
    )
    assert answer.status_code == 400 and "engine" in answer.json()["fields"]
