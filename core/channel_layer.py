"""The Redis channel layer of services mode: channels_redis's, with fewer Redis round trips.

Sending: channels_redis's `group_send` makes four sequential round trips per group (expire old members,
read the members, expire old messages, send); a chat message goes to its conversation's group and to
the organisers' live view, so that was eight. Here a `group_send` makes two (one script that expires
old members and reads the members of every group, one pipelined send whose script also expires old
messages), and `group_send_many` sends to several groups in those same two, in order; a send to groups
with no members makes only the first. Scripts go by their SHA (EVALSHA), loaded once per server.

Receiving: channels_redis makes four round trips per message received (restore a backup queue, BZPOPMIN,
back the message up, drop the backup). The backup guards only the awaits it adds itself: a receive
cancelled while BZPOPMIN's reply is in flight loses that message with or without it. Here a receive pops
every waiting message of the channel in one ZPOPMIN and hands them out in order from memory, blocking
in BZPOPMIN only when there is none: one round trip per burst instead of four per message. The pop runs
shielded from the receiver's cancellation (a consumer whose websocket closes while it holds the
process channel's receive lock): what Redis already handed over goes to the next receiver, not lost.

Keys, message format, capacities and expiry are channels_redis's own: this layer and the stock one can
serve the same Redis at the same time (pushes are notifications; pages re-read state on reconnect).
"""
import asyncio
import collections
import hashlib
import logging
import time

from channels_redis.core import RedisChannelLayer as StockRedisChannelLayer
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


SEND, MEMBERS = LuaScript(SEND_LUA), LuaScript(MEMBERS_LUA)


class RedisChannelLayer(StockRedisChannelLayer):
    receive_batch = 64  # messages popped at most per round trip

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._popped: dict[str, collections.deque] = {}  # channel key -> members popped, not yet handed out
        self._fetches: dict[tuple, asyncio.Future] = {}  # (event loop, channel key) -> its pop in flight

    async def group_send(self, group, message):
        await self.group_send_many([(group, message)])

    async def group_send_many(self, sends):
        """Send each (group, message) of `sends` to the group's members, in the order given."""
        now = time.time()
        members = await self._members([group for group, _ in sends], now)
        deliveries = collections.defaultdict(list)  # connection index -> [(group, keys, args)]
        for position, ((group, message), channel_names) in enumerate(zip(sends, members)):
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

    async def _members(self, group_names, now) -> list[list[str]]:
        """The live members of each group: one script call per Redis host."""
        members: list[list[str]] = [[] for _ in group_names]
        by_connection = collections.defaultdict(list)
        for position, group in enumerate(group_names):
            assert self.require_valid_group_name(group), "Group name not valid"
            by_connection[self.consistent_hash(group)].append((position, self._group_key(group)))
        for index, items in by_connection.items():
            results = await MEMBERS.run(self.connection(index), [key for _, key in items], [int(now) - self.group_expiry])
            for (position, _), names in zip(items, results):
                members[position] = [name.decode("utf8") for name in names]
        return members

    # --- receiving -----------------------------------------------------------------------------------
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
