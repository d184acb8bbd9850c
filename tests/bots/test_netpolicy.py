"""The outbound address policy (bots.netpolicy): which addresses an engine may call, judged after DNS
(a stub resolver stands in for it here), and a connection made to the vetted address itself."""

import ipaddress
import socket

import pytest

from bots.base import EngineError, EngineSettingsError
from bots.engines.llm import LLMEngine
from bots.engines.webhook import WebhookEngine
from bots.netpolicy import (
    NOT_ALLOWED,
    STRICT,
    AddressNotAllowed,
    OutboundPolicy,
    outbound_settings_check,
    parse_address,
    refusal,
)


def resolving(table):
    """A stub resolver: host -> list of addresses (an OSError for an unknown name), its calls recorded."""
    calls = []

    def resolve(host, port):
        calls.append((host, port))
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return list(table[host])

    resolve.calls = calls
    return resolve


REFUSED = [
    # IPv4
    ("0.0.0.0", "unspecified"),
    ("0.1.2.3", "unspecified"),
    ("10.0.0.1", "private"),
    ("10.255.255.255", "private"),
    ("100.64.0.1", "shared"),
    ("100.127.255.254", "shared"),
    ("127.0.0.1", "loopback"),
    ("127.53.0.9", "loopback"),
    ("169.254.169.254", "link-local"),
    ("169.254.0.1", "link-local"),
    ("172.16.0.1", "private"),
    ("172.31.255.254", "private"),
    ("192.168.0.1", "private"),
    ("192.0.0.8", "reserved"),
    ("192.0.2.1", "reserved"),
    ("198.18.0.1", "reserved"),
    ("198.51.100.7", "reserved"),
    ("203.0.113.9", "reserved"),
    ("192.88.99.1", "reserved"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "reserved"),
    # IPv6
    ("::", "unspecified"),
    ("::1", "loopback"),
    ("fc00::1", "unique-local"),
    ("fd12:3456:789a::1", "unique-local"),
    ("fe80::1", "link-local"),
    ("fec0::1", "reserved"),
    ("ff02::1", "multicast"),
    ("ff0e::1", "multicast"),
    ("2001:db8::1", "reserved"),
    ("100::1", "reserved"),
    ("2001::1", "reserved"),
    ("64:ff9b:1::a", "reserved"),
    ("::7f00:1", "reserved"),  # IPv4-compatible ::127.0.0.1
    ("4000::1", "reserved"),  # outside global unicast
    # IPv4 inside IPv6: mapped, NAT64, 6to4
    ("::ffff:127.0.0.1", "IPv4-mapped 127.0.0.1: loopback"),
    ("::ffff:169.254.169.254", "IPv4-mapped 169.254.169.254: link-local"),
    ("::ffff:10.1.2.3", "IPv4-mapped 10.1.2.3: private"),
    ("::ffff:100.64.0.1", "IPv4-mapped 100.64.0.1: shared"),
    ("64:ff9b::7f00:1", "NAT64 127.0.0.1: loopback"),
    ("64:ff9b::a9fe:a9fe", "NAT64 169.254.169.254: link-local"),
    ("64:ff9b::c0a8:101", "NAT64 192.168.1.1: private"),
    ("2002:7f00:1::1", "6to4 127.0.0.1: loopback"),
    ("2002:a00:1::", "6to4 10.0.0.1: private"),
]
PUBLIC = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "100.63.255.255",
    "100.128.0.1",
    "172.32.0.1",
    "192.169.0.1",
    "169.255.0.1",
    "223.255.255.254",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
]


@pytest.mark.parametrize("address, reason", REFUSED)
def test_every_non_public_range_is_refused(address, reason):
    ip = ipaddress.ip_address(address)
    assert reason in refusal(ip)
    with pytest.raises(AddressNotAllowed) as refused:
        STRICT.resolve(address, 80)
    assert refused.value.public == NOT_ALLOWED and not refused.value.transient
    assert address in str(refused.value) and reason in str(refused.value)  # the organiser's detail


@pytest.mark.parametrize("address", PUBLIC)
def test_public_unicast_is_allowed(address):
    assert refusal(ipaddress.ip_address(address)) is None
    assert STRICT.resolve(address, 443) == (ipaddress.ip_address(address),)


@pytest.mark.parametrize(
    "text, address",
    [
        ("2130706433", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("0x7f.0.0.1", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("[::1]", "::1"),
        ("fe80::1%eth0", "fe80::1"),
        ("[::ffff:7f00:1]", "::ffff:127.0.0.1"),
    ],
)
def test_literal_forms_that_resolvers_accept_count_as_addresses(text, address):
    assert parse_address(text) == ipaddress.ip_address(address)
    with pytest.raises(AddressNotAllowed):
        STRICT.resolve(text, 80)


@pytest.mark.parametrize("name", ["bot.example.org", "1e100.net", "123.example", "localhost", "deadbeef.cafe"])
def test_names_are_not_literals(name):
    assert parse_address(name) is None


def test_the_allow_list_overrides_a_refusal_and_nothing_else():
    policy = OutboundPolicy.allowing("127.0.0.1/32", "10.0.5.0/24", "fd00:5::/64")
    for allowed in ("127.0.0.1", "10.0.5.9", "::ffff:127.0.0.1", "fd00:5::7", "8.8.8.8"):
        assert policy.reason(ipaddress.ip_address(allowed)) is None, allowed
        assert policy.resolve(allowed, 80)
    for refused in ("127.0.0.2", "10.0.6.1", "::1", "fd00:6::1", "169.254.169.254"):
        with pytest.raises(AddressNotAllowed):
            policy.resolve(refused, 80)
    with pytest.raises(ValueError):
        OutboundPolicy.allowing("not-a-network")


def test_a_name_is_judged_on_every_address_it_resolves_to():
    resolver = resolving(
        {
            "public.example": ["93.184.216.34", "2606:2800:220:1::1"],
            "mixed.example": ["93.184.216.34", "10.0.0.7"],
            "mixed6.example": ["2606:2800:220:1::1", "fd00::1"],
            "metadata.example": ["169.254.169.254"],
            "empty.example": [],
        }
    )
    policy = OutboundPolicy(resolver=resolver)
    assert policy.resolve("public.example", 443) == (
        ipaddress.ip_address("93.184.216.34"),
        ipaddress.ip_address("2606:2800:220:1::1"),
    )
    for name, shown in [("mixed.example", "10.0.0.7"), ("mixed6.example", "fd00::1"), ("metadata.example", "169.254")]:
        with pytest.raises(AddressNotAllowed) as refused:
            policy.resolve(name, 443)
        assert name in str(refused.value) and shown in str(refused.value)
    for name in ("empty.example", "unknown.example"):  # no such name: told and treated as a refused address
        with pytest.raises(EngineError) as failed:
            policy.resolve(name, 443)
        assert not failed.value.transient and failed.value.public == NOT_ALLOWED
    assert ("mixed.example", 443) in resolver.calls
    OutboundPolicy(resolver=resolver).resolve("8.8.8.8", 53)  # a literal is not looked up
    assert ("8.8.8.8", 53) not in resolver.calls


@pytest.fixture
def listener():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server


def test_connect_goes_to_the_vetted_address_of_a_single_lookup(listener):
    """The name is looked up once, by the policy, and the socket connects to that very address: the
    system resolver never sees "bot.example" (it could not resolve it here), so it cannot rebind it."""
    port = listener.getsockname()[1]
    resolver = resolving({"bot.example": ["127.0.0.1"]})
    policy = OutboundPolicy.allowing("127.0.0.1/32", resolver=resolver)
    with policy.connect("bot.example", port, timeout=2) as sock:
        assert sock.getpeername() == ("127.0.0.1", port)
    assert resolver.calls == [("bot.example", port)]
    with pytest.raises(AddressNotAllowed):  # strict: refused before any connection
        OutboundPolicy(resolver=resolver).connect("bot.example", port, timeout=2)
    listener.settimeout(0.2)
    accepted = listener.accept()[0]  # the allowed connection only
    accepted.close()
    with pytest.raises(socket.timeout):
        listener.accept()


@pytest.mark.parametrize(
    "engine, key, url",
    [
        (WebhookEngine, "url", "http://127.0.0.1:8080/hook"),
        (WebhookEngine, "url", "http://169.254.169.254/latest/meta-data/"),
        (WebhookEngine, "url", "https://[::1]/hook"),
        (WebhookEngine, "url", "http://[::ffff:10.0.0.1]/hook"),
        (WebhookEngine, "url", "http://2130706433/hook"),
        (LLMEngine, "base_url", "http://10.0.0.5:11434/v1"),
        (LLMEngine, "base_url", "http://[fd00::5]:8000/v1"),
    ],
)
def test_settings_with_a_refused_literal_address_are_refused_naming_the_key(engine, key, url):
    other = {"secret": "0123456789abcdef"} if engine is WebhookEngine else {"model": "m"}
    cleaned = engine.validate_settings({key: url, **other})
    with pytest.raises(EngineSettingsError) as refused:
        outbound_settings_check(engine, cleaned, STRICT)
    assert refused.value.key == key and "address not allowed" in str(refused.value)
    assert "resolves to such an address is refused when the entry is called" in str(refused.value)
    allowed = OutboundPolicy.allowing("127.0.0.0/8", "169.254.0.0/16", "::/0", "10.0.0.0/8")
    outbound_settings_check(engine, cleaned, allowed)  # the organiser's ranges pass


def test_settings_naming_a_host_pass_validation():
    cleaned = WebhookEngine.validate_settings({"url": "https://bot.example.org/hook", "secret": "0123456789abcdef"})
    outbound_settings_check(WebhookEngine, cleaned, STRICT)  # judged when called, after resolution


def test_allow_hint_names_the_setting_with_the_address_as_its_value():
    from bots.netpolicy import allow_hint, parse_address

    assert allow_hint(parse_address("10.0.5.7"), "ARENA_OUTBOUND_ALLOW").endswith("ARENA_OUTBOUND_ALLOW=10.0.5.7/32")
    assert allow_hint(parse_address("fd00::7"), "X").endswith("X=fd00::7/128")
    # localhost may resolve to either loopback or both, and a name is allowed only when all its addresses are
    assert allow_hint(parse_address("::1"), "X").endswith("X=127.0.0.1/32,::1/128")
