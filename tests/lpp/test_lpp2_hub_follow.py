"""A hub follows the current round's conversations only (lpp.lpp2.server.Hub.follow): when the round
changes it leaves the old ones' groups for good, and a line still on its way to one of them is
dropped, not kept in the process's memory."""

import asyncio
import os
import time

import pytest

from arena.groups import conversation_group
from core.channel_layer import RedisChannelLayer
from lpp.lpp2 import selectors, server
from tests.conftest import redis_available

URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
pytestmark = [
    pytest.mark.skipif(not redis_available(URL), reason="no Redis server reachable (set REDIS_URL)"),
    pytest.mark.django_db(transaction=True),
]  # the hub's reads go through database_sync_to_async


class Served:
    pk = 1


def test_a_conversation_left_at_a_round_change_keeps_nothing_in_memory(monkeypatch):
    layer = RedisChannelLayer(hosts=[{"address": URL}], prefix=f"arena-hub-test-{os.getpid()}-{time.monotonic_ns()}")
    rounds = iter([{11: ("judge0", "ai1", 0), 12: ("judge0", "conf1", 0)}, {21: ("judge0", "ai2", 1)}])
    monkeypatch.setattr(server, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(selectors, "hub_targets", lambda: (Served, next(rounds)))

    async def scenario():
        hub = server.Hub()
        hub.lines = False  # no PostgreSQL here: the loop's lines are not what this test is about
        await hub.follow(1)
        old = hub.following[11][0]
        await hub.follow(1)  # the next round: conversations 11 and 12 are left
        assert set(hub.following) == {21}
        # a line sent to conversation 11 just before the hub left its group, reaching the process now
        await layer.send(old, {"type": "arena.message", "judge": {"seq": 1, "from": "you", "text": "late"}})
        await layer.group_send(
            conversation_group(21), {"type": "arena.message", "judge": {"seq": 1, "from": "you", "text": "now"}}
        )
        await asyncio.sleep(0.3)  # the process's reader (the new round's listener waits) has popped both
        assert old not in layer.receive_buffer
        for _, task in list(hub.following.values()) + list(hub.contests.values()):
            task.cancel()
        await layer.flush()

    asyncio.run(scenario())
