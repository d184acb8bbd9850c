"""The engines that call out (webhook, llm) reach only what their outbound policy allows: refused before
anything is sent, on redirects too, connected to the vetted address with the URL's Host header and, for
https, its name for SNI and the certificate check. Local stub servers only; names resolve through a
stub resolver."""

import json
import shutil
import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bots.base import INTERROGATOR, EngineError, ReplyContext, Turn
from bots.engines.llm import LLMEngine
from bots.engines.webhook import WebhookEngine
from bots.netpolicy import NO_VALID_REPLY, NOT_ALLOWED, AddressNotAllowed, OutboundPolicy

from .test_llm import StubServer, completion
from .test_netpolicy import resolving

SECRET = "whsec-0123456789abcdef"
CONTEXT = ReplyContext("c1", (Turn(INTERROGATOR, "hi"),), "are you human?")
REFUSED_HOST = "127.0.0.2"  # loopback too, but outside the allow-list below: "another address"


class Server(StubServer):
    """An HTTP(S) server on ``host`` answering every POST with ``status``, ``payload`` and ``headers``,
    recording each request ({"path", "headers", "body"}) and, over TLS, the SNI names it was asked for."""

    def __init__(self, status=200, payload=None, headers=None, host="127.0.0.1", tls=None):
        self.requests, self.sni = [], []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def setup(self):
                if isinstance(self.request, ssl.SSLSocket):
                    self.request.do_handshake()  # here, not in the accepting thread
                super().setup()

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                server.requests.append(
                    {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
                )
                data = json.dumps(payload if payload is not None else {"reply": "hello from the stub"}).encode()
                self.send_response(status)
                for key, value in {"Content-Type": "application/json", **(headers or {})}.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer((host, 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda request, address: None  # a client refusing the certificate
        self.port = self.server.server_address[1]
        if tls is not None:
            tls.sni_callback = lambda sock, name, ctx: self.sni.append(name) and None
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True, do_handshake_on_connect=False)
        self.url = f"{'https' if tls else 'http'}://{host}:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)


LOOPBACK = OutboundPolicy.allowing("127.0.0.1/32")


def webhook(url, policy=None):
    engine = WebhookEngine({"url": url, "secret": SECRET, "timeout_s": 3})
    engine.sleep = lambda seconds: None
    if policy is not None:
        engine.outbound = policy
    return engine


def llm(base_url, policy=None):
    engine = LLMEngine({"base_url": base_url, "model": "m", "timeout_s": 3})
    engine.sleep = lambda seconds: None
    if policy is not None:
        engine.outbound = policy
    return engine


# --- refused before anything is sent ---------------------------------------------------------------


@pytest.mark.parametrize("build, path", [(webhook, "/hook"), (llm, "/v1")])
def test_an_engine_built_without_a_policy_is_strict_and_sends_nothing(build, path):
    with Server(payload=completion("hi")) as stub:
        with pytest.raises(AddressNotAllowed) as refused:
            build(stub.url + path).reply(CONTEXT)
    assert stub.requests == []
    assert refused.value.public == NOT_ALLOWED and not refused.value.transient
    assert "127.0.0.1" in str(refused.value) and "loopback" in str(refused.value)


@pytest.mark.parametrize("build, path", [(webhook, "/hook"), (llm, "/v1")])
def test_a_name_resolving_to_a_public_and_a_private_address_is_refused(build, path):
    resolver = resolving({"mixed.example": ["93.184.216.34", "127.0.0.1"]})
    with Server(payload=completion("hi")) as stub:
        with pytest.raises(AddressNotAllowed):
            build(f"http://mixed.example:{stub.port}{path}", OutboundPolicy(resolver=resolver)).reply(CONTEXT)
    assert stub.requests == [] and resolver.calls


# --- allowed: the vetted address, the URL's Host ------------------------------------------------------


def test_the_webhook_connects_to_the_vetted_address_with_the_urls_host_header():
    resolver = resolving({"hook.example": ["127.0.0.1"]})
    with Server() as stub:
        engine = webhook(
            f"http://hook.example:{stub.port}/hook", OutboundPolicy.allowing("127.0.0.1/32", resolver=resolver)
        )
        assert engine.reply(CONTEXT) == "hello from the stub"
    assert stub.requests[0]["headers"]["host"] == f"hook.example:{stub.port}"
    assert resolver.calls == [("hook.example", stub.port)]  # one lookup, by the policy


def test_the_llm_client_connects_to_the_vetted_address_with_the_urls_host_header():
    resolver = resolving({"llm.example": ["127.0.0.1"]})
    with Server(payload=completion("lol no")) as stub:
        engine = llm(f"http://llm.example:{stub.port}/v1", OutboundPolicy.allowing("127.0.0.1/32", resolver=resolver))
        assert engine.reply(CONTEXT) == "lol no"
    assert stub.requests[0]["path"] == "/v1/chat/completions"
    assert stub.requests[0]["headers"]["host"] == f"llm.example:{stub.port}"


def test_the_llm_client_re_checks_at_connect_time_so_a_rebound_name_is_refused():
    """The name passes the check before the call, then resolves to a refused address: the client's
    connection vets again and refuses; the refused address receives nothing."""
    answers = iter([["127.0.0.1"], [REFUSED_HOST]])
    with Server(host=REFUSED_HOST, payload=completion("rebound")) as target:
        engine = llm(
            f"http://rebind.example:{target.port}/v1",
            OutboundPolicy.allowing("127.0.0.1/32", resolver=lambda host, port: next(answers)),
        )
        with pytest.raises(AddressNotAllowed):
            engine.reply(CONTEXT)
    assert target.requests == []


# --- redirects ------------------------------------------------------------------------------------------


def test_an_llm_redirect_is_vetted_like_the_first_request():
    with (
        Server(host=REFUSED_HOST, payload=completion("from the inside")) as target,
        Server(status=307, headers={"Location": f"{target.url}/v1/chat/completions"}) as start,
    ):
        with pytest.raises(AddressNotAllowed) as refused:
            llm(start.url + "/v1", LOOPBACK).reply(CONTEXT)
        assert len(start.requests) == 1 and target.requests == []
        assert REFUSED_HOST in str(refused.value)
        # the same redirect, its target allowed, is followed
        allowing = OutboundPolicy.allowing("127.0.0.1/32", f"{REFUSED_HOST}/32")
        assert llm(start.url + "/v1", allowing).reply(CONTEXT) == "from the inside"
    assert len(target.requests) == 1


def test_a_webhook_redirect_is_not_followed_and_says_nothing_of_it():
    with Server(host=REFUSED_HOST) as target, Server(status=302, headers={"Location": target.url + "/hook"}) as start:
        with pytest.raises(EngineError) as failed:
            webhook(start.url + "/hook", LOOPBACK).reply(CONTEXT)
    assert target.requests == [] and len(start.requests) == 1
    assert "HTTP 302" in str(failed.value) and failed.value.public == NO_VALID_REPLY


# --- https: SNI and the certificate check use the URL's name ---------------------------------------------


@pytest.fixture
def certificate(tmp_path):
    """A self-signed certificate for "hook.example" (the test trusts it through SSL_CERT_FILE)."""
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=hook.example",
            "-addext",
            "subjectAltName=DNS:hook.example",
        ],
        check=True,
        capture_output=True,
        timeout=30,
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return cert, context


@pytest.mark.parametrize(
    "build, payload, expected", [(webhook, None, "hello from the stub"), (llm, completion("tls ok"), "tls ok")]
)
def test_https_keeps_the_name_for_sni_and_certificate_checks(certificate, monkeypatch, build, payload, expected):
    cert, context = certificate
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    names = {"hook.example": ["127.0.0.1"], "other.example": ["127.0.0.1"]}
    policy = OutboundPolicy.allowing("127.0.0.1/32", resolver=resolving(names))
    with Server(payload=payload, tls=context) as stub:
        assert build(f"https://hook.example:{stub.port}/v1", policy).reply(CONTEXT) == expected
        assert stub.requests[0]["headers"]["host"] == f"hook.example:{stub.port}"
        with pytest.raises(EngineError) as failed:  # the certificate names hook.example, not other.example
            build(f"https://other.example:{stub.port}/v1", policy).reply(CONTEXT)
    assert "hook.example" in stub.sni and "other.example" in stub.sni
    assert len(stub.requests) == 1 and failed.value.public == NO_VALID_REPLY
