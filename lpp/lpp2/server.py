"""The LPP2 socket.io servers and this process's hub.

Two servers answer at /socket.io/: python-socketio 5 (Engine.IO 4: socket.io 3+ clients) and the
aliased python-socketio 4 (``socketio_v4`` over ``engineio_v3``: Engine.IO 3, the reference pages'
socket.io 1.4.5 client); ``lpp.lpp2.asgi`` picks one by the ``EIO`` query parameter. Both register the
same handlers, which hand each event to ``events.lpp2_event`` (one database visit in a thread).

Delivery goes through the channel layer, not a socket.io client manager, so that both generations,
every daphne process and the platform's own consoles share one path: a stored message is published by
the arena on its conversation's group (``arena.groups.conversation_group``) and every process's hub
that follows that conversation relays it to its local sockets of the recipient (and the webcasts of
that judge); the panel's broadcasts go to the contest's group (``lpp.groups.lpp2_group``). A line
sent over LPP2 is relayed by its sender's hub as soon as it is stored, to that process's own sockets,
without waiting for the layer's round trip through Redis; the push of a line stored on the loop
leaves that hub's channel out (``core.channel_layer.LEAVE_OUT``), and where a copy still comes back
(a layer that cannot leave a member out, a line stored on the thread path) whichever of the two
copies reaches the hub second is dropped (``Hub.first_copy``)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from arena.groups import conversation_group
from core.consumers import message_executor
from core.notify import remember_server_loop
from lpp.groups import lpp2_group
from lpp.lpp2 import events, guard, loop_lines, notices, selectors, services
from lpp.protocol import lpp2 as wire

log = logging.getLogger("lpp.lpp2")
HEARTBEAT_S = 30
LANES = 4  # lanes of one socket (a judge has two partners)
PENDING = 64  # events of one socket taken and not yet handled, before its reader waits
WARM_FRESH_S = selectors.STATIC_TTL_S - 2  # the beat reads the seats again this often (before their TTL ends)
DROPPED_KEPT = 1_000  # names whose last socket's close this hub remembers
RELAYED_KEPT = 10_000  # lines whose first copy a hub relayed, kept until their second copy arrives


class Client:
    """One socket of either generation."""

    def __init__(self, server, generation: int, sid: str, base_url: str = ""):
        self.server, self.generation, self.sid, self.base_url = server, generation, sid, base_url
        self.key = (generation, sid)
        self.lpp2_id: int | None = None
        self.name: str | None = None
        self.webcast: tuple | None = None  # (round number, judge name)
        self.webcast_public: tuple | None = None  # (delay in seconds, {name: alias}): the public webcast
        self.recap_since = None  # a confederate's next recap starts here (None: every line of the round)
        self.bound_at = None  # when the socket was bound to its name: it hears every line stored since live
        self.lanes: dict[str, asyncio.Lock] = {"": asyncio.Lock()}
        self.pending = asyncio.Semaphore(PENDING)  # events taken but not yet handled

    def lane(self, event: str, data) -> asyncio.Lock:
        """What this socket sends is handled in the order sent within a lane: its lines to one partner
        are one lane, everything else another. A judge's lines to its two partners do not wait for each
        other's database visit (at most LANES lanes a socket: lines to names beyond them go in the
        lane of everything else)."""
        key = ""
        if event == "message":
            try:
                to = wire.parse(data).get("to")
            except wire.PayloadError:
                to = None
            if isinstance(to, str) and (f"to {to}" in self.lanes or len(self.lanes) < LANES):
                key = f"to {to}"
        return self.lanes.setdefault(key, asyncio.Lock()) if key else self.lanes[""]

    async def emit(self, event: str, data) -> None:
        target = {"to": self.sid} if self.generation == 5 else {"room": self.sid}
        await self.server.emit(event, data, **target)


class Hub:
    """This process's sockets, and the channel-layer groups it follows for them."""

    def __init__(self):
        self.clients: dict[tuple, Client] = {}
        self.following: dict[int, tuple[str, asyncio.Task]] = {}  # conversation id -> (channel, task)
        self.names: dict[int, tuple] = {}  # conversation id -> (judge, witness, round), read by follow()
        self.contests: dict[int, tuple[str, asyncio.Task]] = {}  # lpp2 id -> (channel, task)
        self.heartbeat: asyncio.Task | None = None
        self.lock = asyncio.Lock()
        self.schedule_state: dict[int, tuple] = {}  # schedule-driven lpp2 id -> (round number, status) last told
        self.relayed: collections.OrderedDict = collections.OrderedDict()  # (conversation id, seq) of one copy relayed
        self.lines: loop_lines.LoopLines | bool | None = None  # lines stored from the loop (False: not here)
        self.tasks: set[asyncio.Task] = set()  # events being handled (``dispatch``)
        self.started = timezone.now()
        self.dropped: collections.OrderedDict = collections.OrderedDict()  # name -> when its last socket here closed

    # --- sockets ---------------------------------------------------------------------------------
    async def connect(self, server, generation: int, sid: str, environ: dict | None = None) -> None:
        remember_server_loop()  # pushes from this process's database threads go out on this loop
        client = Client(server, generation, sid, base_url_of(environ or {}))
        self.clients[(generation, sid)] = client
        if self.heartbeat is None:
            self.heartbeat = asyncio.create_task(self._beat())
        task = asyncio.get_running_loop().create_task(self._greet(client))
        self.tasks.add(task)
        task.add_done_callback(self._done)

    async def _greet(self, client: Client) -> None:
        """Every new socket hears the round first (``events.lpp2_greeting``), so that a reference page
        that reconnected by itself asks for its recap and is bound to its name again."""
        greeting = await database_sync_to_async(events.lpp2_greeting, thread_sensitive=False)()
        await client.emit("roundInformation", greeting)

    def _dropped_since(self, name: str):
        """Where a reconnected page of ``name`` lost the lines: when its last socket here closed, else when
        this server started (the lines stored before were sent to it by the server it was connected to;
        with several servers, lines that another stored while this one was down are in a reload's recap)."""
        return self.dropped.get(name, self.started)

    def _recap_since(self, client: Client):
        """The lines a confederate's recap on ``client`` holds, as (from, until): from, on a registered
        page's socket, every line at first, then the lines since its last recap; on a page that
        reconnected without registering, the lines since it lost them (``_dropped_since``); until the
        socket was bound to the name, as it hears every later line live (the page adds the recap to what
        it shows: no line twice)."""

        def since(name: str):
            if client.name != name:
                return self._dropped_since(name), None
            return client.recap_since, client.bound_at

        return since

    async def disconnect(self, generation: int, sid: str) -> None:
        client = self.clients.pop((generation, sid), None)
        if client is not None and client.name:
            self.dropped[client.name] = timezone.now()
            self.dropped.move_to_end(client.name)
            if len(self.dropped) > DROPPED_KEPT:
                self.dropped.popitem(last=False)
            await database_sync_to_async(services.lpp2_socket_drop)(sid=sid)

    async def dispatch(self, generation: int, sid: str, event: str, data) -> None:
        """Take one event of a socket (in the order it sent them) into its lane (``Client.lane``) and
        return: the socket's next event is read meanwhile. A socket with PENDING events not yet handled
        waits here, so its reader stops reading (a flood queues nothing without bound)."""
        client = self.clients.get((generation, sid))
        if client is None:
            return
        refusal = guard.event_refusal(client, event, data)
        if refusal is not None:  # logged, not kept as a round's problem: a flood must not write rows
            log.warning("LPP2 %s from %s refused: %s", event, client.name or sid, refusal)
            await client.emit("TargetError", wire.target_error(refusal))
            if event == "message" and client.name and notices.shows_notices(client.name):
                await client.emit("message", notices.refused_line(sender=client.name, to=_addressee(data), why=refusal))
            return
        await client.pending.acquire()
        task = asyncio.get_running_loop().create_task(self._in_lane(client, event, data))
        self.tasks.add(task)
        task.add_done_callback(self._done)

    async def _in_lane(self, client: Client, event: str, data) -> None:
        try:
            async with client.lane(event, data):  # taken in the order the tasks were made: the order sent
                await self.event(client.generation, client.sid, event, data)
        finally:
            client.pending.release()

    def _done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("LPP2 event failed", exc_info=task.exception())

    async def event(self, generation: int, sid: str, event: str, data) -> None:
        client = self.clients.get((generation, sid))
        if client is None:
            return
        if client.name is None and client.webcast is None:
            claimant = await database_sync_to_async(events.lpp2_claimant, thread_sensitive=False)(
                event=event, data=data
            )
            if claimant is not None:
                lpp2_id, name, registers = claimant
                # a page that reconnected by itself registers no more: its recaps start where it lost the lines
                client.recap_since = None if registers else self._dropped_since(name)
                await self._bind(client, lpp2_id, name)
        if event == "message" and client.name and await self._line_on_loop(client, data):
            return
        # a thread of the pool, not daphne's one shared database thread: sockets do not queue behind each other;
        # a line on the threads of chat messages (core.consumers.db_message), behind no page's connect
        executor = message_executor() if event == "message" else None
        out = await database_sync_to_async(events.lpp2_event, thread_sensitive=False, executor=executor)(
            event=event, data=data, sid=sid, base_url=client.base_url, recap_since=self._recap_since(client)
        )
        bound = out.register and (out.lpp2_id, out.register) != (client.lpp2_id, client.name)
        if bound:  # before the replies: a page that reconnected hears every line from its first event on
            await self._bind(client, out.lpp2_id, out.register)
        if out.recap_at is not None:
            client.recap_since = out.recap_at
        for name, payload in out.replies:
            await client.emit(name, payload)
        if out.lpp2_id is None:
            return
        if out.line is not None:
            await self._relay_own(out.lpp2_id, out.line)
            return
        if out.webcast:
            client.lpp2_id, client.webcast, client.webcast_public = out.lpp2_id, out.webcast, out.webcast_public
            for wait_s, line in out.webcast_pending:  # stored before the view was set, not yet old enough
                self._send_later(client, wire.dumps(line), wait_s)
        if out.webcast or out.refresh or out.broadcasts:
            await self.follow(out.lpp2_id)
        layer = get_channel_layer()
        for name, payload in out.broadcasts:
            await layer.group_send(lpp2_group(out.lpp2_id), {"type": "lpp2.broadcast", "event": name, "data": payload})
        if out.finals is not None:
            await layer.group_send(
                lpp2_group(out.lpp2_id),
                {"type": "lpp2.broadcast", "event": "finalScore", "data": "{}", "finals": out.finals},
            )

    async def _bind(self, client: Client, lpp2_id: int, name: str) -> None:
        """The socket is ``name``'s from now on (its register, or any event with a valid id and secret: a
        page reconnected after a restart of the server does not register again)."""
        client.lpp2_id, client.name, client.bound_at = lpp2_id, name, timezone.now()
        await database_sync_to_async(services.lpp2_socket_bind, thread_sensitive=False)(
            lpp2_id=lpp2_id, name=name, sid=client.sid
        )
        await self.follow(lpp2_id)

    async def _line_on_loop(self, client: Client, data) -> bool:
        """Whether the line was decided on this loop (``loop_lines``): stored and relayed, or answered
        with TargetError when a database error left it unknown (not sent again: it may be stored);
        False: the thread path decides it."""
        if not await self._lines_ready():
            return False
        try:
            stored = await self.lines.post(data, relay=self._relay_own)
        except loop_lines.LineUnknown as error:
            log.warning("LPP2 line from socket %s: %s", client.sid, error, exc_info=True)
            await client.emit("TargetError", wire.target_error(str(error)))
            return True
        except Exception:
            log.exception("LPP2 line on the loop failed; the thread path decides it")
            return False
        return stored is not None  # stored: relayed by post

    async def _lines_ready(self) -> bool:
        """Whether lines are stored from this loop here (PostgreSQL); the first call opens the loop's
        connections (a hub does it when it first follows a contest: no round's first line waits for them)."""
        if self.lines is None:
            usable = await database_sync_to_async(loop_lines.usable)()
            if self.lines is None:
                self.lines = loop_lines.LoopLines(own_channel=self._own_channel) if usable else False
                if self.lines:
                    await self.lines.open()
        return bool(self.lines)

    async def _relay_own(self, lpp2_id: int, line) -> None:
        """A line this process stored, to its own sockets now (the layer's copy, if one comes here,
        follows: ``first_copy``)."""
        followed = line.layer_copy_here and line.conversation_id in self.following
        if self.first_copy(line.conversation_id, line.seq, followed=followed):
            await self._relay(lpp2_id, line.to, line.judge, line.number, line.data)

    def _own_channel(self, conversation_id: int) -> str | None:
        """This process's channel in the conversation's group (``follow``), if it follows it."""
        followed = self.following.get(conversation_id)
        return followed[0] if followed else None

    # --- what this process follows -----------------------------------------------------------------
    async def follow(self, lpp2_id: int) -> None:
        """Follow the contest's group and the current round's conversations (and no older ones)."""
        layer = get_channel_layer()
        async with self.lock:
            if lpp2_id not in self.contests:
                with contextlib.suppress(Exception):  # a line then goes the thread path
                    await self._lines_ready()
                channel = await layer.new_channel()
                await layer.group_add(lpp2_group(lpp2_id), channel)
                self.contests[lpp2_id] = (channel, asyncio.create_task(self._listen_contest(lpp2_id, channel)))
            lpp2, wanted = await database_sync_to_async(selectors.hub_targets)()
            self.names.update(wanted)
            for conversation_id in set(self.following) - set(wanted):
                channel, task = self.following.pop(conversation_id)
                self.names.pop(conversation_id, None)
                task.cancel()
                close = getattr(layer, "channel_close", None)
                if close is not None:  # a line in flight to it is dropped, not kept in memory for good
                    close(channel)
                await layer.group_discard(conversation_group(conversation_id), channel)
            for conversation_id in set(wanted) - set(self.following):
                channel = await layer.new_channel()
                await layer.group_add(conversation_group(conversation_id), channel)
                self.following[conversation_id] = (
                    channel,
                    asyncio.create_task(self._listen(lpp2, conversation_id, channel)),
                )

    async def _listen_contest(self, lpp2_id: int, channel: str) -> None:
        layer = get_channel_layer()
        while True:
            message = await layer.receive(channel)
            if message.get("type") != "lpp2.broadcast":
                continue
            await self.follow(lpp2_id)  # before the clients hear of a new round, so none of its lines is missed
            finals = message.get("finals")
            for client in list(self.clients.values()):
                if client.lpp2_id != lpp2_id or not client.name:
                    continue
                if finals is not None and client.name not in finals:
                    continue  # the final ranks are the judges'
                with contextlib.suppress(Exception):
                    await client.emit(message["event"], message["data"])
                    if finals is not None:
                        url = f"{client.base_url}{finals[client.name]}"
                        await client.emit("message", notices.rank_line(judge=client.name, url=url))

    async def _listen(self, lpp2, conversation_id: int, channel: str) -> None:
        layer = get_channel_layer()
        while True:
            message = await layer.receive(channel)
            if message.get("type") != "arena.message":
                continue
            names = self.names.get(conversation_id)  # follow() read them with the round
            if names is None or not self.first_copy(conversation_id, message["judge"]["seq"]):
                continue
            judge, witness, number = names
            by_judge = message["judge"]["from"] == "you"
            sender, to = (judge, witness) if by_judge else (witness, judge)
            data = wire.dumps(wire.message_map(sender=sender, to=to, content=message["judge"]["text"]))
            await self._relay(lpp2.pk, to, judge, number, data)

    def first_copy(self, conversation_id: int, seq: int, *, followed: bool = True) -> bool:
        """Whether this is the first of a line's two copies to reach this hub (its sender's own, and the
        channel layer's); the second is dropped. ``followed=False``: no layer copy will come (this hub
        does not follow the conversation), so nothing is kept for it. At most RELAYED_KEPT lines are
        remembered (a copy lost on the way leaves its entry to be pushed out by later lines)."""
        key = (conversation_id, seq)
        if key in self.relayed:
            del self.relayed[key]
            return False
        if followed:
            self.relayed[key] = None
            if len(self.relayed) > RELAYED_KEPT:
                self.relayed.popitem(last=False)
        return True

    async def _relay(self, lpp2_id: int, to: str, judge: str, number: int, data: str) -> None:
        """A line to this process's sockets of its recipient ``to`` and of the webcasts watching ``judge``."""
        for client in list(self.clients.values()):
            if client.lpp2_id != lpp2_id:
                continue
            if client.webcast_public is not None and client.webcast == (number, judge):
                self._relay_later(client, data)
                continue
            if client.name == to or client.webcast == (number, judge):
                try:
                    await client.emit("message", data)
                except Exception:  # a socket closing meanwhile: the line is stored, recap has it
                    log.warning("LPP2 message to %s not sent on socket %s", to, client.sid, exc_info=True)

    def _relay_later(self, client: Client, data: str) -> None:
        """A line to a public webcast: after the contest's spectator delay, its partners under their aliases
        (a line still waiting when the server stops is in the recap the page gets when it asks again)."""
        delay_s, aliases = client.webcast_public
        line = json.loads(data)  # the platform's own relayed line
        shown = wire.dumps({**line, "id": aliases.get(line.get("id"), ""), "to": aliases.get(line.get("to"), "")})
        self._send_later(client, shown, delay_s)

    def _send_later(self, client: Client, data: str, wait_s: float) -> None:
        """A ``message`` to a public webcast's socket in ``wait_s`` seconds, if it still watches then."""
        view = client.webcast

        async def later():
            await asyncio.sleep(max(wait_s, 0.0))
            if self.clients.get(client.key) is client and client.webcast == view:
                with contextlib.suppress(Exception):
                    await client.emit("message", data)

        task = asyncio.get_running_loop().create_task(later())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _beat(self) -> None:
        """Every second, while a client is registered: re-read the lines' cached round, and their seats
        when WARM_FRESH_S old or the round changed (``selectors.hot_path_warm``: no line waits for their
        reload), then tell this process's clients of a schedule-driven contest what the platform's
        schedule did (newRound, startRound, endRound, as the panel would); every HEARTBEAT_S seconds:
        refresh this process's socket rows."""
        ticks = 0
        while True:
            await asyncio.sleep(1.0)
            ticks += 1
            if any(c.name for c in self.clients.values()):
                with contextlib.suppress(Exception):
                    await database_sync_to_async(selectors.hot_path_warm, thread_sensitive=False)(fresh_s=WARM_FRESH_S)
            with contextlib.suppress(Exception):
                await self._follow_schedule()
            if ticks % HEARTBEAT_S == 0:
                sids = [c.sid for c in self.clients.values() if c.name]
                with contextlib.suppress(Exception):
                    await database_sync_to_async(services.lpp2_sockets_touch)(sids=sids)

    async def _follow_schedule(self) -> None:
        ids = {c.lpp2_id for c in self.clients.values() if c.name and c.lpp2_id}
        if not ids:
            return
        changes = await database_sync_to_async(selectors.schedule_changes)(lpp2_ids=ids, told=dict(self.schedule_state))
        for lpp2_id, (state, messages, finals) in changes.items():
            self.schedule_state[lpp2_id] = state
            if messages:
                await self.follow(lpp2_id)
            for message in messages:
                for client in list(self.clients.values()):
                    if client.lpp2_id == lpp2_id and client.name:
                        with contextlib.suppress(Exception):
                            await client.emit("control", message)
            if finals is not None:
                await get_channel_layer().group_send(
                    lpp2_group(lpp2_id),
                    {"type": "lpp2.broadcast", "event": "finalScore", "data": "{}", "finals": finals},
                )


hub = Hub()


def _register(server, generation: int) -> None:
    async def connect(sid, environ=None, *args):
        await hub.connect(server, generation, sid, environ)

    async def disconnect(sid, *args):
        await hub.disconnect(generation, sid)

    server.on("connect", connect)
    server.on("disconnect", disconnect)
    for name in events.CLIENT_EVENTS:

        async def handler(sid, data=None, *args, _name=name):
            await hub.dispatch(generation, sid, _name, data)

        server.on(name, handler)


def base_url_of(environ: dict) -> str:
    """The scheme and host a socket connected to (its judges' ranking links point there); "" if unreadable."""
    host = str(environ.get("HTTP_HOST", ""))[:200]
    if not host or not all(c.isalnum() or c in ".-:[]" for c in host):
        return ""
    scheme = (
        "https"
        if environ.get("wsgi.url_scheme") == "https" or environ.get("HTTP_X_FORWARDED_PROTO") == "https"
        else "http"
    )
    return f"{scheme}://{host}"


def _legacy_manager():
    """python-socketio 4's manager hands coroutines to ``asyncio.wait``, which Python 3.11 refuses: emit
    to each participant in turn instead (LPP2 emits to one socket at a time)."""
    import socketio_v4

    class Manager(socketio_v4.AsyncManager):
        async def emit(self, event, data, namespace, room=None, skip_sid=None, callback=None, **kwargs):
            if namespace not in self.rooms or room not in self.rooms[namespace]:
                return
            skip = skip_sid if isinstance(skip_sid, list) else [skip_sid]
            for sid in list(self.get_participants(namespace, room)):
                if sid not in skip:
                    ack = self._generate_ack_id(sid, namespace, callback) if callback is not None else None
                    await self.server._emit_internal(sid, event, data, namespace, ack)

    return Manager()


def _addressee(data) -> str | None:
    """Whom a refused line was for, where its payload is small enough to read (its notice goes to that pane)."""
    if isinstance(data, str) and len(data) <= wire.MAX_PAYLOAD_CHARS:
        try:
            data = json.loads(data)
        except ValueError:
            return None
    return data.get("to") if isinstance(data, dict) else None


def servers_build() -> tuple:
    """(Engine.IO 4 server, Engine.IO 3 server), handlers registered. Any origin may connect, as with
    the reference server (``io.set('origins','*:*')``): its pages are opened from files. A socket's
    events reach the hub one after another (``async_handlers=False``), which handles them in lanes
    (``Hub.dispatch``): its lines to each partner are stored in the order it sent them; sockets, and a
    judge's two conversations, do not wait for each other."""
    import socketio
    import socketio_v4

    modern = socketio.AsyncServer(
        async_mode="asgi",
        cors_allowed_origins="*",
        async_handlers=False,
        always_connect=True,  # the socket is connected before the connect handler: its greeting comes after
        max_http_buffer_size=guard.MAX_PACKET_BYTES,
    )
    legacy = socketio_v4.AsyncServer(
        async_mode="asgi",
        cors_allowed_origins="*",
        async_handlers=False,
        always_connect=True,
        client_manager=_legacy_manager(),
        max_http_buffer_size=guard.MAX_PACKET_BYTES,
    )
    _register(modern, 5)
    _register(legacy, 4)
    return modern, legacy
