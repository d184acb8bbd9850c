"""The gateway's whole-prompt call (engine_chat): exact messages out, raw reply, latency and tokens back,
with the breaker, the call log and retries of every other reply."""

import pytest

from arena.models import EngineCall, Entry, EntryHealth
from arena.services.engines import engine_chat
from tests.chat_stub import ChatStub

pytestmark = pytest.mark.django_db
MESSAGES = [{"role": "system", "content": "You judge."}, {"role": "user", "content": "Say ok."}]


@pytest.fixture
def llm(settings):
    settings.ARENA_OUTBOUND_ALLOW = ["127.0.0.1/32"]
    settings.ARENA_BOT_RETRY_BASE_S = 0.0
    settings.ARENA_BOT_RETRIES = 2

    def make(stub, model="m"):
        return Entry.objects.create(
            display_name=f"llm {model}", engine="llm", settings={"base_url": stub.url, "model": model, "timeout_s": 2}
        )

    return make


def test_sends_the_exact_messages_and_returns_raw_latency_and_tokens(llm):
    with ChatStub({"m": ['{"ok": true}']}) as stub:
        reply = engine_chat(entry=llm(stub), messages=MESSAGES, subject="test chat", json_mode=True)
    assert reply.ok and reply.text == '{"ok": true}' and reply.attempts == 1
    assert (reply.tokens_in, reply.tokens_out) == (11, 7) and reply.raw["usage"]["total_tokens"] == 18
    assert reply.latency_ms >= 0
    body = stub.requests[0]["body"]
    assert body["messages"] == MESSAGES and body["response_format"] == {"type": "json_object"}
    call = EngineCall.objects.get()
    assert call.subject == "test chat" and call.outcome == EngineCall.Outcome.OK


def test_transient_failures_are_retried_and_each_call_logged(llm):
    with ChatStub({"m": [(503, "", 0), (503, "", 0), "fine"]}) as stub:
        reply = engine_chat(entry=llm(stub), messages=MESSAGES, subject="s")
    assert reply.ok and reply.text == "fine" and reply.attempts == 3
    assert list(EngineCall.objects.order_by("pk").values_list("attempt", "outcome")) == [
        (0, "error"),
        (1, "error"),
        (2, "ok"),
    ]


def test_a_permanent_failure_is_not_retried(llm):
    with ChatStub({"m": [(404, "", 0)]}) as stub:
        reply = engine_chat(entry=llm(stub), messages=MESSAGES, subject="s")
    assert not reply.ok and "HTTP 404" in reply.error and len(stub.requests) == 1


def test_an_open_breaker_skips_the_call(llm, settings):
    settings.ARENA_BOT_BREAKER_FAILURES = 1
    with ChatStub({"m": [(404, "", 0), "never"]}) as stub:
        entry = llm(stub)
        engine_chat(entry=entry, messages=MESSAGES, subject="s")
        reply = engine_chat(entry=entry, messages=MESSAGES, subject="s")
    assert not reply.ok and reply.error == "circuit breaker open" and len(stub.requests) == 1
    assert EntryHealth.objects.get(entry=entry).unhealthy_since is not None


def test_engines_without_a_whole_prompt_refuse(db):
    entry = Entry.objects.create(display_name="simple", engine="simple", settings={})
    reply = engine_chat(entry=entry, messages=MESSAGES, subject="s")
    assert not reply.ok and "cannot take a whole prompt" in reply.error


def test_bad_messages_are_refused(llm):
    with ChatStub() as stub:
        reply = engine_chat(entry=llm(stub), messages=[{"role": "tool", "content": "x"}], subject="s")
    assert not reply.ok and "bad chat message" in reply.error and not stub.requests


def test_a_healthy_entry_answering_costs_the_breaker_one_statement(llm):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with ChatStub({"m": ["ok"]}) as stub:
        entry = llm(stub)
        engine_chat(entry=entry, messages=MESSAGES, subject="s")  # creates the health row
        with CaptureQueriesContext(connection) as ctx:
            assert engine_chat(entry=entry, messages=MESSAGES, subject="s").ok
    statements = [s for q in ctx.captured_queries for s in q["sql"].split("; ")]  # several may go in one query
    health = [s for s in statements if "entryhealth" in s.lower()]
    assert len(health) == 2 and health[0].startswith("SELECT")  # breaker_allows' read, then the fast path
    assert EntryHealth.objects.get(entry=entry).last_ok_at is not None
    if connection.vendor == "postgresql":  # the breaker's fast path and the log, in one statement: both or neither
        assert health[1].startswith('WITH updated AS (UPDATE "arena_entryhealth"')
        assert 'INSERT INTO "arena_enginecall"' in health[1] and len(ctx.captured_queries) == 2
    else:
        assert health[1].startswith('UPDATE "arena_entryhealth"')


def test_a_success_after_failures_resets_the_breaker_and_is_logged_once(llm):
    with ChatStub({"m": [(404, "", 0), "ok"]}) as stub:
        entry = llm(stub)
        assert not engine_chat(entry=entry, messages=MESSAGES, subject="s").ok
        assert EntryHealth.objects.get(entry=entry).consecutive_failures == 1
        reply = engine_chat(entry=entry, messages=MESSAGES, subject="s")
    assert reply.ok and reply.latency_exact_ms >= reply.latency_ms >= 0
    health = EntryHealth.objects.get(entry=entry)
    assert health.consecutive_failures == 0 and health.last_ok_at is not None
    assert list(EngineCall.objects.filter(entry=entry).order_by("pk").values_list("outcome", flat=True)) == [
        "error",
        "ok",
    ]
