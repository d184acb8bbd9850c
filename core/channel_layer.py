"""The Redis channel layer of services mode: channels_redis's, with fewer Redis round trips.

Sending: channels_redis's `group_send` makes four sequential round trips per group (expire old members,
read the members, expire old messages, send); a chat message goes to its conversation's group and to
the organisers' live view, so that was eight. Here `group_send_many` sends to several groups, in order,
in one round trip: one script expires old members, reads the members of every group and adds the
message to each member's channel (expiring old messages, within capacity), writing the message for
each channel key as channels_redis would (msgpack, `__asgi_channel__` naming the key's channels,
behind the random prefix). That needs the group's and the channels' keys on one server and the plain
format: one Redis host, no per-channel capacities, no encryption. Otherwise two round trips: one
script for the members of every group, one pipelined send. Scripts go by their SHA (EVALSHA), loaded
once per server. A message may name one member that does not get it (``LEAVE_OUT``): an LPP2 hub relays
the line it stored to its own sockets itself, and a copy through Redis would only be dropped there.

Receiving: channels_redis makes four round trips per message received (restore a backup queue, BZPOPMIN,
back the message up, drop the backup). The backup guards only the awaits it adds itself: a receive
cancelled while BZPOPMIN's reply is in flight loses that message with or without it. Here a receive pops
every waiting message of the channel in one ZPOPMIN and hands them out in order from memory, blocking
in BZPOPMIN only when there is none: one round trip per burst instead of four per message. The pop runs
shielded from its reader's cancellation: what Redis already handed over goes to the next reader, not lost.

The consumers of one process share its process channel ("specific.<id>!"). channels_redis hands the
process channel's receive from consumer to consumer under a lock, one message per turn: every message
costs a lock hand-over and a few turns of the event loop (two tasks, `asyncio.wait`, cancellations),
so on a busy daphne a burst of pushes waits in memory behind those turns (the studies benchmark: p90
590 ms from the group send to the consumer's handler). Here one reader task per process reads the
process channel and files every message it pops under its consumer's channel at once; a consumer waits
on its own queue only. The reader runs while any consumer waits and stops with the last; a Redis
failure reaches every waiting consumer (as each would have met it in its turn), which then closes and
its page reconnects and re-reads its state.

Keys, message format, capacities and expiry are channels_redis's own: this layer and the stock one can
serve the same Redis at the same time (pushes are notifications; pages re-read state on reconnect).
"""

import asyncio
import collections
import hashlib
import logging
import random
import time

from channels_redis.core import RedisChannelLayer as StockRedisChannelLayer
from channels_redis.serializers import MsgPackSerializer
from redis.exceptions import NoScriptError

log = logging.getLogger(__name__)

# KEYS: channel keys; ARGV: one message per key, one capacity per key, then now and expiry.
SEND_LUA = """
local now = tonumber(ARGV[#ARGV - 1])
local expiry = tonumber(ARGV[#ARGV])
local over_capacity = 0
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, math.floor(now) - expiry)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""
# KEYS: group keys; ARGV: the score below which a membership has expired. The members of each group.
MEMBERS_LUA = """
local cutoff = tonumber(ARGV[1])
local members = {}
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, cutoff)
    members[i] = redis.call('ZRANGE', KEYS[i], 0, -1)
end
return members
"""
# KEYS: group keys, one per send. ARGV: the membership cutoff, the message expiry, the channels'
# capacity, the channel-key prefix, then per send: its score, its random prefix, its msgpack map
# without the map's header, that map's number of entries, and the member left out ('' for none).
# Returns how many channel keys were full.
GROUP_SEND_LUA = """
local cutoff, expiry, capacity, prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local function sized(n, small, limit, wide16, wide32)
    if n < limit then return string.char(small + n) end
    if n < 65536 then return string.char(wide16, math.floor(n / 256), n % 256) end
    return string.char(wide32, math.floor(n / 16777216) % 256, math.floor(n / 65536) % 256,
                       math.floor(n / 256) % 256, n % 256)
end
local function str(s)
    if #s >= 32 and #s < 256 then return string.char(0xd9, #s) .. s end
    return sized(#s, 0xa0, 32, 0xda, 0xdb) .. s
end
local channel_field = str('__asgi_channel__')
local over_capacity = 0
for i = 1, #KEYS do
    local at = 4 + (i - 1) * 5
    local score, random_prefix = tonumber(ARGV[at + 1]), ARGV[at + 2]
    local body, entries = ARGV[at + 3], tonumber(ARGV[at + 4])
    local left_out = ARGV[at + 5]
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, cutoff)
    local order, names = {}, {}
    for _, name in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
        if name ~= left_out then
            local bang = string.find(name, '!', 1, true)
            local key = prefix .. (bang and string.sub(name, 1, bang) or name)
            if names[key] == nil then
                names[key] = {}
                order[#order + 1] = key
            end
            table.insert(names[key], str(name))
        end
    end
    for _, key in ipairs(order) do
        local message = random_prefix .. sized(entries + 1, 0x80, 16, 0xde, 0xdf) .. body .. channel_field
            .. sized(#names[key], 0x90, 16, 0xdc, 0xdd) .. table.concat(names[key])
        redis.call('ZREMRANGEBYSCORE', key, 0, math.floor(score) - expiry)
        if redis.call('ZCOUNT', key, '-inf', '+inf') < capacity then
            redis.call('ZADD', key, score, message)
            redis.call('EXPIRE', key, expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
end
return over_capacity
"""


LEAVE_OUT = "__leave_out__"  # in a group send's message: the one member channel that does not get it


def left_out(message: dict) -> tuple[dict, str | None]:
    """(the message without LEAVE_OUT, the channel it names or None)."""
    if LEAVE_OUT not in message:
        return message, None
    message = dict(message)
    return message, message.pop(LEAVE_OUT)


def map_header(packed: bytes) -> tuple[int, int]:
    """(header length, number of entries) of a msgpack map."""
    first = packed[0]
    if 0x80 <= first <= 0x8F:
        return 1, first & 0x0F
    if first == 0xDE:
        return 3, int.from_bytes(packed[1:3], "big")
    if first == 0xDF:
        return 5, int.from_bytes(packed[1:5], "big")
    raise ValueError("not a msgpack map")


class LuaScript:
    """A script run by its SHA (EVALSHA: the source is sent only when the server lacks it)."""

    def __init__(self, source: str):
        self.source, self.sha = source, hashlib.sha1(source.encode()).hexdigest()

    async def run(self, connection, keys, args):
        try:
            return await connection.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:  # a restarted or flushed server
            await connection.script_load(self.source)
            return await connection.evalsha(self.sha, len(keys), *keys, *args)

    async def run_many(self, connection, calls) -> list:
        """Several (keys, args) calls in one pipelined round trip, results in order."""
        pipe = connection.pipeline(transaction=False)
        for keys, args in calls:
            pipe.evalsha(self.sha, len(keys), *keys, *args)
        results = await pipe.execute(raise_on_error=False)
        missing = [i for i, result in enumerate(results) if isinstance(result, NoScriptError)]
        if missing:  # the server lacks the script (then every call failed): load it, run those again
            await connection.script_load(self.source)
            pipe = connection.pipeline(transaction=False)
            for i in missing:
                keys, args = calls[i]
                pipe.evalsha(self.sha, len(keys), *keys, *args)
            for i, result in zip(missing, await pipe.execute(raise_on_error=False)):
                results[i] = result
        for result in results:
            if isinstance(result, Exception):
                raise result
        return results


SEND, MEMBERS, GROUP_SEND = LuaScript(SEND_LUA), LuaScript(MEMBERS_LUA), LuaScript(GROUP_SEND_LUA)


class ReceiveBuffers(collections.defaultdict):
    """channels_redis's per-channel receive buffers (``layer.receive_buffer``), less those of channels
    closed for good. The process's receive loop files every message it pops under its channel; one that
    arrives for a consumer already gone (a group send in flight while a page reloads) would sit in a
    buffer nobody reads, for the life of the process. Channel names are never reused, so a closed one is
    remembered (the latest ``remember`` of them) and its messages are dropped."""

    remember = 10_000

    def __init__(self, factory):
        super().__init__(factory)
        self.closed: collections.OrderedDict = collections.OrderedDict()

    def __missing__(self, channel):
        if channel in self.closed:
            return self.default_factory()  # handed out, never stored: what is put in it is dropped
        return super().__missing__(channel)

    def __delitem__(self, channel):
        if channel in self or channel not in self.closed:
            super().__delitem__(channel)

    def close(self, channel: str) -> None:
        self.pop(channel, None)
        self.closed[channel] = None
        while len(self.closed) > self.remember:
            self.closed.popitem(last=False)


class _ReaderFailed:
    """Filed in a waiting consumer's queue when the process channel's reader fails: its receive raises."""

    def __init__(self, error: BaseException):
        self.error = error


class RedisChannelLayer(StockRedisChannelLayer):
    receive_batch = 64  # messages popped at most per round trip
    leaves_out = True  # a group send's message may name one member that does not get it (LEAVE_OUT)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.receive_buffer = ReceiveBuffers(self.receive_buffer.default_factory)
        self._popped: dict[str, collections.deque] = {}  # channel key -> members popped, not yet handed out
        self._fetches: dict[tuple, asyncio.Future] = {}  # (event loop, channel key) -> its pop in flight
        self._reader: asyncio.Task | None = None  # the process channel's reader (`receive`)
        serializer = self._serializer
        # one round trip per batch of group sends where one script can write every message itself
        self.one_trip = (
            len(self.hosts) == 1
            and not self.channel_capacity
            and type(serializer) is MsgPackSerializer
            and serializer.crypter is None
        )

    def channel_close(self, channel: str) -> None:
        """The consumer of ``channel`` is gone for good: drop what waits for it, and what comes later."""
        self.receive_buffer.close(channel)

    async def group_send(self, group, message):
        await self.group_send_many([(group, message)])

    async def group_send_many(self, sends):
        """Send each (group, message) of `sends` to the group's members, in the order given; a message
        with LEAVE_OUT goes to every member but the channel it names (and without that key)."""
        sends = [(group, left_out(message)) for group, message in sends]
        if self.one_trip and not any("__asgi_channel__" in message for _, (message, _) in sends):
            return await self._group_send_one_trip(sends)
        now = time.time()
        members = await self._members([group for group, _ in sends], now)
        deliveries = collections.defaultdict(list)  # connection index -> [(group, keys, args)]
        for position, ((group, (message, skip)), channel_names) in enumerate(zip(sends, members)):
            channel_names = [name for name in channel_names if name != skip]
            if not channel_names:
                continue
            # A channel's messages are a sorted set scored by send time: each send of the batch gets
            # its own, later score, or two messages to one channel could come out in either order.
            score = now + position * 1e-6
            by_connection, key_message, key_capacity = self._map_channel_keys_to_connection(channel_names, message)
            for index, keys in by_connection.items():
                args = [key_message[key] for key in keys] + [key_capacity[key] for key in keys] + [score, self.expiry]
                deliveries[index].append((group, keys, args))
        for index, batch in deliveries.items():
            results = await SEND.run_many(self.connection(index), [(keys, args) for _, keys, args in batch])
            for (group, keys, _), over_capacity in zip(batch, results):
                if over_capacity:
                    log.info("%s of %s channels over capacity in group %s", over_capacity, len(keys), group)

    async def _group_send_one_trip(self, sends) -> None:
        now = time.time()
        prefix_length = self._serializer.random_prefix_length
        keys, args = [], [int(now) - self.group_expiry, self.expiry, self.capacity, self.prefix]
        for position, (group, (message, skip)) in enumerate(sends):
            assert self.require_valid_group_name(group), "Group name not valid"
            packed = self._serializer.as_bytes(message)
            header, entries = map_header(packed)
            keys.append(self._group_key(group))
            # each send its own, later score: two messages to one channel keep their order
            args += [
                repr(now + position * 1e-6),
                random.getrandbits(8 * prefix_length).to_bytes(prefix_length, "big"),
                packed[header:],
                entries,
                skip or "",
            ]
        over_capacity = await GROUP_SEND.run(self.connection(0), keys, args)
        if over_capacity:
            log.info("%s channels over capacity in a send to groups %s", over_capacity, [g for g, _ in sends])

    async def _members(self, group_names, now) -> list[list[str]]:
        """The live members of each group: one script call per Redis host."""
        members: list[list[str]] = [[] for _ in group_names]
        by_connection = collections.defaultdict(list)
        for position, group in enumerate(group_names):
            assert self.require_valid_group_name(group), "Group name not valid"
            by_connection[self.consistent_hash(group)].append((position, self._group_key(group)))
        for index, items in by_connection.items():
            results = await MEMBERS.run(
                self.connection(index), [key for _, key in items], [int(now) - self.group_expiry]
            )
            for (position, _), names in zip(items, results):
                members[position] = [name.decode("utf8") for name in names]
        return members

    # --- receiving -----------------------------------------------------------------------------------
    async def receive(self, channel):
        """The next message of ``channel``. A process-local channel ("...!<id>") waits on its own queue,
        filled by the process's one reader (`_read_process_channel`); any other goes to Redis itself."""
        assert self.require_valid_channel_name(channel)
        if "!" not in channel:
            return (await self.receive_single(channel))[1]
        real_channel = self.non_local_name(channel)
        assert real_channel.endswith(self.client_prefix + "!"), "Wrong client prefix"
        loop = asyncio.get_running_loop()
        self.receive_count += 1
        try:
            if self.receive_count == 1:
                self.receive_event_loop = loop
            elif self.receive_event_loop is not loop:
                raise RuntimeError("Two event loops are trying to receive() on one channel layer at once!")
            buffer = self.receive_buffer[channel]
            if buffer.empty():
                self._reader_start(loop, real_channel)
                try:
                    message = await buffer.get()
                except asyncio.CancelledError:
                    del self.receive_buffer[channel]  # as channels_redis: a consumer cancelled is gone
                    raise
            else:
                message = buffer.get_nowait()
            if buffer.empty():
                del self.receive_buffer[channel]
            if isinstance(message, _ReaderFailed):
                raise message.error
            return message
        finally:
            self.receive_count -= 1
            if self.receive_count == 0:  # the last consumer out stops the reader (a shielded pop runs on)
                self.receive_event_loop = None
                reader, self._reader = self._reader, None
                if reader is not None and not reader.done():
                    reader.cancel()

    def _reader_start(self, loop, real_channel: str) -> None:
        reader = self._reader
        if reader is None or reader.done() or reader.get_loop() is not loop:
            self._reader = loop.create_task(self._read_process_channel(real_channel))

    async def _read_process_channel(self, real_channel: str) -> None:
        """File every message of the process channel under its consumer's channel, as it arrives."""
        try:
            while True:
                message_channel, message = await self.receive_single(real_channel)
                for channel in message_channel if isinstance(message_channel, list) else [message_channel]:
                    self.receive_buffer[channel].put_nowait(message)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # Redis gone: every consumer waiting now fails, as it would in its turn
            log.warning("the process channel's reader failed: %r", error)
            failed = _ReaderFailed(error)
            for buffer in list(self.receive_buffer.values()):
                buffer.put_nowait(failed)
            if self._reader is asyncio.current_task():
                self._reader = None

    async def receive_single(self, channel):
        """The next message of `channel` (a process's own "...!" channel or a plain one): (channel, message)."""
        assert self.require_valid_channel_name(channel, receive=True), "Channel name invalid"
        if "!" in channel:
            assert channel.endswith("!")
            index = self.consistent_hash(channel)
        else:
            index = next(self._receive_index_generator)
        key = self.prefix + channel
        popped = self._popped.setdefault(key, collections.deque())
        while not popped:
            # Shielded: a receiver cancelled while Redis is handing it a message (a page closing just
            # then) leaves the pop to finish; what it pops waits here for the process's next receiver,
            # instead of being lost with the cancelled command.
            loop = asyncio.get_running_loop()
            fetch = self._fetches.get((loop, key))
            if fetch is not None and fetch.done():
                # Finished, its callback not run yet (a reader started just then): awaiting it again would
                # not yield, and this loop would spin on it forever with the event loop frozen.
                self._fetch_done((loop, key), fetch)
                fetch = None
            if fetch is None:
                fetch = self._fetches[(loop, key)] = asyncio.ensure_future(self._fetch(index, key, popped))
                fetch.add_done_callback(lambda done, slot=(loop, key): self._fetch_done(slot, done))
            await asyncio.shield(fetch)
        message = self.deserialize(popped.popleft())
        if "__asgi_channel__" in message:  # a process-local channel, or several of them (a group send)
            channel = message.pop("__asgi_channel__")
        return channel, message

    async def _fetch(self, index: int, key: str, popped: collections.deque) -> None:
        """Pop every waiting message of `key` into `popped`, blocking (BZPOPMIN) while there is none."""
        connection = self.connection(index)
        batch = await connection.zpopmin(key, self.receive_batch)
        if batch:
            popped.extend(member for member, _ in batch)
            return
        result = await connection.bzpopmin(key, timeout=self.brpop_timeout)
        if result is not None:
            popped.append(result[1])

    def _fetch_done(self, slot, fetch: asyncio.Future) -> None:
        if self._fetches.get(slot) is fetch:
            del self._fetches[slot]
        if not fetch.cancelled():
            fetch.exception()  # retrieved: a failure reaches the receiver that awaits it, or none
