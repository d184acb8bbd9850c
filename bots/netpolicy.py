"""Which addresses the engines that call out (webhook, llm) may reach: the outbound address policy.

An entrant chooses the URL its entry is called at, so without a policy the arena would call whatever
that URL names: its own loopback services, the private network behind it, a cloud's metadata service
(169.254.169.254). :class:`OutboundPolicy` refuses every address that is not public unicast:

- IPv4: "this network" and unspecified (0/8), private (10/8, 172.16/12, 192.168/16), shared (100.64/10),
  loopback (127/8), link-local (169.254/16), IETF protocol assignments (192.0.0/24), documentation,
  benchmarking, 6to4 relay, multicast (224/4), reserved and broadcast (240/4);
- IPv6: unspecified, loopback, unique-local (fc00::/7), link-local (fe80::/10), site-local, multicast
  (ff00::/8), documentation, discard, IETF protocol assignments, local NAT64 (64:ff9b:1::/48), anything
  outside global unicast (2000::/3); and the IPv4 inside an IPv4-mapped (::ffff:a.b.c.d), NAT64
  (64:ff9b::a.b.c.d) or 6to4 (2002:aabb:ccdd::) address is judged as that IPv4 address.

The organiser may allow ranges (``allow``: networks, e.g. an LLM server on the organisers' network);
an allowed range wins over every refusal. A host *name* is judged after resolution, on every address
it resolves to: one refused address refuses the name (a name resolving to a public and a private
address is refused). :meth:`OutboundPolicy.connect` resolves, vets and then connects to the vetted
address itself, so a name cannot be re-resolved to another address between the check and the
connection (DNS rebinding); TLS keeps the original name for SNI and certificate checks, and the HTTP
Host header is the URL's.

A name that does not resolve is told to anyone but an organiser in the words a refused address gets
(:data:`NOT_ALLOWED`), and is not retried either (unless the resolver says to try again later): an entrant
cannot tell an internal name from an unknown one (a DNS probe) by the answer or by the call log.

An engine built without a policy uses :data:`STRICT` (no range allowed). Pure Python, no Django: the
arena's engine gateway builds the policy from its settings and hands it to the engines it builds.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from .base import EngineError, EngineSettingsError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], Sequence[str]]

# What anyone but an organiser is told when a call fails: never what answered or how.
NOT_ALLOWED = "address not allowed or not found"
NO_VALID_REPLY = "no valid reply (timeout, connection or protocol error)"


def _table(rows: Iterable[tuple[str, str]]) -> tuple[tuple[Network, str], ...]:
    return tuple((ipaddress.ip_network(cidr), reason) for cidr, reason in rows)


REFUSED_V4 = _table(
    [
        ("0.0.0.0/8", "unspecified"),
        ("10.0.0.0/8", "private"),
        ("100.64.0.0/10", "shared (carrier-grade NAT)"),
        ("127.0.0.0/8", "loopback"),
        ("169.254.0.0/16", "link-local"),
        ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "reserved (IETF protocol assignments)"),
        ("192.0.2.0/24", "reserved (documentation)"),
        ("192.88.99.0/24", "reserved (6to4 relay)"),
        ("192.168.0.0/16", "private"),
        ("198.18.0.0/15", "reserved (benchmarking)"),
        ("198.51.100.0/24", "reserved (documentation)"),
        ("203.0.113.0/24", "reserved (documentation)"),
        ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved"),  # 255.255.255.255 (broadcast) included
    ]
)
REFUSED_V6 = _table(
    [
        ("::/128", "unspecified"),
        ("::1/128", "loopback"),
        ("64:ff9b:1::/48", "reserved (local NAT64)"),
        ("100::/64", "reserved (discard)"),
        ("2001::/23", "reserved (IETF protocol assignments)"),
        ("2001:db8::/32", "reserved (documentation)"),
        ("fc00::/7", "unique-local"),
        ("fe80::/10", "link-local"),
        ("fec0::/10", "reserved (site-local)"),
        ("ff00::/8", "multicast"),
    ]
)
GLOBAL_UNICAST_V6 = ipaddress.ip_network("2000::/3")
NAT64 = ipaddress.ip_network("64:ff9b::/96")
SIXTOFOUR = ipaddress.ip_network("2002::/16")


class AddressNotAllowed(EngineError):
    """The policy refused an address (never transient: the same address is refused next time).

    ``str()`` names the host, the address and why (for the organiser's call log); ``public`` is the
    neutral :data:`NOT_ALLOWED`."""

    def __init__(self, message: str, address: IPAddress | None = None) -> None:
        super().__init__(message, transient=False, public=NOT_ALLOWED)
        self.address = address


def allow_hint(address: IPAddress | None, setting: str) -> str:
    """How an organiser allows ``address``: the host's ``setting`` (a list of CIDR ranges) with this one
    address as the example value ("ARENA_OUTBOUND_ALLOW=10.0.5.7/32"); for a loopback address both
    loopbacks, since a name such as ``localhost`` may resolve to either or both, and every address a name
    resolves to must be allowed ("ARENA_OUTBOUND_ALLOW=127.0.0.1/32,::1/128")."""
    if address is None or address.is_loopback:
        example = "127.0.0.1/32,::1/128"
    else:
        example = f"{address}/{address.max_prefixlen}"
    return (
        f"to let the platform call it (a model server of your own, e.g. Ollama, vLLM or llama.cpp on this "
        f"machine or your network), allow its range in the {setting} setting, e.g. {setting}={example}"
    )


def parse_address(text: str) -> IPAddress | None:
    """``text`` as an IP address, or None when it is a host name. IPv6 brackets and a zone (``%eth0``)
    are dropped; the legacy IPv4 forms that resolvers accept ("127.1", "0x7f.0.0.1", "2130706433")
    count as addresses too."""
    text = text.strip().strip("[]").split("%", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        pass
    if text and all(ch in "0123456789abcdefxABCDEFX." for ch in text) and text[0].isdigit():
        try:
            return ipaddress.IPv4Address(socket.inet_aton(text))
        except OSError:
            return None
    return None


def embedded_ipv4(address: IPAddress) -> tuple[str, ipaddress.IPv4Address] | None:
    """The IPv4 address an IPv6 address stands for (IPv4-mapped, NAT64, 6to4), with the form's name."""
    if address.version != 6:
        return None
    if address.ipv4_mapped is not None:
        return "IPv4-mapped", address.ipv4_mapped
    if address in NAT64:
        return "NAT64", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in SIXTOFOUR:
        return "6to4", address.sixtofour
    return None


def refusal(address: IPAddress) -> str | None:
    """Why ``address`` is not public unicast ("loopback", "IPv4-mapped 127.0.0.1: loopback"), or None."""
    inner = embedded_ipv4(address)
    if inner is not None:
        form, v4 = inner
        reason = refusal(v4)
        return f"{form} {v4}: {reason}" if reason else None
    for network, reason in REFUSED_V4 if address.version == 4 else REFUSED_V6:
        if address in network:
            return reason
    if address.version == 6 and address not in GLOBAL_UNICAST_V6:
        return "reserved (not global unicast)"
    return None


def system_resolver(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (``getaddrinfo``, TCP), in the resolver's order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [info[4][0] for info in infos]


@dataclass(frozen=True)
class OutboundPolicy:
    """Refuses non-public addresses except those in ``allow``; ``resolver(host, port)`` lists a name's
    addresses (tests stand a stub in for DNS)."""

    allow: tuple[Network, ...] = ()
    resolver: Resolver = system_resolver

    @classmethod
    def allowing(cls, *cidrs: str, resolver: Resolver = system_resolver) -> OutboundPolicy:
        """A policy allowing ``cidrs`` ("127.0.0.1/32", "10.0.5.0/24", "::1"); raises ValueError on a bad one."""
        return cls(tuple(ipaddress.ip_network(cidr.strip(), strict=False) for cidr in cidrs if cidr.strip()), resolver)

    def allowed(self, address: IPAddress) -> bool:
        inner = embedded_ipv4(address)
        candidates = (address,) if inner is None else (address, inner[1])
        return any(a.version == n.version and a in n for a in candidates for n in self.allow)

    def reason(self, address: IPAddress) -> str | None:
        """Why this policy refuses ``address``, or None when it may be called."""
        return None if self.allowed(address) else refusal(address)

    def check_address(self, address: IPAddress, host: str = "") -> IPAddress:
        reason = self.reason(address)
        if reason is not None:
            named = f"{host} ({address})" if host and host != str(address) else str(address)
            raise AddressNotAllowed(f"address not allowed: {named} is {reason}", address)
        return address

    def resolve(self, host: str, port: int) -> tuple[IPAddress, ...]:
        """The addresses ``host`` resolves to, each vetted; raises :class:`AddressNotAllowed` when any is
        refused, an :class:`EngineError` told as a refusal (:data:`NOT_ALLOWED`) when the name does not
        resolve (transient only when the resolver says to try again)."""
        literal = parse_address(host)
        if literal is not None:
            return (self.check_address(literal, host),)
        try:
            found = self.resolver(host, port)
        except (OSError, UnicodeError) as exc:
            again = isinstance(exc, socket.gaierror) and exc.errno == socket.EAI_AGAIN
            raise EngineError(
                f"cannot resolve {host!r}: {type(exc).__name__}", transient=again, public=NOT_ALLOWED
            ) from None
        addresses: list[IPAddress] = []
        for text in found:
            address = parse_address(text)
            if address is None:
                raise AddressNotAllowed(f"address not allowed: {host} resolved to {text!r}, not an address")
            if address not in addresses:
                addresses.append(self.check_address(address, host))
        if not addresses:
            raise EngineError(f"cannot resolve {host!r}: no address", transient=False, public=NOT_ALLOWED)
        return tuple(addresses)

    def connect(
        self, host: str, port: int, timeout: float | None = None, source_address: tuple[str, int] | None = None
    ) -> socket.socket:
        """A TCP connection to a vetted address of ``host`` (each tried in turn): what
        ``socket.create_connection`` does, with the policy between resolving and connecting."""
        last: OSError | None = None
        for address in self.resolve(host, port):
            try:
                return socket.create_connection((str(address), port), timeout, source_address)
            except OSError as exc:
                last = exc
        assert last is not None
        raise last

    def check_url(self, url: str) -> None:
        """Refuse a URL that is not http(s) or whose host is a refused address *literal* (names are
        judged when called, after resolution). Raises :class:`AddressNotAllowed` or ValueError."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http:// or https:// URL naming a host")
        address = parse_address(parts.hostname)
        if address is not None:
            self.check_address(address)


STRICT = OutboundPolicy()


def outbound_settings_check(engine: type, cleaned: dict, policy: OutboundPolicy, setting: str = "") -> None:
    """Refuse ``cleaned`` settings of ``engine`` whose URL keys (``engine.outbound_keys``) the policy
    refuses: :class:`EngineSettingsError` naming the key (and, given the host's ``setting`` that allows
    ranges, how to allow it)."""
    for key in getattr(engine, "outbound_keys", ()):
        url = cleaned.get(key)
        if not url:
            continue
        try:
            policy.check_url(url)
        except AddressNotAllowed as exc:
            reason = str(exc).removeprefix("address not allowed: ")
            raise EngineSettingsError(
                key,
                (
                    f"address not allowed ({reason}): the arena calls public addresses only. A host name "
                    "that resolves to such an address is refused when the entry is called"
                    + (f"; {allow_hint(exc.address, setting)}" if setting else "")
                ),
            ) from None
        except ValueError as exc:
            raise EngineSettingsError(key, str(exc)) from None
