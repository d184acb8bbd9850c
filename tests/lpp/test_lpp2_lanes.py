"""A socket's events are handled in lanes (lpp.lpp2.server.Hub.dispatch): its lines to one partner in
the order sent, while a judge's line to its other partner (or a control event) does not wait behind
a line still on its way to the database."""

import asyncio
import json

from lpp.lpp2.server import LANES, PENDING, Client, Hub


def line(to: str, k: int) -> str:
    return json.dumps({"id": "judge0", "secret": "s", "to": to, "content": f"{to} {k}"})


def test_lines_to_one_partner_keep_their_order_and_the_other_partner_does_not_wait():
    async def scenario():
        hub, handled, release = Hub(), [], asyncio.Event()

        async def event(generation, sid, name, data):
            payload = json.loads(data)
            if payload.get("content") == "ai0 0":
                await release.wait()  # the first line to ai0 is slow to store
            handled.append(payload.get("content") or name)

        hub.event = event
        hub.clients[(5, "sid")] = Client(None, 5, "sid")
        for k in range(3):
            await hub.dispatch(5, "sid", "message", line("ai0", k))
            await hub.dispatch(5, "sid", "message", line("conf0", k))
        await hub.dispatch(5, "sid", "score", json.dumps({"id": "judge0", "secret": "s", "robot": "ai0"}))
        await asyncio.sleep(0.05)
        assert handled == ["conf0 0", "conf0 1", "conf0 2", "score"]  # ai0's lane waits, the others do not
        release.set()
        await asyncio.sleep(0.05)
        assert handled[4:] == ["ai0 0", "ai0 1", "ai0 2"] and not hub.tasks

    asyncio.run(scenario())


def test_a_socket_naming_many_partners_gets_a_bounded_number_of_lanes():
    client = Client(None, 5, "sid")
    lanes = {id(client.lane("message", line(f"ai{k}", 0))) for k in range(50)}
    assert len(client.lanes) == LANES and len(lanes) == LANES
    assert client.lane("message", "{not json") is client.lanes[""] is client.lane("control", "{}")


def test_a_flooding_socket_is_read_no_further_while_its_events_wait(settings):
    """PENDING events of one socket taken and not handled: the next one waits (so does the socket's
    reader), and nothing queues without bound (lines within the rate limit, which is lifted here)."""
    settings.ARENA_RATE_MESSAGE_BURST = 10_000

    async def scenario():
        hub, release = Hub(), asyncio.Event()

        async def event(generation, sid, name, data):
            await release.wait()

        hub.event = event
        hub.clients[(5, "sid")] = Client(None, 5, "sid")
        for k in range(PENDING):
            await asyncio.wait_for(hub.dispatch(5, "sid", "message", line("ai0", k)), 1)
        one_more = asyncio.ensure_future(hub.dispatch(5, "sid", "message", line("ai0", PENDING)))
        await asyncio.sleep(0.05)
        assert not one_more.done() and len(hub.tasks) == PENDING
        release.set()
        await asyncio.wait_for(one_more, 1)
        await asyncio.sleep(0.05)
        assert not hub.tasks

    asyncio.run(scenario())
