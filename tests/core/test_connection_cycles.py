"""A server process keeps nothing per connection: pages that reload a hundred times, each sending a
message and leaving while the other side answers, leave no consumer, no per-channel buffer, no group
membership and no rate-limit or push state behind (the soak benchmark's daphne, in a test)."""

import asyncio
import gc
import os
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from core import notify, ratelimit
from core.consumers import BaseConsumer
from tests.arena.helpers import sides, three_party
from tests.arena.wsclient import connect
from tests.conftest import redis_available

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
CYCLES = 100


@pytest.fixture(params=["memory", "redis"])
def layer(request, settings, end_stray_sessions):
    if request.param == "redis":
        url = settings.REDIS_URL or "redis://127.0.0.1:6379/0"
        if not redis_available(url):
            pytest.skip("no Redis server reachable (set REDIS_URL)")
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "core.channel_layer.RedisChannelLayer",
                "CONFIG": {
                    "hosts": [{"address": url, "socket_timeout": None}],
                    "prefix": f"arena-test-cycles-{os.getpid()}",
                },
            }
        }
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # the rate limits are not what is tested here (the witness answers every page from one socket)
    settings.ARENA_RATE_MESSAGE_PER_USER, settings.ARENA_RATE_MESSAGE_PER_S = 10 * CYCLES, 1000.0
    return request.param


def consumers_alive() -> list:
    gc.collect()
    return [o for o in gc.get_objects() if issubclass(type(o), BaseConsumer)]  # (isinstance trips on dead proxies)


async def consumers_gone_to(count: int, timeout_s: float = 5.0) -> int:
    """The consumers alive once those of closed sockets have finished leaving (a closed page's consumer
    runs its disconnect, a database visit among it, after the client's close returns)."""
    deadline = time.monotonic() + timeout_s
    while (alive := len(consumers_alive())) > count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return alive


def memberships(channel_layer) -> int:
    return sum(len(members) for members in getattr(channel_layer, "groups", {}).values())


async def test_pages_that_reload_a_hundred_times_leave_nothing_behind(cast, layer):
    interrogation = await sync_to_async(three_party)(cast, time_limit_s=3600)
    human, _ = await sync_to_async(sides)(interrogation)
    witness, ok, _ = await connect(f"/ws/witness/{human.public_id}/", cast.connie)
    assert ok
    await witness.expect("state")
    channel_layer = get_channel_layer()
    alive = consumers_alive()  # the witness's console (and any other test left)
    kept, channels = len(alive), {c.channel_name for c in alive}
    del alive
    joined = memberships(channel_layer)
    per_loop = len(ratelimit._clients), len(notify._pumps)  # (earlier tests' loops may still be there)
    for n in range(CYCLES):
        judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
        assert ok
        await judge.expect("state")
        await judge.send({"type": "message", "side": human.side, "text": f"question {n}"})
        await witness.expect("message", text=f"question {n}")
        await witness.send({"type": "message", "text": f"answer {n}"})  # on its way while the page goes
        await judge.close()
    # every message was stored (the page that had gone missed the last answer's push: pages re-read)
    judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    assert len((await judge.expect("state"))["messages"][human.side]) == 2 * CYCLES
    await judge.close()

    assert await consumers_gone_to(kept) == kept  # no judge's console is kept
    if layer == "redis":  # no buffer of a page gone; the process's one receive channel
        assert set(channel_layer.receive_buffer) <= channels
        assert len(channel_layer._popped) <= 1 and len(channel_layer._fetches) <= 1
    else:  # every judge's group membership went with it
        assert memberships(channel_layer) == joined
    assert (
        len(ratelimit._clients) <= per_loop[0] + 1 and len(notify._pumps) <= per_loop[1] + 1
    )  # per loop, not per socket
    await witness.close()
    assert await consumers_gone_to(kept - 1) == kept - 1


async def test_a_page_s_state_is_read_while_the_shared_sync_thread_is_busy(cast, layer):
    """A (re)connecting console's state is read in parallel with other consoles' work, not queued in
    the one thread that thread-sensitive sync code shares (daphne drops a handshake not accepted
    within 5 s: under load the soak's page reloads failed)."""
    import asyncio
    import time

    interrogation = await sync_to_async(three_party)(cast)
    judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    assert ok
    await judge.expect("state")
    busy = asyncio.ensure_future(sync_to_async(time.sleep, thread_sensitive=True)(4))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    await judge.send({"type": "state"})
    assert (await judge.expect("state", timeout=3))["status"] == "running"
    assert time.monotonic() - started < 3 and not busy.done()
    await busy
    await judge.close()
