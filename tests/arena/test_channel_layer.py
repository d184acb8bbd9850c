"""core.channel_layer: channels_redis's layer with group sends in two round trips, on a real Redis."""

import asyncio
import os
import time

import pytest
from channels_redis.core import RedisChannelLayer as StockLayer

from core.channel_layer import LEAVE_OUT, RedisChannelLayer
from tests.conftest import redis_available

URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
pytestmark = pytest.mark.skipif(not redis_available(URL), reason="no Redis server reachable (set REDIS_URL)")


def layer_pair(**config):
    prefix = f"arena-layer-test-{os.getpid()}-{time.monotonic_ns()}"
    host = {"address": URL, "socket_timeout": None}
    return RedisChannelLayer(hosts=[host], prefix=prefix, **config), StockLayer(hosts=[host], prefix=prefix)


async def receive(layer, channel, timeout=10.0):
    """The next message of ``channel``; a message that is due comes at once, so a long wait costs a passing
    test nothing and spares a loaded machine false failures (the tests that expect nothing pass 0.3 s)."""
    return await asyncio.wait_for(layer.receive(channel), timeout)


async def test_group_send_many_delivers_in_order_to_every_member():
    layer, _ = layer_pair()
    try:
        judge, witness, other = await layer.new_channel(), await layer.new_channel(), await layer.new_channel()
        await layer.group_add("conversation.1", judge)
        await layer.group_add("conversation.1", witness)
        await layer.group_add("judge.1", judge)
        await layer.group_add("conversation.2", other)
        for k in range(8):
            await layer.group_add(f"topic.{k}", judge)
        await layer.group_send_many(
            [
                ("conversation.1", {"type": "m", "n": 1}),
                ("monitor", {"type": "m", "n": 2}),  # nobody watches: sent to no one, no error
                ("judge.1", {"type": "m", "n": 3}),
                ("conversation.2", {"type": "m", "n": 4}),
            ]
            + [(f"topic.{k}", {"type": "m", "n": 10 + k}) for k in range(8)]
        )
        assert [(await receive(layer, judge))["n"] for _ in range(10)] == [1, 3] + list(range(10, 18))
        assert (await receive(layer, witness))["n"] == 1
        assert (await receive(layer, other))["n"] == 4
        with pytest.raises(asyncio.TimeoutError):  # nothing else arrives
            await receive(layer, witness, timeout=0.3)
    finally:
        await layer.flush()


async def test_messages_cross_between_this_layer_and_channels_redis_own():
    """Same keys, same format: a stock channels_redis process and this one can share a Redis."""
    layer, stock = layer_pair()
    try:
        mine, theirs = await layer.new_channel(), await stock.new_channel()
        await stock.group_add("g", mine)
        await layer.group_add("g", theirs)
        await layer.group_send("g", {"type": "m", "text": "from arena's layer"})
        assert (await receive(stock, theirs))["text"] == "from arena's layer"
        assert (await receive(layer, mine))["text"] == "from arena's layer"
        await stock.group_send("g", {"type": "m", "text": "from the stock layer"})
        assert (await receive(layer, mine))["text"] == "from the stock layer"
    finally:
        await layer.flush()
        await stock.close_pools()


@pytest.mark.slow
async def test_expired_members_and_full_channels_get_nothing():
    layer, _ = layer_pair(group_expiry=1, capacity=1)
    try:
        stale, fresh = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g", stale)
        await asyncio.sleep(2.1)  # group membership expires after group_expiry seconds
        await layer.group_add("g", fresh)
        await layer.group_send("g", {"type": "m", "n": 1})
        await layer.group_send("g", {"type": "m", "n": 2})  # capacity 1: dropped, as channels_redis does
        assert (await receive(layer, fresh))["n"] == 1
        with pytest.raises(asyncio.TimeoutError):
            await receive(layer, fresh, timeout=0.3)
        with pytest.raises(asyncio.TimeoutError):
            await receive(layer, stale, timeout=0.3)
    finally:
        await layer.flush()


async def test_sends_go_on_after_the_server_forgets_the_scripts():
    """Scripts run by SHA; a restarted Redis (here: SCRIPT FLUSH) has none, and the layer loads them
    again instead of losing the send."""
    layer, _ = layer_pair()
    try:
        first, second = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g", first)
        await layer.group_add("h", second)
        await layer.group_send_many([("g", {"type": "m", "n": 1})])
        assert (await receive(layer, first))["n"] == 1
        await layer.connection(0).script_flush()
        await layer.group_send_many([("g", {"type": "m", "n": 2}), ("h", {"type": "m", "n": 3})])
        assert (await receive(layer, first))["n"] == 2
        assert (await receive(layer, second))["n"] == 3
    finally:
        await layer.flush()


async def test_one_round_trip_sends_write_exactly_what_channels_redis_would():
    """The one-trip script writes each channel key's message itself: byte for byte the stock layer's
    (after the random prefix), for process-local and plain channels, long names, wide maps."""
    layer, stock = layer_pair()
    assert layer.one_trip
    try:
        local_a, local_b = await layer.new_channel(), await layer.new_channel()
        plain = "plain-channel-" + "x" * 40  # a str8 name
        for channel in (local_a, local_b, plain):
            await layer.group_add("g", channel)
        message = {"type": "m", **{f"field{k}": k for k in range(20)}, "text": "é" * 300, "nested": {"a": [1, 2]}}
        calls = []
        original = layer._group_send_one_trip

        async def counted(sends):
            calls.append(sends)
            await original(sends)

        layer._group_send_one_trip = counted
        await layer.group_send("g", message)
        assert len(calls) == 1
        expected_keys, expected = stock._map_channel_keys_to_connection([local_a, local_b, plain], message)[:2]
        connection = layer.connection(0)
        for key in expected_keys[0]:
            stored = await connection.zrange(key, 0, -1)
            assert len(stored) == 1
            assert stored[0][12:] == expected[key][12:]
        assert (await receive(layer, local_a)) == message and (await receive(layer, local_b)) == message
        assert (await receive(stock, plain)) == message
    finally:
        await layer.flush()
        await stock.close_pools()


async def test_the_two_trip_send_is_kept_where_one_script_cannot_write_the_messages():
    layer, _ = layer_pair(channel_capacity={"special.*": 5})
    assert not layer.one_trip
    try:
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        await layer.group_send("g", {"type": "m", "n": 1})
        assert (await receive(layer, channel))["n"] == 1
    finally:
        await layer.flush()


@pytest.mark.parametrize("config", [{}, {"channel_capacity": {"special.*": 5}}], ids=["one trip", "two trips"])
async def test_a_send_can_leave_out_the_member_that_has_the_message_already(config):
    """An LPP2 hub relays the line it stored itself: the conversation's push names the hub's channel,
    which gets nothing; every other member (a console, another process's hub) gets the message as sent."""
    layer, stock = layer_pair(**config)
    try:
        own, console, other_process = await layer.new_channel(), await layer.new_channel(), await stock.new_channel()
        for channel in (own, console, other_process):
            await layer.group_add("conversation.1", channel)
        await layer.group_add("monitor", own)
        await layer.group_send_many(
            [("conversation.1", {"type": "m", "n": 1, LEAVE_OUT: own}), ("monitor", {"type": "m", "n": 2})]
        )
        assert await receive(layer, console) == {"type": "m", "n": 1}
        assert await receive(stock, other_process) == {"type": "m", "n": 1}
        assert (await receive(layer, own))["n"] == 2  # the other group's message only
        with pytest.raises(asyncio.TimeoutError):
            await receive(layer, own, timeout=0.3)
    finally:
        await layer.flush()
        await stock.close_pools()


async def test_nothing_waits_in_this_process_for_a_consumer_gone_for_good():
    """A group send in flight while a page closes: the message for the closed consumer's channel is
    popped by the process's receive loop with the others'. Filed under its channel, it would stay in
    memory for the life of the process (the soak benchmark's daphne grew by ~15 kB a page reload)."""
    layer, _ = layer_pair()
    try:
        gone, alive = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("conversation.1", gone)
        await layer.group_add("conversation.1", alive)
        waiting = asyncio.ensure_future(receive(layer, gone, timeout=5))
        await asyncio.sleep(0.05)
        await layer.group_send("conversation.1", {"type": "m", "n": 1})
        assert (await waiting)["n"] == 1 and (await receive(layer, alive))["n"] == 1
        layer.channel_close(gone)  # its consumer disconnected (core.consumers.BaseConsumer.disconnect)
        await layer.group_send("conversation.1", {"type": "m", "n": 2})  # sent before the discard lands
        await layer.group_discard("conversation.1", gone)
        assert (await receive(layer, alive))["n"] == 2
        assert gone not in layer.receive_buffer and alive not in layer.receive_buffer
        assert dict(layer.receive_buffer) == {}
    finally:
        await layer.flush()


async def test_one_reader_files_a_burst_for_many_consumers_in_order():
    """The process channel's one reader hands every consumer its own messages, in the order sent."""
    layer, _ = layer_pair()
    try:
        channels = [await layer.new_channel() for _ in range(30)]  # 90 messages: under the capacity (100)
        for i, channel in enumerate(channels):
            await layer.group_add(f"conversation.{i}", channel)
        waiting = [asyncio.ensure_future(receive(layer, channel)) for channel in channels]
        await asyncio.sleep(0.05)
        await layer.group_send_many(
            [(f"conversation.{i}", {"type": "m", "n": k}) for k in range(3) for i in range(len(channels))]
        )
        assert [(await w)["n"] for w in waiting] == [0] * len(channels)
        for channel in channels:
            assert [(await receive(layer, channel))["n"] for _ in range(2)] == [1, 2]
        assert dict(layer.receive_buffer) == {}
    finally:
        await layer.flush()


async def test_a_redis_failure_reaches_every_waiting_consumer(monkeypatch):
    """As each consumer would have met it in its turn: each closes, and its page reconnects."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    layer, _ = layer_pair()
    first, second = await layer.new_channel(), await layer.new_channel()

    async def fail(*args):
        await asyncio.sleep(0.05)
        raise RedisConnectionError("gone")

    monkeypatch.setattr(layer, "_fetch", fail)
    waiting = [asyncio.ensure_future(receive(layer, channel)) for channel in (first, second)]
    for w in waiting:
        with pytest.raises(RedisConnectionError):
            await w
    await layer.flush()


async def test_a_finished_pop_whose_callback_has_not_run_is_not_awaited_again():
    """A reader that finds the last pop finished (nothing popped, its done callback still queued) starts
    a new one: awaiting a finished future does not yield, so it would spin with the event loop frozen."""
    layer, _ = layer_pair()
    try:
        channel = await layer.new_channel()
        loop = asyncio.get_running_loop()
        finished = loop.create_future()
        finished.set_result(None)
        layer._fetches[(loop, layer.prefix + layer.non_local_name(channel))] = finished
        await layer.group_add("conversation.1", channel)
        waiting = asyncio.ensure_future(receive(layer, channel))
        await asyncio.sleep(0.05)
        await layer.group_send("conversation.1", {"type": "m", "n": 1})
        assert (await waiting)["n"] == 1
    finally:
        await layer.flush()
