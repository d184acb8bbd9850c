"""What every LPP2 event meets first (``Hub.dispatch``), before any database visit: a payload longer than
``MAX_PAYLOAD_CHARS`` is refused, and a socket's lines are rate-limited like the consoles' message frames
(``ARENA_RATE_MESSAGE_BURST`` at once, refilled at ``ARENA_RATE_MESSAGE_PER_S`` a second: the token bucket of
:mod:`core.ratelimit`). A refused event is answered with ``TargetError`` naming why, and the socket stays
connected.

The socket.io servers take packets of up to ``MAX_PACKET_BYTES`` (``max_http_buffer_size``), below
daphne's limit on a websocket message (1 MiB), so that every payload too long reaches this refusal
rather than closing the connection."""

from __future__ import annotations

import json
import weakref

from core.ratelimit import MESSAGE, socket_buckets
from lpp.protocol import lpp2 as wire

MAX_PACKET_BYTES = 1_000_000
_buckets: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # socket (server.Client) -> its buckets


def _size(data) -> int:
    if isinstance(data, (str, bytes, bytearray)):
        return len(data)
    try:
        return len(json.dumps(data, default=str))
    except (TypeError, ValueError, RecursionError):
        return wire.MAX_PAYLOAD_CHARS + 1


def event_refusal(client, event: str, data) -> str | None:
    """Why this socket's event is refused before it is read; None when it goes on."""
    if _size(data) > wire.MAX_PAYLOAD_CHARS:
        return f"the payload is longer than {wire.MAX_PAYLOAD_CHARS} characters"
    if event == "message":
        buckets = _buckets.get(client)
        if buckets is None:
            buckets = _buckets[client] = socket_buckets()
        if not buckets[MESSAGE].take():
            return "too many lines: this one was refused (wait a moment)"
    return None
