"""A Celery worker SIGKILLed while it is asking a machine witness's engine for a reply.

The engine is a webhook (the entrant's own HTTP endpoint): a stub server in this process that holds
the first request until told, so the worker is killed in the middle of the call. What the judge must
notice: the reply arrives, and arrives once.

How it comes back (settings: acks_late, reject_on_worker_lost, the Redis broker's visibility
timeout of one hour):
- a whole worker killed (solo pool): its task stays unacknowledged in Redis until the visibility
  timeout; meanwhile the sweep (Celery beat, every 5 s) sees the judge's message unanswered for 15 s
  with no engine call logged for it and asks again; when the timeout does pass, the broker hands the
  original task out again, which must not answer a second time;
- a prefork pool child killed: the parent requeues the task at once (reject_on_worker_lost) and it runs
  again.
"""

import asyncio
import json
import os
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from arena.models import EngineCall, Entry, Message
from bench._soak_sampling import process_tree
from bench.harness import free_port, session_cookie
from tests.arena.helpers import sides, three_party
from tests.faults.conftest import Console, services_only

pytestmark = services_only

SECRET = "faults-webhook-secret-0123456789"


class EngineStub:
    """A webhook endpoint on 127.0.0.1 answering {"reply": "re: <message>"}; while `hold` is set, each
    request waits until it is cleared (or the client goes away)."""

    def __init__(self):
        self.requests: list[str] = []
        self.arrived = threading.Event()
        self.hold = threading.Event()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append(body["message"])
                stub.arrived.set()
                while stub.hold.is_set() and not stub.closing:
                    time.sleep(0.05)
                data = json.dumps({"reply": "re: " + body["message"]}).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the worker that asked is gone

            def log_message(self, *args):
                pass

        self.closing = False
        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.closing = True
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def engine_stub():
    stub = EngineStub()
    yield stub
    stub.close()


def webhook_entry(stub) -> Entry:
    return Entry.objects.create(
        display_name="Hooked",
        engine="webhook",
        settings={"url": stub.url, "secret": SECRET, "timeout_s": 60, "think_s": 0, "per_char_s": 0, "jitter": 0},
    )


def replies(conversation) -> list[str]:
    return list(
        Message.objects.filter(conversation=conversation, sender_role=Message.Role.WITNESS)
        .order_by("seq")
        .values_list("text", flat=True)
    )


def age_unacknowledged(seconds: float = 7200) -> int:
    """Make every task the broker holds unacknowledged look `seconds` old: what waiting for the visibility
    timeout (one hour) would do. Returns how many there were."""
    import redis
    from django.conf import settings

    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "")
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        key = prefix + "unacked_index"
        tags = client.zrange(key, 0, -1)
        if tags:
            client.zadd(key, {tag: time.time() - seconds for tag in tags}, xx=True)
        return len(tags)
    finally:
        client.close()


async def hooked_interrogation(platform, cast, engine_stub, worker: str, pool: str = "solo"):
    """A running interrogation whose machine is the stub webhook, daphne, a worker, the judge's console:
    (machine conversation, worker, judge console)."""
    interrogation = three_party(cast, machine=webhook_entry(engine_stub), time_limit_s=900)
    _, machine = sides(interrogation)
    port = free_port()
    await asyncio.to_thread(platform.daphne, port)
    worker = await asyncio.to_thread(platform.worker, worker, pool=pool)
    judge = Console(port, f"/ws/judge/{interrogation.public_id}/", session_cookie(cast.jude), "judge")
    await judge.start()
    return machine, worker, judge


async def test_a_worker_killed_mid_call_the_judge_gets_the_reply_exactly_once(platform, cast, engine_stub):
    from arena.tasks import conversations_sweep

    machine, first, judge = await hooked_interrogation(platform, cast, engine_stub, "faults-first")
    try:
        engine_stub.hold.set()
        asked = time.monotonic()
        assert await judge.send({"type": "message", "side": machine.side, "text": "What is your name?"})
        assert await asyncio.to_thread(engine_stub.arrived.wait, 30), "the worker never called the engine"
        await asyncio.to_thread(first.kill)  # in the middle of the engine call
        engine_stub.hold.clear()
        assert not EngineCall.objects.filter(conversation=machine).exists()  # the call never finished

        await asyncio.to_thread(platform.worker, "faults-second")
        await asyncio.sleep(3)
        assert judge.texts(machine.side, "witness") == []  # the lost task is not back yet (visibility timeout)
        # Celery beat's sweep, once the judge's message is 15 s old with no engine call logged for it
        await asyncio.sleep(max(0.0, 16 - (time.monotonic() - asked)))
        conversations_sweep.apply_async()
        await judge.wait_for(lambda: judge.texts(machine.side, "witness") == ["re: What is your name?"], 30)

        # an hour later the broker hands the killed worker's task out again: it must not answer twice
        assert age_unacknowledged() >= 1
        await asyncio.to_thread(platform.worker, "faults-third")  # restores old unacknowledged tasks on start
        await asyncio.sleep(8)
        assert judge.texts(machine.side, "witness") == ["re: What is your name?"]
        assert replies(machine) == ["re: What is your name?"]
        assert engine_stub.requests == ["What is your name?"] * 2  # the killed call and the sweep's, no third
        call = EngineCall.objects.get(conversation=machine, outcome=EngineCall.Outcome.OK)
        assert call.reply_seq == Message.objects.get(conversation=machine, sender_role="witness").seq

        # and the machine goes on answering, once per message
        assert await judge.send({"type": "message", "side": machine.side, "text": "Where do you live?"})
        await judge.wait_for(lambda: len(judge.texts(machine.side, "witness")) == 2, 30)
        await asyncio.sleep(2)
        assert replies(machine) == ["re: What is your name?", "re: Where do you live?"]
    finally:
        await judge.close()


async def test_a_pool_process_killed_mid_call_is_run_again_and_answers_once(platform, cast, engine_stub):
    machine, worker, judge = await hooked_interrogation(platform, cast, engine_stub, "faults-prefork", "prefork")
    try:
        engine_stub.hold.set()
        assert await judge.send({"type": "message", "side": machine.side, "text": "Do you dream?"})
        assert await asyncio.to_thread(engine_stub.arrived.wait, 30), "the worker never called the engine"
        children = process_tree(worker.process.pid)[1:]
        assert len(children) == 1
        os.kill(children[0], signal.SIGKILL)  # the pool process making the call dies; its parent lives
        engine_stub.hold.clear()
        await judge.wait_for(lambda: judge.texts(machine.side, "witness") == ["re: Do you dream?"], 40)
        await asyncio.sleep(3)
        assert replies(machine) == ["re: Do you dream?"]
        assert engine_stub.requests == ["Do you dream?"] * 2  # asked again by the requeued task
    finally:
        await judge.close()
