"""The webhook engine against a local stub endpoint (127.0.0.1, random port)."""

import json

import pytest

from bots.base import INTERROGATOR, WITNESS, EngineError, EngineSettingsError, ReplyContext, Turn
from bots.engines import webhook
from bots.engines.webhook import MAX_RESPONSE_BYTES, WebhookEngine, sign, verify
from bots.registry import get_engine

from .test_llm import LOOPBACK, StubServer

SECRET = "whsec-0123456789abcdef"
NOW = 1_700_000_000
CONTEXT = ReplyContext(
    "conv-42", (Turn(INTERROGATOR, "hi"), Turn(WITNESS, "hello")), "are you human?", persona={"name": "Jo"}
)


def engine_for(server, sleeps=None, **settings):
    engine = WebhookEngine({"url": server.url + "/bot", "secret": SECRET, **settings})
    engine.sleep = sleeps.append if sleeps is not None else (lambda seconds: None)
    engine.clock = lambda: NOW
    engine.outbound = LOOPBACK
    return engine


def test_signed_request_and_reply():
    with StubServer([(200, {"reply": "yes, obviously"}, 0)]) as server:
        assert engine_for(server, persona={"name": "Al", "age": "30"}).reply(CONTEXT) == "yes, obviously"
    request = server.requests[0]
    headers, body = request["headers"], request["body"]
    assert request["path"] == "/bot" and headers["content-type"] == "application/json"
    assert headers["x-arena-timestamp"] == str(NOW)
    assert verify(SECRET, headers["x-arena-timestamp"], body, headers["x-arena-signature"], now=NOW + 10)
    assert not verify(
        "another-secret-000000", headers["x-arena-timestamp"], body, headers["x-arena-signature"], now=NOW
    )
    assert not verify(SECRET, headers["x-arena-timestamp"], body + b" ", headers["x-arena-signature"], now=NOW)
    assert not verify(SECRET, headers["x-arena-timestamp"], body, headers["x-arena-signature"], now=NOW + 3600)
    assert json.loads(body) == {
        "conversation": "conv-42",
        "history": [{"role": "interrogator", "text": "hi"}, {"role": "witness", "text": "hello"}],
        "message": "are you human?",
        "persona": {"name": "Jo", "age": "30"},  # the conversation's persona over the entry's
        "timestamp": NOW,
    }
    assert SECRET.encode() not in body


def test_signature_is_the_documented_hmac():
    import hashlib
    import hmac

    body = b'{"message": "hi"}'
    expected = hmac.new(SECRET.encode(), b"1700000000." + body, hashlib.sha256).hexdigest()
    assert sign(SECRET, NOW, body) == "sha256=" + expected


@pytest.mark.parametrize(
    "status, payload, problem",
    [
        (200, b"<html>hello</html>", "not JSON"),
        (200, {"answer": "hi"}, "no string"),
        (200, {"reply": 42}, "no string"),
        (200, ["reply"], "no string"),
        (200, {"reply": "  "}, "empty"),
        (200, {"reply": "x" * MAX_RESPONSE_BYTES}, "larger than"),
        (400, {"reply": "bad request"}, "HTTP 400"),
        (401, {}, "HTTP 401"),
        (302, b"", "HTTP 302"),
    ],
)
def test_bad_responses_are_not_transient_and_not_retried(status, payload, problem):
    with StubServer([(status, payload, 0)]) as server:
        with pytest.raises(EngineError) as info:
            engine_for(server).reply(CONTEXT)
    assert not info.value.transient and problem in str(info.value)
    assert SECRET not in str(info.value)
    assert len(server.requests) == 1


def test_503_is_retried_with_backoff_then_succeeds():
    sleeps = []
    with StubServer([(503, {}, 0), (503, {}, 0), (200, {"reply": "third time lucky"}, 0)]) as server:
        assert engine_for(server, sleeps).reply(CONTEXT) == "third time lucky"
    assert len(server.requests) == 3 and sleeps == [0.2, 0.4]


def test_retries_are_bounded():
    sleeps = []
    with StubServer([(500, {}, 0)]) as server:
        with pytest.raises(EngineError) as info:
            engine_for(server, sleeps).reply(CONTEXT)
    assert info.value.transient and "HTTP 500" in str(info.value)
    assert len(server.requests) == 3 and sleeps == [0.2, 0.4]


def test_timeout_is_transient():
    with StubServer([(200, {"reply": "too late"}, 0.4)]) as server:
        engine = engine_for(server, timeout_s=0.1)
        engine.retry_delays = ()
        with pytest.raises(EngineError) as info:
            engine.reply(CONTEXT)
    assert info.value.transient and "timed out" in str(info.value)


def test_connection_refused_is_transient():
    with StubServer([]) as server:
        engine = engine_for(server)
    with pytest.raises(EngineError) as info:
        engine.reply(CONTEXT)
    assert info.value.transient


def test_settings():
    assert WebhookEngine.secret_keys == ("secret",)
    engine = get_engine("webhook", {"url": "https://bot.example.org/hook", "secret": SECRET})
    assert SECRET not in repr(engine) and engine.settings["timeout_s"] == 10
    for bad, key in [
        ({"secret": SECRET}, "url"),
        ({"url": "https://x/hook"}, "secret"),
        ({"url": "https://x/hook", "secret": "short"}, "secret"),
        ({"url": "file:///etc/passwd", "secret": SECRET}, "url"),
        ({"url": "javascript:alert(1)", "secret": SECRET}, "url"),
        ({"url": "https://user:pw@x/hook", "secret": SECRET}, "url"),
        ({"url": "https://x:99999/hook", "secret": SECRET}, "url"),
        ({"url": "https://x/ hook", "secret": SECRET}, "url"),
        ({"url": "https://x/hook", "secret": SECRET, "timeout_s": -1}, "timeout_s"),
    ]:
        with pytest.raises(EngineSettingsError) as info:
            WebhookEngine.validate_settings(bad)
        assert info.value.key == key
    assert webhook.USER_AGENT.startswith("turing-arena")
