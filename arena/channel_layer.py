"""The Redis channel layer of services mode: channels_redis's, with fewer Redis round trips.

Sending: channels_redis's `group_send` makes four sequential round trips per group (expire old members,
read the members, expire old messages, send); a chat message goes to its conversation's group and to
the organisers' live view, so that was eight. Here a `group_send` makes two (one pipelined read of the
members, one pipelined send whose Lua script also expires old messages), and `group_send_many` sends to
several groups in those same two, in order.

Receiving: channels_redis makes four round trips per message received (restore a backup queue, BZPOPMIN,
back the message up, drop the backup). The backup guards only the awaits it adds itself: a receive
cancelled while BZPOPMIN's reply is in flight loses that message with or without it. Here a receive pops
every waiting message of the channel in one ZPOPMIN and hands them out in order from memory, blocking
in BZPOPMIN only when there is none: one round trip per burst instead of four per message.

Keys, message format, capacities and expiry are channels_redis's own: this layer and the stock one can
serve the same Redis at the same time (pushes are notifications; pages re-read state on reconnect).
"""
import collections
import logging
import time

from channels_redis.core import RedisChannelLayer as StockRedisChannelLayer

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


class RedisChannelLayer(StockRedisChannelLayer):
    receive_batch = 64  # messages popped at most per round trip

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._popped: dict[str, collections.deque] = {}  # channel key -> members popped, not yet handed out

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
            pipe = self.connection(index).pipeline(transaction=False)
            for _, keys, args in batch:
                pipe.eval(SEND_LUA, len(keys), *keys, *args)
            for (group, keys, _), over_capacity in zip(batch, await pipe.execute()):
                if over_capacity:
                    log.info("%s of %s channels over capacity in group %s", over_capacity, len(keys), group)

    async def _members(self, group_names, now) -> list[list[str]]:
        """The live members of each group: one pipelined round trip per Redis host."""
        members: list[list[str]] = [[] for _ in group_names]
        by_connection = collections.defaultdict(list)
        for position, group in enumerate(group_names):
            assert self.require_valid_group_name(group), "Group name not valid"
            by_connection[self.consistent_hash(group)].append((position, self._group_key(group)))
        for index, items in by_connection.items():
            pipe = self.connection(index).pipeline(transaction=False)
            for _, key in items:
                pipe.zremrangebyscore(key, min=0, max=int(now) - self.group_expiry)
                pipe.zrange(key, 0, -1)
            results = await pipe.execute()
            for (position, _), names in zip(items, results[1::2]):
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
            connection = self.connection(index)
            batch = await connection.zpopmin(key, self.receive_batch)
            if batch:
                popped.extend(member for member, _ in batch)
                break
            result = await connection.bzpopmin(key, timeout=self.brpop_timeout)
            if result is not None:
                popped.append(result[1])
        message = self.deserialize(popped.popleft())
        if "__asgi_channel__" in message:  # a process-local channel, or several of them (a group send)
            channel = message.pop("__asgi_channel__")
        return channel, message
