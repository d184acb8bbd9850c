"""The websocket consumer every app's consoles share: authorise on connect, join groups, send the state
from the database, answer every bad frame with one error frame, forward pushes.

Every inbound frame is JSON `{"type": ..., ...}`. Anything malformed, unknown, oversize, late or not the
sender's to do is answered with `{"type": "error", "code": ..., "message": ...}`; nothing is stored and
the connection stays open. So is a frame past the rate limits (:mod:`core.ratelimit`: per socket and per
user, or per address for anonymous sockets, by frame category), with the code ``rate_limited``.

A frame longer than :func:`max_frame_chars` is answered ``too_long``. That limit fits the longest text
any frame carries (a verdict's reason: 4 × ``ARENA_MAX_MESSAGE_CHARS`` characters) written with JSON's
``\\u`` escapes, which take up to 12 characters for one character of the text (a surrogate pair's two
escapes); texts are measured in characters of the decoded text by the services. It stays below the
server's own limit on a websocket message (daphne's 1 MiB, which closes the socket), so every frame
under that one gets its answer.
"""

import json
import logging
import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from core import metrics, notify, ratelimit
from core.errors import ArenaError, NotAllowed
from core.payloads import error

FORBIDDEN = 4403
TOO_MANY = 4429  # an anonymous connect past its address's budget
ESCAPED_CHARS = 12  # "\ud83d\ude00": one character of text, twelve of JSON
log = logging.getLogger(__name__)


class BadFrame(ValueError):
    """A frame that is JSON but carries what no handler should see."""


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e309 parses as inf
        raise BadFrame("Numbers must be finite.")
    return number


def _constant(name: str):
    raise BadFrame(f"{name} is not a number a frame may carry.")  # NaN, Infinity, -Infinity


def parse_frame(text_data: str) -> dict:
    """The frame's JSON object. Raises ValueError (not JSON) or BadFrame: non-finite numbers, and text
    with a lone UTF-16 surrogate (``"\\ud800"`` is valid JSON, but no valid text: it could be neither
    stored in the hash chain nor sent on)."""
    frame = json.loads(text_data, parse_float=_finite, parse_constant=_constant)
    if "\\u" in text_data:  # JSON writes a surrogate only as an escape
        try:
            json.dumps(frame, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise BadFrame("The text contains an invalid character (a lone surrogate).") from None
    return frame


def max_frame_chars() -> int:
    """The longest frame a consumer reads (see the module's note)."""
    return settings.ARENA_MAX_MESSAGE_CHARS * 4 * ESCAPED_CHARS + 1024


def db(func):
    """Run an ORM-touching call off the event loop, in parallel with other conversations' calls
    (each conversation's order is kept by its row lock), rather than on the one shared thread."""
    return database_sync_to_async(func, thread_sensitive=False)


_message_pool: tuple[int, ThreadPoolExecutor] | None = None
_message_pool_lock = threading.Lock()


def message_executor() -> ThreadPoolExecutor:
    """This process's threads for messages' appends (``ARENA_MESSAGE_THREADS``)."""
    global _message_pool
    with _message_pool_lock:
        if _message_pool is None or _message_pool[0] != os.getpid():
            _message_pool = (
                os.getpid(),
                ThreadPoolExecutor(max_workers=settings.ARENA_MESSAGE_THREADS, thread_name_prefix="messages"),
            )
        return _message_pool[1]


def db_message(func):
    """As `db`, for a chat message's append (one statement), on threads of its own: in the shared pool
    a message queued behind pages' connects and state reads and lobby joins waiting for their study's
    row lock (the studies benchmark: p90 160 ms from the frame to the append, the append itself 12)."""
    return database_sync_to_async(func, thread_sensitive=False, executor=message_executor())


class BaseConsumer(AsyncWebsocketConsumer):
    """Connect: `authorise()` loads what the user may see (raising NotAllowed closes with 4403), join
    `groups_to_join()`, accept, and send `state()`; a `{"type": "state"}` frame sends it again.
    Subclasses implement those three (sync: they run in a database thread) and their actions."""

    actions: dict[str, str] = {"state": "on_state"}  # frame type -> method name
    audience = ""  # which payload of an arena.message event this console forwards
    # frame type -> rate-limit category (core.ratelimit); every other action is a "message"
    rate_categories: dict[str, str] = {"typing": ratelimit.TYPING, "keys": ratelimit.TYPING}

    def authorise(self) -> None:
        raise NotImplementedError

    def groups_to_join(self) -> list[str]:
        raise NotImplementedError

    def state(self) -> dict:
        raise NotImplementedError

    async def connect(self):
        if self._anonymous() and not await self._address_allows(ratelimit.MESSAGE):
            return await self.close(code=TOO_MANY)  # a connect reads the whole state: it is a message frame
        try:
            await db(self.authorise)()
        except NotAllowed:
            return await self.close(code=FORBIDDEN)
        for group in self.groups_to_join():
            await self.join(group)
        await self.accept()
        self.metrics_console = type(self).__name__
        metrics.WEBSOCKETS_OPENED.labels(console=self.metrics_console).inc()
        metrics.WEBSOCKETS_OPEN.labels(console=self.metrics_console).inc()
        await self.on_state({})

    async def dispatch(self, message):
        """channels' own dispatch without the hop it makes (since channels 4.2) before every frame and
        every push: `close_old_connections` on the one shared sync thread, a queue all consoles of the
        process wait in. These consumers touch the database only through `database_sync_to_async`,
        which closes old connections in its own thread, before and after each call."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def on_state(self, frame):
        # db(): a (re)connecting page's authorisation and state are read in parallel with other pages'
        # calls, not queued on the one shared thread behind every console's work (daphne drops a
        # handshake not accepted within 5 s)
        await self.send_json(await db(self.state)())

    @property
    def max_frame_chars(self) -> int:
        return max_frame_chars()

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is None:
            return await self.send_error("bad_frame", "Send JSON text frames.")
        if len(text_data) > self.max_frame_chars:
            return await self.send_error("too_long", "The frame is too large.")
        try:
            frame = parse_frame(text_data)
        except BadFrame as exc:
            return await self.send_error("bad_frame", str(exc))
        except (ValueError, RecursionError):
            return await self.send_error("bad_json", "The frame is not valid JSON.")
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            return await self.send_error("bad_frame", 'A frame is a JSON object with a "type".')
        method = self.actions.get(frame["type"])
        if method is None:
            return await self.send_error("unknown_type", f"Unknown frame type {frame['type'][:40]!r}.")
        category = self.rate_categories.get(frame["type"], ratelimit.MESSAGE)
        if not await self.rate_allows(category):
            what = "typing or key frames" if category == ratelimit.TYPING else "messages and requests"
            return await self.send_error("rate_limited", f"Too many {what}: this one was refused. Wait a moment.")
        try:
            await getattr(self, method)(frame)
        except ArenaError as exc:
            await self.send_error(exc.code, str(exc))
        except Exception:  # a bug must cost the sender one frame, not the connection
            log.exception("%s: frame %r failed", type(self).__name__, frame.get("type"))
            await self.send_error("server_error", "The server could not handle that frame; nothing was stored.")

    async def rate_allows(self, category: str) -> bool:
        """This socket's bucket first (in memory), then the user's shared budget (the cache)."""
        buckets = self.__dict__.get("rate_buckets")
        if buckets is None:
            buckets = self.rate_buckets = ratelimit.socket_buckets()
        if not buckets[category].take():
            return False
        if self._anonymous():
            return await self._address_allows(category)
        user_id = self.scope["user"].pk
        try:
            return await ratelimit.rate_user_atake(category=category, user_id=user_id)
        except Exception:  # the cache is down: the socket's own limit still holds
            log.exception("rate limit of user %s: the cache failed", user_id)
            return True

    def _anonymous(self) -> bool:
        return getattr(self.scope.get("user"), "pk", None) is None

    async def _address_allows(self, category: str) -> bool:
        """The budget every anonymous socket of this client address shares (a spectator, a player)."""
        address = (self.scope.get("client") or ["unknown"])[0] or "unknown"
        try:
            return await ratelimit.rate_address_atake(category=category, address=str(address))
        except Exception:  # the cache is down: the socket's own limit still holds
            log.exception("rate limit of address %s: the cache failed", address)
            return True

    async def send_json(self, payload: dict):
        await self.send(text_data=json.dumps(payload))

    async def send_error(self, code: str, message: str):
        await self.send_json(error(code, message))

    async def arena_message(self, event):
        """A stored message, pushed once to its conversation's group with one payload per audience."""
        payload = event.get(self.audience)
        if payload is not None:
            await self.send_json(payload)
            metrics.delivery_observe(payload.get("at"))

    async def arena_event(self, event):
        if event["payload"].get("type") == "refresh":  # "re-read your state": each audience its own
            return await self.on_state({})
        await self.send_json(event["payload"])

    async def join(self, group: str):
        notify.remember_server_loop()
        self.joined = getattr(self, "joined", []) + [group]
        await self.channel_layer.group_add(group, self.channel_name)

    async def disconnect(self, code):
        console = self.__dict__.pop("metrics_console", None)
        if console is not None:  # accepted, and counted open
            metrics.WEBSOCKETS_OPEN.labels(console=console).dec()
        for group in getattr(self, "joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        close = getattr(self.channel_layer, "channel_close", None)
        if close is not None:  # core.channel_layer: nothing may wait in a buffer for a consumer gone
            close(self.channel_name)
