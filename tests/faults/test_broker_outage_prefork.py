"""The broker's Redis dies while a prefork Celery worker holds unacknowledged ETA tasks (a machine
witness's reply waiting for its typing delay, the release of the judge's question to a conversation
market's spectators), and comes back empty.

What people notice: the worker is still there when Redis is back (it does not exit for good), the
machine witness answers the judge's question once (the held delivery was lost with Redis's data;
the sweep asks again), the spectators get the question once its delay has passed, once (its release
task was lost too; the sweep pushes it), and new questions are answered again.
"""

import asyncio
import time

import redis
from celery import Celery

from arena.models import EngineCall, Message
from bench.harness import free_port, session_cookie
from tests.faults.conftest import Console, _run_transport_options, services_only, worker_ready
from tests.markets.conversation.helpers import xmarket

pytestmark = services_only

TYPING_S = 8.0  # the machine's thinking time: its reply's delivery is an ETA task the worker holds
SPECTATOR_DELAY_S = 25.0  # the market's spectators see the conversation this far behind: another held task


class Spectator(Console):
    """A market spectator's socket, counting every message pushed to it (repeats included)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pushed: list[str] = []

    def _take(self, payload: dict):
        if payload.get("type") == "message":
            self.pushed.append(payload["text"])
        super()._take(payload)


def probe_app(broker: str) -> Celery:
    """A throwaway app publishing to the private broker with this run's key prefix (as beat would)."""
    app = Celery("faults-outage", broker=broker, set_as_current=False)
    app.conf.broker_transport_options = _run_transport_options()
    return app


def answers_again(worker, broker: str, timeout: float = 60.0) -> None:
    """Wait until the worker answers a ping through the restarted broker (a first probe may meet a
    socket of the old server)."""
    end = time.monotonic() + timeout
    while True:
        try:
            return worker_ready(worker, max(1.0, end - time.monotonic()), broker)
        except redis.exceptions.ConnectionError:
            assert worker.process.poll() is None, "the worker exited when its broker went away"
            if time.monotonic() > end:
                raise
            time.sleep(0.5)


def scheduled_count(app: Celery, worker_name: str) -> int:
    replies = app.control.inspect([worker_name], timeout=2.0).scheduled() or {}
    return len(replies.get(worker_name, []))


async def test_prefork_worker_outlives_the_broker_and_held_replies_arrive_once(platform, cast, redis_server):
    machine_entry = cast.simple
    machine_entry.settings = {**machine_entry.settings, "think_s": TYPING_S}
    machine_entry.save(update_fields=["settings"])
    market = xmarket(cast, delay_s=SPECTATOR_DELAY_S)
    interrogation = market.interrogation
    machine = interrogation.conversations.get(witness_entry=machine_entry)
    M = machine.side
    port = free_port()
    await asyncio.to_thread(platform.daphne, port, REDIS_URL=redis_server.url)
    worker = await asyncio.to_thread(platform.worker, "faults-outage", pool="prefork", REDIS_URL=redis_server.url)
    app = probe_app(redis_server.url)

    judge = Console(port, f"/ws/judge/{interrogation.public_id}/", session_cookie(cast.jude), "judge")
    spectator = Spectator(port, f"/ws/markets/conversations/{market.game.public_id}/", "", "spectator")
    await judge.start()
    await spectator.start()
    try:
        assert await judge.send({"type": "message", "side": M, "text": "Are you there?"})
        # the engine has answered; the delivery waits for the typing delay, held by the worker
        end = time.monotonic() + 20
        while not await asyncio.to_thread(
            EngineCall.objects.filter(conversation=machine, kind=EngineCall.Kind.REPLY).exists
        ):
            assert time.monotonic() < end, "the worker never asked the engine"
            await asyncio.sleep(0.1)
        # with the question's release to the spectators, held as well
        end = time.monotonic() + 10
        while await asyncio.to_thread(scheduled_count, app, worker.name) < 2:
            assert time.monotonic() < end, "the worker does not hold the ETA tasks"
            await asyncio.sleep(0.2)
        assert judge.texts(M, "witness") == []

        # --- Redis dies, with the held tasks unacknowledged --------------------------------------
        await asyncio.to_thread(redis_server.stop)
        await asyncio.sleep(5)
        assert worker.process.poll() is None, "the worker exited when its broker went away"

        # --- Redis is back, empty ----------------------------------------------------------------
        await asyncio.to_thread(redis_server.start)
        await asyncio.to_thread(answers_again, worker, redis_server.url)
        assert worker.process.poll() is None

        # Celery beat's sweep (every 5 s) finds the judge's question unanswered past the typing delay
        # and asks again; the reply arrives once
        sent = time.monotonic()
        await judge.connected(30)
        while not judge.texts(M, "witness"):
            assert time.monotonic() - sent < 60, "the held reply never arrived"
            await asyncio.to_thread(app.send_task, "arena.tasks.conversations_sweep")
            await asyncio.sleep(3)
        for _ in range(3):  # later sweeps find it answered
            await asyncio.to_thread(app.send_task, "arena.tasks.conversations_sweep")
            await asyncio.sleep(1)
        await asyncio.sleep(TYPING_S + 1)
        replies = await asyncio.to_thread(
            lambda: list(Message.objects.filter(conversation=machine, sender_role=Message.Role.WITNESS))
        )
        assert len(replies) == 1
        assert len(judge.texts(M, "witness")) == 1

        # the spectators get the question once its delay has passed, once
        while "Are you there?" not in spectator.pushed:
            assert time.monotonic() - sent < 90, "the question never reached the spectators"
            await asyncio.to_thread(app.send_task, "arena.tasks.conversations_sweep")
            await asyncio.sleep(2)
        for _ in range(3):
            await asyncio.to_thread(app.send_task, "arena.tasks.conversations_sweep")
            await asyncio.sleep(1)
        assert spectator.pushed.count("Are you there?") == 1

        # new questions are answered again
        assert await judge.send({"type": "message", "side": M, "text": "Still there?"})
        await judge.wait_for(lambda: len(judge.texts(M, "witness")) == 2, 40)
    finally:
        await judge.close()
        await spectator.close()
        app.close()
