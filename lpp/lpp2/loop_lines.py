"""LPP2 lines stored from daphne's event loop, on PostgreSQL: no thread hop for the common line.

A line whose contest, round, identity and seat are all in this process's caches (``selectors``: the
hub's beat keeps them warm) is checked on the loop and appended by arena's one statement
(``arena.services.appends_pg.CALL``) over one of a few async psycopg connections of this process,
in autocommit: the line is committed when the answer arrives, before anything is pushed. Its pushes
then leave on this loop's pump (``core.notify``), its spectator release and any machine reply from a
thread (they may reach the broker). Anything else (a cache miss, a refusal of any kind, an empty or
over-long text, no PostgreSQL) returns None, and the caller decides the line on the thread path
(``events.lpp2_event``), which reads afresh and answers why.

Unlike the thread path (a thread of the pool, Django's cursor, the result handed back to the loop), a
line here waits neither for a free thread nor for the loop to take its result back: at 8 conversations
those two waits are about 0.7 ms of a line's 4.5 ms at the median on the thread path, and a quarter of its
slowest lines' time."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable

from channels.layers import get_channel_layer
from django.db import connection
from django.utils import timezone

from arena.services import appends_pg
from arena.services.messages import clean_text, message_stored_actions
from core.errors import ArenaError
from lpp.lpp2 import selectors
from lpp.lpp2.services import LINE_MAX_CHARS, Line, line_of

log = logging.getLogger("lpp.lpp2")
CONNECTIONS = 4  # at most this many lines of one process in flight on the database at once
APPLICATION_NAME = "arena-lpp2-lines"  # how these connections show in pg_stat_activity


def usable() -> bool:
    """PostgreSQL in read committed: arena's one-statement append (psycopg 3 is a dependency of the project)."""
    return appends_pg.usable()


class LineUnknown(Exception):
    """The statement was sent and its answer lost: whether the line is stored is unknown."""


class LoopLines:
    """This process's async connections and the lines stored through them."""

    def __init__(self, own_channel: Callable[[int], str | None] = lambda conversation_id: None):
        self.idle: list = []  # open connections not in use, the one idle longest first
        self.opened = 0  # connections of this process: idle, in use, or being opened (at most CONNECTIONS)
        self.freed = asyncio.Event()  # set when a connection goes back idle or is closed
        self.slots = asyncio.Semaphore(CONNECTIONS)
        self.params = connection_params()
        self.own_channel = own_channel  # conversation id -> this process's hub's channel in its group, if any

    async def post(self, data, relay: Callable[[int, Line], Awaitable] | None = None) -> tuple[int, Line | None] | None:
        """(the contest's LPP2 id, the stored line), or None: the thread path decides the line. Once the
        line is stored nothing raises: a failure after the append is logged and the line given as None
        (stored; the channel layer's copy still brings it to this process's sockets).

        The caller relays the line to this process's sockets itself (``relay(lpp2 id, line)``, awaited
        before the line's pushes are queued: the partner's frame leaves first), so the conversation's
        push leaves out this process's own channel (``own_channel``) where the layer can: no copy of
        the line comes back through Redis to be dropped (``Line.layer_copy_here`` False)."""
        target = _target_cached(data)
        if target is None:
            return None
        lpp2_id, identity, to, number, conversation_id, role, user, content = target
        try:
            text = clean_text(content, exact=True, max_chars=LINE_MAX_CHARS)
        except ArenaError:
            return None
        args = [conversation_id, role, user.pk if user is not None else None, text, timezone.now(), user is not None]
        async with self.slots:
            row = await self._execute(args)
        if row is None:
            return None
        found = appends_pg.appended(row, sender_role=role, text=text)
        if found.outcome != "ok":
            return (
                None  # decided again on the thread path, which answers why (and closes a conversation whose time is up)
            )
        return lpp2_id, await self._after_append(found, lpp2_id, identity.name, to, number, role, relay)

    async def _after_append(
        self, found, lpp2_id: int, sender: str, to: str, number: int, role: str, relay
    ) -> Line | None:
        """What follows a stored line, none of which raises (the line is never decided again on the
        thread path): its relay to this process's sockets, then its pushes and spectator release."""
        message = found.message
        try:
            line = line_of(sender=sender, to=to, role=role, number=number, message=message)
        except Exception:
            log.exception("LPP2 line %s/%s stored, but its relay failed", message.conversation_id, message.seq)
            line = None
        skip = (
            self.own_channel(message.conversation_id)
            if line is not None and getattr(get_channel_layer(), "leaves_out", False)
            else None
        )
        if skip:
            line = dataclasses.replace(line, layer_copy_here=False)
        try:
            if relay is not None and line is not None:
                await relay(lpp2_id, line)
        except Exception:
            log.exception("LPP2 line %s/%s stored, but its relay failed", message.conversation_id, message.seq)
        try:
            push, later = message_stored_actions(found, sender_role=role, leave_out=skip)
            push()
            loop = asyncio.get_running_loop()
            for action in later:
                loop.run_in_executor(None, action)
        except Exception:
            log.exception("LPP2 line %s/%s stored, but what follows it failed", message.conversation_id, message.seq)
        return line

    async def open(self) -> None:
        """Open the connections now (the first lines would otherwise wait for them); lines posted
        meanwhile take each as it opens, and never more than CONNECTIONS are open at once."""
        import psycopg

        try:
            while self.opened < CONNECTIONS:
                conn = await self._connect()
                try:
                    await conn.execute(appends_pg.CALL, warm_args())
                except psycopg.Error:
                    await self._drop(conn)
                    raise
                self._idle(conn)
        except psycopg.Error:
            log.warning(
                "LPP2: the loop's database connections did not open; they are tried again per line", exc_info=True
            )

    async def _connect(self):
        """A new connection, counted in ``opened`` from the moment it is asked for."""
        import psycopg

        self.opened += 1
        try:
            return await psycopg.AsyncConnection.connect(**self.params, autocommit=True)
        except BaseException:
            self.opened -= 1
            self.freed.set()
            raise

    async def _take(self):
        """The connection idle longest; a new one while fewer than CONNECTIONS are open; else the next
        to go back idle (one being opened by ``open``: a line holds a slot, so not all are in use)."""
        while not self.idle and self.opened >= CONNECTIONS:
            self.freed.clear()
            await self.freed.wait()
        return self.idle.pop(0) if self.idle else await self._connect()

    def _idle(self, conn) -> None:
        self.idle.append(conn)
        self.freed.set()

    async def _drop(self, conn) -> None:
        self.opened -= 1
        self.freed.set()
        await conn.close()

    async def _execute(self, args) -> tuple | None:
        """The append's answer row; None when no connection could be had (the statement was not sent).
        A connection that fails mid-statement is dropped and the error raised: whether the line was
        stored is then unknown, and the caller says so rather than store it twice."""
        import psycopg

        try:  # the connection idle longest: lines take them in turn, so every session stays warm
            conn = await self._take()
        except psycopg.Error:
            log.warning("LPP2: no database connection on the loop; the line goes the thread path", exc_info=True)
            return None
        try:
            cursor = await conn.execute(appends_pg.CALL, args)
            row = await cursor.fetchone()
        except BaseException as error:
            await self._drop(conn)
            if isinstance(error, psycopg.Error):
                raise LineUnknown("The line may not have been stored (a database error): ask for the recap.") from error
            raise
        self._idle(conn)
        return row

    async def close(self) -> None:
        while self.idle:
            await self._drop(self.idle.pop())


def connection_params() -> dict:
    """Django's connection settings for a plain psycopg connection: its adapters and cursor class are
    Django's own business; the session speaks UTC as Django's does (aware datetimes either way), and
    names itself APPLICATION_NAME. The append's statements (primary-key and index lookups) use their
    generic plans from the first call (``plan_cache_mode``, PostgreSQL 12+): by default a session plans
    them afresh for its first five calls, each twice as slow as the ones after."""
    params = connection.get_connection_params()
    for key in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(key, None)
    options = params.pop("options", "")
    params["options"] = f"{options} -c TimeZone=UTC -c plan_cache_mode=force_generic_plan".strip()
    params["application_name"] = APPLICATION_NAME
    return params


def warm_args() -> list:
    """The append's arguments for no conversation (answered "missing", nothing locked or written): the
    function's first call on a session costs ~6 ms more (catalogs, plans), which this call pays first."""
    return [0, "interrogator", None, "", timezone.now(), False]


def _target_cached(data) -> tuple | None:
    """From this process's caches only (no query): (lpp2 id, identity, to, round number, conversation id,
    sender role, user, content) for an accepted sender and partner, else None."""
    sender = selectors.line_sender(data, load=False)
    if sender is None or sender[3].participant_id is None:
        return None
    payload, lpp2, number, identity = sender
    to = payload.get("to")  # the seats: None if their time ran out since
    _, partner = selectors.seat_partner(
        selectors.contest_static_peek(lpp2=lpp2), number=number, name=identity.name, to=to
    )
    if partner is None:
        return None
    conversation_id, role, user = partner
    return lpp2.pk, identity, to, number, conversation_id, role, user, payload.get("content")
