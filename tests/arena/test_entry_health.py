"""An entry's own page and API: health (breaker, last errors, latency percentiles over the last day), the
call log (paginated), its published transcripts; owners and organisers only, neutral error texts only."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from arena import roles, services
from arena.models import EngineCall, Entry, EntryHealth
from arena.services.apikeys import apikey_create
from arena.services.breaker import CallResult, engine_call_log
from tests.conftest import FAST, make_user

pytestmark = pytest.mark.django_db

SECRET_DETAIL = "HTTP 500 from 10.1.2.3:8080"
NEUTRAL = "no valid reply (timeout, connection or protocol error)"


@pytest.fixture
def ada(cast):
    return make_user("ada", roles.ENTRANT)


@pytest.fixture
def entry(ada):
    entry = Entry.objects.create(owner=ada, display_name="Ada's bot", engine="simple", settings=dict(FAST))
    for ms in range(1, 101):  # the last day: 1..100 ms
        engine_call_log(entry, CallResult("ok", text="hi", latency_ms=ms), subject=f"call {ms}")
    old = engine_call_log(entry, CallResult("ok", latency_ms=99_999), subject="two days ago")
    EngineCall.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=2))
    engine_call_log(
        entry,
        CallResult("error", latency_ms=5, error=SECRET_DETAIL, public_error=NEUTRAL),
        subject="conversation 9 message 1",
    )
    return entry


def api_for(user):
    import uuid

    return APIClient(HTTP_AUTHORIZATION=f"Token {apikey_create(user=user, name=uuid.uuid4().hex[:8]).key}")


def test_health_gives_latency_percentiles_of_the_last_day_and_neutral_errors(entry, ada):
    health = api_for(ada).get(f"/api/v1/entries/{entry.pk}/health/").json()
    assert health["latency_ms"] == {"n": 100, "p50": 50, "p95": 95, "p99": 99}
    assert health["calls"] == {"ok": 100, "error": 1, "timeout": 0, "skipped": 0}
    assert health["breaker"] == "closed" and health["window_s"] == 86400
    assert [e["error"] for e in health["recent_errors"]] == [NEUTRAL]
    assert SECRET_DETAIL not in str(health)


def test_the_breaker_state_is_shown_open_then_half_open(entry, ada, settings):
    EntryHealth.objects.create(
        entry=entry,
        consecutive_failures=5,
        unhealthy_since=timezone.now(),
        last_error=f"error: {NEUTRAL}",
        last_error_at=timezone.now(),
    )
    api = api_for(ada)
    assert api.get(f"/api/v1/entries/{entry.pk}/health/").json()["breaker"] == "open"
    EntryHealth.objects.filter(entry=entry).update(
        unhealthy_since=timezone.now() - timedelta(seconds=settings.ARENA_BOT_BREAKER_COOLDOWN_S + 1)
    )
    report = api.get(f"/api/v1/entries/{entry.pk}/health/").json()
    assert report["breaker"] == "half_open" and report["healthy"] is False and report["consecutive_failures"] == 5
    page = _client(ada).get(f"/entrant/entries/{entry.pk}/").content.decode()
    assert '<strong id="breaker">half_open</strong>' in page and NEUTRAL in page


def test_the_call_log_is_paginated_newest_first(entry, ada):
    api = api_for(ada)
    first = api.get(f"/api/v1/entries/{entry.pk}/calls/").json()
    assert first["count"] == 102 and len(first["results"]) == 50 and first["next"].endswith("page=2")
    assert first["results"][0]["outcome"] == "error" and first["results"][0]["error"] == NEUTRAL
    assert api.get(f"/api/v1/entries/{entry.pk}/calls/", {"page": 3}).json()["results"][-1]["subject"] == "two days ago"
    for bad in ("0", "x", "nan", "99"):
        answer = api.get(f"/api/v1/entries/{entry.pk}/calls/", {"page": bad})
        assert answer.status_code in (400, 404) and set(answer.json()) >= {"error", "code"}, bad


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_entry_page_shows_health_calls_and_published_transcripts_to_owner_and_organisers(cast, entry, ada):
    bob = make_user("bob", roles.ENTRANT)
    game = services.interrogation_create(judge=cast.jude, witnesses=[cast.connie, entry], title="Published game")
    services.interrogation_start(interrogation_id=game.pk)
    services.interrogation_end(interrogation_id=game.pk, reason="judge", by=cast.jude)
    services.interrogation_publish(interrogation_id=game.pk)
    unpublished = services.interrogation_create(judge=cast.jude, witnesses=[entry], title="Unpublished game")

    page = _client(ada).get(f"/entrant/entries/{entry.pk}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert '<span id="p50">50</span>' in text and '<span id="p99">99</span>' in text
    assert f"/transcripts/{game.public_id}/" in text and str(unpublished.public_id) not in text
    assert NEUTRAL in text and SECRET_DETAIL not in text
    assert page.context["calls"].paginator.count == 102 and len(page.context["calls"]) == 25
    assert "two days ago" in _client(ada).get(f"/entrant/entries/{entry.pk}/", {"page": 5}).content.decode()
    assert _client(cast.olivia).get(f"/entrant/entries/{entry.pk}/").status_code == 200
    assert _client(bob).get(f"/entrant/entries/{entry.pk}/").status_code == 404
    assert api_for(bob).get(f"/api/v1/entries/{entry.pk}/health/").status_code == 404
    assert api_for(bob).get(f"/api/v1/entries/{entry.pk}/calls/").status_code == 404


def test_the_gateway_stores_the_neutral_text_for_the_owner_beside_the_detail(entry):
    from arena.services.engines import entry_probe

    Entry.objects.filter(pk=entry.pk).update(
        engine="webhook", settings={"url": "http://10.1.2.3:8080/", "timeout_s": 1}
    )
    report = entry_probe(entry_id=entry.pk)
    call = EngineCall.objects.filter(entry=entry, kind="probe").get()
    assert call.public_error == report["error"] and call.public_error
    assert "10.1.2.3" not in call.public_error


@pytest.mark.django_db(transaction=True)
def test_a_success_logs_its_call_and_resets_the_breaker_together_or_not_at_all(ada, monkeypatch):
    """On the one-statement path (PostgreSQL) and the transaction one: a success on a breaker with a
    failure counted is logged and closes the count; if the breaker's update fails, no log row is left."""
    from arena.services import breaker

    entry = Entry.objects.create(owner=ada, display_name="Ada's bot", engine="simple", settings=dict(FAST))
    breaker.engine_call_record(entry, CallResult("ok", text="hi", latency_ms=3), subject="call 1")  # no row yet
    assert EngineCall.objects.filter(entry=entry).count() == 1
    assert EntryHealth.objects.get(entry=entry).consecutive_failures == 0
    breaker.engine_call_record(entry, CallResult("ok", text="hi", latency_ms=4), subject="call 2")  # the clean path
    assert EngineCall.objects.filter(entry=entry).count() == 2
    EntryHealth.objects.filter(entry=entry).update(consecutive_failures=2)

    def broken(*args, **kwargs):
        raise RuntimeError("the breaker's update failed")

    monkeypatch.setattr(breaker, "breaker_record", broken)
    with pytest.raises(RuntimeError):
        breaker.engine_call_record(entry, CallResult("ok", text="hi", latency_ms=5), subject="call 3")
    assert EngineCall.objects.filter(entry=entry).count() == 2  # not logged without its breaker update
    assert EntryHealth.objects.get(entry=entry).consecutive_failures == 2
    monkeypatch.undo()
    breaker.engine_call_record(entry, CallResult("ok", text="hi", latency_ms=6), subject="call 4")
    assert list(EngineCall.objects.filter(entry=entry).order_by("pk").values_list("subject", "latency_ms")) == [
        ("call 1", 3),
        ("call 2", 4),
        ("call 4", 6),
    ]
    assert EntryHealth.objects.get(entry=entry).consecutive_failures == 0
