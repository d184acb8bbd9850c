"""A page closing at the wrong moment must not cost another page its push (services mode, real Redis).

All the consoles of one daphne receive through one process channel in Redis: whichever consumer holds
the receive lock blocks in BZPOPMIN for all of them. When that consumer's websocket closes while Redis is
already handing it a message (the reply in flight), cancelling the pop would lose the message, which is
another page's push (under the soak benchmark's reloading pages, about one push in a few hundred). The
pop runs on, shielded, and what it popped goes to the next receiver.
"""

import asyncio
import os
import secrets
import time

import pytest

from tests.faults.conftest import services_only

pytestmark = [mark for mark in services_only if mark.name != "django_db"]


@pytest.fixture
async def layer():
    from django.conf import settings

    from core.channel_layer import RedisChannelLayer

    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"], prefix=f"faults-cancel-{secrets.token_hex(4)}:")
    layer = RedisChannelLayer(**config)
    yield layer
    await layer.flush()


async def test_a_receive_cancelled_while_redis_hands_it_a_message_loses_nothing(layer):
    import redis

    channel = await layer.new_channel()  # a process-local channel, "specific.<id>!<id>"
    receiver = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0.3)  # blocking in BZPOPMIN
    # Another process sends (a blocking client: this event loop does not run meanwhile), so Redis pops
    # the message for the blocked BZPOPMIN and writes it to its socket before the cancellation below.
    message = {"type": "arena.event", "payload": {"n": 1}, "__asgi_channel__": channel}
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        client.zadd(layer.prefix + layer.non_local_name(channel), {layer.serialize(message): time.time()})
        time.sleep(0.2)
    finally:
        client.close()
    receiver.cancel()  # the page's websocket closed just then
    with pytest.raises(asyncio.CancelledError):
        await receiver
    # the next receive of that process (any other page) still gets what Redis handed over
    received = await asyncio.wait_for(layer.receive(channel), 3)
    assert received == {"type": "arena.event", "payload": {"n": 1}}
