"""/metrics as an operator's Prometheus reads it: only with the token, in the text format, and with the
figures moving as the platform works (requests, consoles' websockets, deliveries, engine calls, live
interrogations, the lobby, queue depths, open breakers; trades: tests/markets/test_trade_metrics.py)."""

import pytest
from asgiref.sync import sync_to_async
from prometheus_client.parser import text_string_to_metric_families

from tests.arena.helpers import sides, three_party
from tests.arena.wsclient import connect

TOKEN = "s3cret-scrape-token"


def scrape(client) -> dict[tuple[str, tuple], float]:
    response = client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def metrics_on(settings):
    settings.ARENA_METRICS_TOKEN = TOKEN


@pytest.mark.django_db
def test_metrics_are_off_without_a_token_and_refused_without_the_right_one(client, settings):
    settings.ARENA_METRICS_TOKEN = ""
    assert client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"}).status_code == 404
    settings.ARENA_METRICS_TOKEN = TOKEN
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"authorization": "Bearer wrong"}).status_code == 401
    assert client.get("/metrics", headers={"authorization": TOKEN}).status_code == 401  # not a bearer token
    assert client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"}).status_code == 200


@pytest.mark.django_db
def test_requests_are_counted_by_method_and_status(client, metrics_on):
    before = scrape(client)
    client.get("/results/")
    client.get("/no-such-page/")
    after = scrape(client)
    ok = value(after, "arena_http_requests_total", method="GET", status="2xx")
    assert ok - value(before, "arena_http_requests_total", method="GET", status="2xx") >= 2  # the page, a scrape
    missing = value(after, "arena_http_requests_total", method="GET", status="4xx")
    assert missing - value(before, "arena_http_requests_total", method="GET", status="4xx") == 1


@pytest.mark.django_db
def test_live_interrogations_open_breakers_and_the_lobby_are_read_when_scraped(client, cast, metrics_on):
    from django.utils import timezone

    from arena.models import EntryHealth
    from studies import services as studies
    from tests.studies.helpers import ready, study_make

    interrogation = three_party(cast)
    samples = scrape(client)
    assert value(samples, "arena_interrogations_live", kind=interrogation.kind) == 1
    assert value(samples, "arena_breakers_open") == 0
    _, machine = sides(interrogation)
    EntryHealth.objects.update_or_create(entry=machine.witness_entry, defaults={"unhealthy_since": timezone.now()})
    study = study_make(human_witness_share=1.0)
    (player,) = ready(study)
    studies.lobby_join(participant_id=player.pk, timer=False)
    samples = scrape(client)
    assert value(samples, "arena_breakers_open") == 1
    assert value(samples, "arena_play_lobby") == 1


@pytest.mark.django_db
def test_celery_queue_depths_come_from_the_broker(client, settings, metrics_on):
    import redis

    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("tasks run in-process: no broker queues (services mode has them)")
    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "")
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete(prefix + "lambdastar")
    broker.rpush(prefix + "lambdastar", "a", "b", "c")
    try:
        assert value(scrape(client), "arena_celery_queue_depth", queue="lambdastar") == 3
    finally:
        broker.delete(prefix + "lambdastar")


@pytest.mark.django_db(transaction=True)
async def test_a_console_socket_is_counted_open_and_its_deliveries_timed(cast, settings, end_stray_sessions):
    from django.test import AsyncClient

    settings.ARENA_METRICS_TOKEN = TOKEN
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    client = AsyncClient()

    async def samples():
        response = await client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
        return {
            (s.name, tuple(sorted(s.labels.items()))): s.value
            for f in text_string_to_metric_families(response.content.decode())
            for s in f.samples
        }

    interrogation = await sync_to_async(three_party)(cast)
    human, _ = await sync_to_async(sides)(interrogation)
    before = await samples()
    judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    assert ok
    await judge.expect("state")
    during = await samples()
    opened = value(during, "arena_websockets_open", console="JudgeConsumer")
    assert opened - value(before, "arena_websockets_open", console="JudgeConsumer") == 1
    await judge.send({"type": "message", "side": human.side, "text": "Hello?"})
    await judge.expect("message")
    delivered = await samples()
    count = value(delivered, "arena_message_delivery_seconds_count")
    assert count - value(during, "arena_message_delivery_seconds_count") == 1  # the judge's own echo
    await judge.close()
    closed = await samples()
    assert value(closed, "arena_websockets_open", console="JudgeConsumer") == value(
        before, "arena_websockets_open", console="JudgeConsumer"
    )


@pytest.mark.django_db
def test_engine_calls_are_counted_by_engine_and_outcome(client, cast, metrics_on):
    from arena.models import EngineCall
    from arena.services.breaker import CallResult, engine_call_record

    entry = sides(three_party(cast))[1].witness_entry
    before = scrape(client)
    engine_call_record(entry, CallResult(EngineCall.Outcome.OK, "hi", 5), subject="a test call")
    engine_call_record(entry, CallResult(EngineCall.Outcome.ERROR, "", 5, "boom"), subject="a test call")
    after = scrape(client)
    for outcome in ("ok", "error"):
        labels = {"engine": entry.engine, "outcome": outcome}
        assert (
            value(after, "arena_engine_calls_total", **labels) - value(before, "arena_engine_calls_total", **labels)
            == 1
        )
