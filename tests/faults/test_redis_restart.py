"""The Redis server of the channel layer and the broker dies and comes back (a private redis-server on a
spare port is the platform's REDIS_URL here, so nothing shared is touched).

What people notice: `/healthz` answers 503 naming the channel layer and the broker while Redis is
down (a load balancer takes the daphne out of rotation) and 200 again once it is back; the consoles
reconnect by themselves and show the conversation as the database holds it, new messages flow both
ways again, and the Celery worker (on the same Redis as its broker) answers for the machine again.
"""

import asyncio
import time

from arena.models import Message
from bench.harness import free_port, session_cookie
from tests.arena.helpers import sides, three_party
from tests.faults.conftest import Console, healthz, services_only

pytestmark = services_only


async def wait_health(port: int, status: int, timeout: float) -> dict:
    end = time.monotonic() + timeout
    while True:
        code, report = await asyncio.to_thread(healthz, port)
        if code == status or time.monotonic() > end:
            assert code == status, report
            return report
        await asyncio.sleep(0.5)


async def test_redis_restarted_healthz_goes_red_then_green_and_consoles_come_back(platform, cast, redis_server):
    interrogation = three_party(cast, time_limit_s=900)
    human, machine = sides(interrogation)
    H = human.side
    port = free_port()
    await asyncio.to_thread(platform.daphne, port, REDIS_URL=redis_server.url)
    await asyncio.to_thread(platform.worker, "faults-redis", REDIS_URL=redis_server.url)
    code, report = await asyncio.to_thread(healthz, port)
    assert code == 200 and report["ok"], report
    assert report["checks"]["channel_layer"]["backend"] == "redis"

    judge = Console(port, f"/ws/judge/{interrogation.public_id}/", session_cookie(cast.jude), "judge")
    witness = Console(port, f"/ws/witness/{human.public_id}/", session_cookie(cast.connie), "confederate")
    await judge.start()
    await witness.start()
    try:
        assert await judge.send({"type": "message", "side": H, "text": "Before the outage?"})
        await witness.wait_for(lambda: "Before the outage?" in witness.texts("", "judge"), 15)
        assert await witness.send({"type": "message", "text": "Yes, before."})
        await judge.wait_for(lambda: "Yes, before." in judge.texts(H, "witness"), 15)

        # --- Redis dies ------------------------------------------------------------------------------
        await asyncio.to_thread(redis_server.stop)
        started = time.monotonic()
        report = await wait_health(port, 503, 15)
        assert time.monotonic() - started < 15
        checks = report["checks"]
        assert not report["ok"]
        assert not checks["channel_layer"]["ok"] and not checks["broker"]["ok"]
        assert checks["database"]["ok"]
        assert checks["channel_layer"]["error"] and "backend" not in checks["channel_layer"]
        # the consoles lose their connection (their pushes came through Redis): the page says so
        await judge.wait_for(lambda: not judge.is_open, 20)
        await witness.wait_for(lambda: not witness.is_open, 20)
        await asyncio.sleep(2)  # they try again meanwhile, and fail while Redis is down
        assert not judge.is_open and not witness.is_open

        # --- Redis is back (empty: groups and queued pushes are gone) ---------------------------------
        await asyncio.to_thread(redis_server.start)
        report = await wait_health(port, 200, 20)
        assert report["ok"] and all(check["ok"] for check in report["checks"].values())
        await judge.connected(30)
        await witness.connected(30)
        rows = list(Message.objects.filter(conversation=human).order_by("seq").values_list("seq", "text"))
        assert [(m["seq"], m["text"]) for m in judge.states[-1]["messages"][H]] == rows
        assert [(m["seq"], m["text"]) for m in witness.states[-1]["messages"]] == rows
        assert [text for _, text in rows] == ["Before the outage?", "Yes, before."]

        # new messages flow both ways again (each console rejoined its groups on the new Redis)
        assert await judge.send({"type": "message", "side": H, "text": "After the outage?"})
        await witness.wait_for(lambda: "After the outage?" in witness.texts("", "judge"), 15)
        assert await witness.send({"type": "message", "text": "Yes, after."})
        await judge.wait_for(lambda: "Yes, after." in judge.texts(H, "witness"), 15)
        assert judge.texts(H, "you") == ["Before the outage?", "After the outage?"]
        # and the Celery worker found its broker again: the machine witness answers
        assert await judge.send({"type": "message", "side": machine.side, "text": "And the machine?"})
        await judge.wait_for(lambda: len(judge.texts(machine.side, "witness")) == 1, 60)
    finally:
        await judge.close()
        await witness.close()
