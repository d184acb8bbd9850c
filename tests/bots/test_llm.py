"""The llm engine against a local stub chat-completions server (127.0.0.1, random port)."""

import json

import pytest

from bots.base import INTERROGATOR, WITNESS, EngineError, EngineSettingsError, ReplyContext, Turn
from bots.engines.llm import LLMEngine, OpenAIBackend, cap, system_prompt
from bots.netpolicy import OutboundPolicy
from bots.registry import get_engine
from tests.stubserver import LoopbackServer

# The stub servers listen on loopback, which an engine's strict default policy refuses.
LOOPBACK = OutboundPolicy.allowing("127.0.0.1/32")
KEY = "sk-test-SECRET-0123456789"


class StubServer(LoopbackServer):
    """Records requests and plays scripted responses. ``script`` is a list of ``(status, body, delay_s)``;
    the last one repeats. ``body`` is bytes, or a JSON-able object. Each request is recorded as
    ``{"path", "headers", "body"}``."""

    def __init__(self, script):
        self.script, self.requests = list(script), []
        super().__init__(self._respond)
        self.url = self.root

    def _respond(self, path, headers, body):
        self.requests.append({"path": path, "headers": headers, "body": body})
        return self.script[min(len(self.requests), len(self.script)) - 1]

    def json(self, index=-1):
        return json.loads(self.requests[index]["body"])


def completion(text):
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "stub",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def engine_for(server, **settings):
    engine = LLMEngine({"base_url": server.url + "/v1", "model": "llama3.1:8b", "api_key": KEY, **settings})
    engine.sleep = lambda seconds: None
    engine.outbound = LOOPBACK
    return engine


CONTEXT = ReplyContext(
    "c1",
    (Turn(INTERROGATOR, "hi"), Turn(WITNESS, "hey"), Turn(INTERROGATOR, "where r u from")),
    "are you a bot?",
)


@pytest.mark.slow
def test_sends_model_temperature_messages_and_bearer_key():
    with StubServer([(200, completion("lol no, r u?"), 0)]) as server:
        engine = engine_for(server, temperature=0.3, persona={"name": "Jess", "age": "19"})
        assert engine.reply(CONTEXT) == "lol no, r u?"
    request = server.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["authorization"] == f"Bearer {KEY}"
    body = server.json()
    assert body["model"] == "llama3.1:8b" and body["temperature"] == 0.3
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user", "assistant", "user", "user"]
    assert [m["content"] for m in body["messages"][1:]] == ["hi", "hey", "where r u from", "are you a bot?"]
    system = body["messages"][0]["content"]
    assert "Jess" in system and "19" in system and "lower case" in system


def test_minimal_prompt_and_context_persona():
    prompt = system_prompt("minimal", {"name": "Jess", "hobby": "climbing"})
    assert "lower case" not in prompt and "Jess" in prompt and "climbing" in prompt
    with StubServer([(200, completion("I'm human."), 0)]) as server:
        engine = engine_for(server, prompt="minimal", persona={"name": "Jess"})
        engine.reply(ReplyContext("c2", (), "hello", persona={"name": "Kai"}))
    system = server.json()["messages"][0]["content"]
    assert "Kai" in system and "Jess" not in system  # the conversation's persona wins


def test_reply_capped_at_max_reply_chars():
    with StubServer([(200, completion("word " * 100), 0)]) as server:
        reply = engine_for(server, max_reply_chars=42).reply(CONTEXT)
    assert len(reply) <= 42 and reply.endswith("word")
    assert cap("abcdefghij", 4) == "abcd"


@pytest.mark.parametrize("status", [500, 503, 429])
def test_server_errors_are_transient_and_retried_once(status):
    with StubServer([(status, {"error": {"message": f"echo {KEY}"}}, 0)]) as server:
        with pytest.raises(EngineError) as info:
            engine_for(server).reply(CONTEXT)
    assert info.value.transient and str(status) in str(info.value)
    assert KEY not in str(info.value) and info.value.__cause__ is None
    assert len(server.requests) == 2  # one retry


def test_transient_error_then_success():
    with StubServer([(500, {"error": {}}, 0), (200, completion("ok"), 0)]) as server:
        assert engine_for(server).reply(CONTEXT) == "ok"
    assert len(server.requests) == 2


def test_timeout_is_transient():
    with StubServer([(200, completion("too late"), 0.5)]) as server:
        with pytest.raises(EngineError) as info:
            engine_for(server, timeout_s=0.1).reply(CONTEXT)
    assert info.value.transient and "timed out" in str(info.value)


def test_connection_refused_is_transient():
    with StubServer([]) as server:
        url = server.url
    engine = LLMEngine({"base_url": url + "/v1", "model": "m", "api_key": KEY})
    engine.sleep, engine.outbound = (lambda seconds: None), LOOPBACK
    with pytest.raises(EngineError) as info:
        engine.reply(CONTEXT)
    assert info.value.transient and KEY not in str(info.value)


@pytest.mark.parametrize("status", [401, 400, 404])
def test_client_errors_are_not_transient(status):
    with StubServer([(status, {"error": {"message": f"bad key {KEY}"}}, 0)]) as server:
        with pytest.raises(EngineError) as info:
            engine_for(server).reply(CONTEXT)
    assert not info.value.transient
    assert KEY not in str(info.value) and KEY not in repr(info.value)
    assert len(server.requests) == 1  # not retried


@pytest.mark.parametrize(
    "payload",
    [completion(""), completion(None), {"choices": []}, completion("   "), b"not json", {"id": "x"}],
)
def test_empty_or_non_text_reply_is_an_error(payload):
    with StubServer([(200, payload, 0)]) as server:
        with pytest.raises(EngineError) as info:
            engine_for(server).reply(CONTEXT)
    assert not info.value.transient


def test_settings_are_validated_and_the_key_kept_out_of_reprs():
    assert LLMEngine.secret_keys == ("api_key",)
    engine = get_engine("llm", {"base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key": KEY})
    assert KEY not in repr(engine) and KEY not in repr(engine.backend())
    assert engine.settings["prompt"] == "persona" and engine.settings["max_reply_chars"] == 300
    for bad, key in [
        ({"model": "m"}, "base_url"),
        ({"base_url": "http://x/v1"}, "model"),
        ({"base_url": "ftp://x/v1", "model": "m"}, "base_url"),
        ({"base_url": "http://u:p@x/v1", "model": "m"}, "base_url"),
        ({"base_url": "http://x/v1", "model": "m", "prompt": "chatty"}, "prompt"),
        ({"base_url": "http://x/v1", "model": "m", "temperature": 3}, "temperature"),
        ({"base_url": "http://x/v1", "model": "m", "timeout_s": 0}, "timeout_s"),
    ]:
        with pytest.raises(EngineSettingsError) as info:
            LLMEngine.validate_settings(bad)
        assert info.value.key == key


def test_backend_is_replaceable():
    class Scripted:
        def complete(self, messages, *, model, temperature, max_tokens):
            return f"{len(messages)} messages to {model}"

    engine = LLMEngine({"base_url": "http://x/v1", "model": "m"})
    engine._backend = Scripted()
    assert engine.reply(CONTEXT) == "5 messages to m"
    assert isinstance(LLMEngine({"base_url": "http://x/v1", "model": "m"}).backend(), OpenAIBackend)
