"""The arena's outbound policy (ARENA_OUTBOUND_ALLOW): entries cannot aim the webhook or LLM engine at
the arena's own network, their probe cannot be used as a port scanner, and what an entrant sees of a
failure is a neutral category while the organiser keeps the detail. Local stub servers only."""

import contextlib
import json
import socket
import threading

import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arena import roles
from arena.models import EngineCall, Entry
from arena.services import engines
from bots.base import EngineError
from bots.netpolicy import NO_VALID_REPLY, NOT_ALLOWED

from ..bots.test_llm import completion
from ..bots.test_outbound_engines import REFUSED_HOST, Server
from ..conftest import FAST, make_user
from .test_configuration import settings_from

SECRET = "whsec-0123456789abcdef"
# what a port scanner would read in an answer: statuses, exception names, the address and its kind
REVEALING = (
    "HTTP",
    "501",
    "302",
    "Remote",
    "Disconnected",
    "Refused",
    "Error",
    "127.0.0.1",
    "loopback",
    "unreachable",
    "timed out",
)


@pytest.fixture
def ada(cast):
    user = make_user("ada", roles.ENTRANT)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return user, api


@pytest.fixture
def no_allow_list(settings):
    settings.ARENA_OUTBOUND_ALLOW = []


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch):
    from bots.engines.webhook import WebhookEngine

    monkeypatch.setattr(WebhookEngine, "retry_delays", ())


def hook_entry(owner, url, **settings):
    return Entry.objects.create(
        owner=owner,
        display_name="Hook",
        engine="webhook",
        settings={**FAST, "url": url, "secret": SECRET, "timeout_s": 2, **settings},
    )


def llm_entry(owner, base_url):
    return Entry.objects.create(
        owner=owner,
        display_name="LLM",
        engine="llm",
        settings={**FAST, "base_url": base_url, "model": "m", "timeout_s": 2},
    )


def probe(api, entry):
    answer = api.post(f"/api/v1/entries/{entry.pk}/probe/", {"message": "hi"}, format="json")
    assert answer.status_code == 200
    return answer.json()


def last_error(api, entry):
    """The entry's last error, as the API shows it to its entrant."""
    return api.get(f"/api/v1/entries/{entry.pk}/").json()["last_error"]


def revealing(report, error):
    """The words of REVEALING found in a probe answer or a last error."""
    return [word for word in REVEALING if word in json.dumps(report) + error]


# --- refused: nothing is sent ------------------------------------------------------------------------


def test_without_the_allow_list_a_webhook_on_a_local_server_is_refused_and_receives_nothing(ada, no_allow_list):
    user, api = ada
    with Server() as stub:
        entry = hook_entry(user, stub.url + "/hook")  # stored before the policy existed, or by hand
        report = probe(api, entry)
    assert stub.requests == []
    assert (report["outcome"], report["error"], report["reply"]) == ("error", NOT_ALLOWED, "")
    assert last_error(api, entry) == f"error: {NOT_ALLOWED}"
    assert revealing(report, last_error(api, entry)) == []
    detail = EngineCall.objects.get(entry=entry).error  # the organiser's call log keeps why
    assert "127.0.0.1" in detail and "loopback" in detail


def test_without_the_allow_list_an_llm_base_url_on_a_local_server_is_refused(ada, no_allow_list):
    user, api = ada
    with Server(payload=completion("hi")) as stub:
        report = probe(api, llm_entry(user, stub.url + "/v1"))
    assert stub.requests == [] and report["error"] == NOT_ALLOWED


def test_engines_built_outside_an_entry_get_the_policy_too(no_allow_list):
    with Server() as stub:
        ask = engines.engine_standalone_reply(
            engine="webhook", engine_settings={"url": stub.url, "secret": SECRET}, key="lpp:test"
        )
        with pytest.raises(EngineError, match="address not allowed"):
            ask([], "hello")
    assert stub.requests == []


# --- allowed: it works, and failures are told neutrally ---------------------------------------------------


def test_with_the_allow_list_webhook_and_llm_entries_answer(ada):
    user, api = ada
    with Server() as hook, Server(payload=completion("lol hi")) as chat:
        assert probe(api, hook_entry(user, hook.url + "/hook"))["reply"] == "hello from the stub"
        assert probe(api, llm_entry(user, chat.url + "/v1"))["reply"] == "lol hi"
    assert len(hook.requests) == 1 and len(chat.requests) == 1


class Disconnecting:
    """A TCP server that reads a request and hangs up without answering (RemoteDisconnected)."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)

    def close(self):
        self.sock.close()


@contextlib.contextmanager
def endpoint(kind):
    """The URL of a local endpoint that answers 501, hangs up, or is a closed port."""
    if kind == "501":
        with Server(status=501, payload={"error": "not implemented"}) as stub:
            yield stub.url
    elif kind == "hang-up":
        stub = Disconnecting()
        try:
            yield stub.url
        finally:
            stub.close()
    else:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        yield f"http://127.0.0.1:{port}"


# a hang-up reads as RemoteDisconnected, or as a reset when the server closed with the request unread
@pytest.mark.parametrize(
    "kind, details",
    [
        ("501", ("HTTP 501",)),
        ("hang-up", ("RemoteDisconnected", "ConnectionResetError")),
        ("closed", ("ConnectionRefusedError",)),
    ],
)
def test_a_failed_probe_says_no_valid_reply_and_not_what_answered(ada, cast, client, kind, details):
    user, api = ada
    with endpoint(kind) as url:
        entry = hook_entry(user, url + "/hook")
        report = probe(api, entry)
        assert (report["outcome"], report["error"], report["reply"]) == ("error", NO_VALID_REPLY, "")
        assert last_error(api, entry) == f"error: {NO_VALID_REPLY}"
        assert revealing(report, last_error(api, entry)) == []
        assert any(d in EngineCall.objects.get(entry=entry).error for d in details)  # kept for the organiser
        client.force_login(cast.olivia)  # whose admin probe shows the detail
        page = client.post("/admin/arena/entry/", {"action": "probe", "_selected_action": [entry.pk]}, follow=True)
        assert any(d in page.content.decode() for d in details)


def test_a_webhook_redirect_to_a_refused_address_is_refused_and_told_neutrally(ada, settings):
    settings.ARENA_OUTBOUND_ALLOW = ["127.0.0.1/32"]
    user, api = ada
    with Server(host=REFUSED_HOST) as target, Server(status=302, headers={"Location": target.url + "/hook"}) as start:
        report = probe(api, hook_entry(user, start.url + "/hook"))
    assert target.requests == [] and report["error"] == NO_VALID_REPLY
    assert revealing(report, "") == []


def test_an_llm_redirect_to_a_refused_address_is_refused(ada, settings):
    settings.ARENA_OUTBOUND_ALLOW = ["127.0.0.1/32"]
    user, api = ada
    with (
        Server(host=REFUSED_HOST, payload=completion("inside")) as target,
        Server(status=307, headers={"Location": target.url + "/v1/chat/completions"}) as start,
    ):
        report = probe(api, llm_entry(user, start.url + "/v1"))
    assert target.requests == [] and len(start.requests) == 1 and report["error"] == NOT_ALLOWED


# --- settings validation ------------------------------------------------------------------------------


def register(api, engine, settings):
    name = f"{engine} {Entry.objects.count()}"  # display names are unique
    return api.post("/api/v1/entries/", {"display_name": name, "engine": engine, "settings": settings}, format="json")


@pytest.mark.parametrize(
    "engine, engine_settings",
    [
        ("webhook", {"url": "http://127.0.0.1:8080/hook", "secret": SECRET}),
        ("webhook", {"url": "http://169.254.169.254/latest/meta-data/", "secret": SECRET}),
        ("webhook", {"url": "http://[::ffff:10.0.0.1]/hook", "secret": SECRET}),
        ("webhook", {"url": "http://0x7f.1/hook", "secret": SECRET}),
        ("llm", {"base_url": "http://[::1]:11434/v1", "model": "m"}),
        ("llm", {"base_url": "http://192.168.1.20:8000/v1", "model": "m"}),
    ],
)
def test_registration_refuses_a_url_at_a_refused_address_literal(ada, no_allow_list, engine, engine_settings):
    _, api = ada
    answer = register(api, engine, engine_settings)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert "address not allowed" in error and "refused when the entry is called" in error
    assert not Entry.objects.filter(engine=engine).exists()


def test_registration_accepts_names_and_allowed_ranges(ada, settings):
    _, api = ada
    settings.ARENA_OUTBOUND_ALLOW = []
    assert register(api, "webhook", {"url": "https://bot.example.org/hook", "secret": SECRET}).status_code == 201
    assert register(api, "webhook", {"url": "gopher://bot.example.org/", "secret": SECRET}).status_code == 400
    settings.ARENA_OUTBOUND_ALLOW = ["10.0.5.0/24"]
    answer = register(api, "llm", {"base_url": "http://10.0.5.7:11434/v1", "model": "m"})
    assert answer.status_code == 201, answer.content
    assert register(api, "llm", {"base_url": "http://10.0.6.7:11434/v1", "model": "m"}).status_code == 400


# --- the setting -------------------------------------------------------------------------------------


def test_the_allow_list_is_read_strictly_from_the_environment(monkeypatch):
    monkeypatch.delenv("ARENA_OUTBOUND_ALLOW", raising=False)
    assert settings_from(monkeypatch)["ARENA_OUTBOUND_ALLOW"] == []
    values = settings_from(monkeypatch, ARENA_OUTBOUND_ALLOW=" 10.0.5.0/24, fd00:5::/64,127.0.0.1 ")
    assert values["ARENA_OUTBOUND_ALLOW"] == ["10.0.5.0/24", "fd00:5::/64", "127.0.0.1/32"]
    for raw in ("nope", "10.0.5.7/24", "10.0.0.0/33", " , "):
        with pytest.raises(ImproperlyConfigured) as refused:
            settings_from(monkeypatch, ARENA_OUTBOUND_ALLOW=raw)
        assert str(refused.value).startswith(f"ARENA_OUTBOUND_ALLOW={raw!r}: ")
