import json
import os

import pytest
from asgiref.sync import sync_to_async

from arena import services
from arena.models import Message

from ..conftest import redis_available
from .helpers import sides, three_party
from .wsclient import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["memory", "redis"])
def layer(request, settings, end_stray_sessions):
    """Each consumer test runs on the in-memory layer and on the Redis layer (database threads keep
    their connections: end_stray_sessions ends them before the test database is dropped)."""
    if request.param == "redis":
        url = settings.REDIS_URL or "redis://127.0.0.1:6379/0"
        if not redis_available(url):
            pytest.skip("no Redis server reachable (set REDIS_URL)")
        host = {"address": url, "socket_timeout": None}
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "core.channel_layer.RedisChannelLayer",
                "CONFIG": {"hosts": [host], "prefix": f"arena-test-{os.getpid()}"},
            }
        }
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return request.param


@sync_to_async
def setup_three_party(cast, **kwargs):
    interrogation = three_party(cast, **kwargs)
    human, machine = sides(interrogation)
    return interrogation, human, machine


async def test_judge_and_confederate_chat_live(cast, layer):
    interrogation, human, _ = await setup_three_party(cast)
    judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    assert ok
    state = await judge.expect("state")
    assert state["status"] == "running" and sorted(state["sides"]) == ["left", "right"]
    witness, ok, _ = await connect(f"/ws/witness/{human.public_id}/", cast.connie)
    assert ok
    await witness.expect("state")

    await judge.send({"type": "message", "side": human.side, "text": "What did you have for breakfast?"})
    got = await witness.expect("message")
    assert got == {**got, "from": "judge", "text": "What did you have for breakfast?", "seq": 1}
    echo = await judge.expect("message")
    assert echo["from"] == "you" and echo["side"] == human.side

    await witness.send({"type": "typing"})
    assert (await judge.expect("typing"))["side"] == human.side
    await witness.send({"type": "message", "text": "Toast & <b>jam</b>"})
    reply = await judge.expect("message", side=human.side, seq=2)
    assert reply["from"] == "witness" and reply["text"] == "Toast & <b>jam</b>"  # raw text: pages escape it
    await judge.close()
    await witness.close()


@pytest.mark.slow
async def test_chat_goes_on_while_the_shared_sync_thread_is_busy(cast, layer):
    """Consoles never wait in the one thread that thread-sensitive sync code shares (an admin action,
    a slow state query): messages and their pushes take other paths."""
    import asyncio
    import time

    interrogation, human, _ = await setup_three_party(cast)
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await judge.expect("state")
    witness, _, _ = await connect(f"/ws/witness/{human.public_id}/", cast.connie)
    await witness.expect("state")
    busy = asyncio.ensure_future(sync_to_async(time.sleep, thread_sensitive=True)(4))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    await judge.send({"type": "message", "side": human.side, "text": "Still there?"})
    assert (await witness.expect("message", timeout=2))["text"] == "Still there?"
    assert (await judge.expect("message", timeout=2))["from"] == "you"
    assert time.monotonic() - started < 2 and not busy.done()
    await busy
    await judge.close()
    await witness.close()


async def test_machine_witness_replies_through_a_task(cast, layer, task_worker):
    interrogation, _, machine = await setup_three_party(cast)
    judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await judge.expect("state")
    await judge.send({"type": "message", "side": machine.side, "text": "Are you a person?"})
    reply = await judge.expect("message", timeout=15, side=machine.side, seq=2)
    assert reply["text"] == "Hmmm...That's an interesting question." and reply["from"] == "witness"
    await judge.close()


@pytest.mark.parametrize(
    "frame, code",
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_frame"),
        (json.dumps({"text": "no type"}), "bad_frame"),
        (json.dumps({"type": "dance"}), "unknown_type"),
        (json.dumps({"type": "message", "side": "middle", "text": "hi"}), "invalid"),
        (json.dumps({"type": "message", "side": "left", "text": ""}), "invalid"),
        (json.dumps({"type": "message", "side": "left", "text": {"a": 1}}), "invalid"),
        (json.dumps({"type": "message", "side": "left", "text": "x" * 1001}), "too_long"),
        (json.dumps({"type": "message", "side": "left", "text": "x" * 50000}), "too_long"),
        (json.dumps({"type": "verdict", "choice": "left", "confidence": 50}), "closed"),
        (json.dumps({"type": "start"}), "closed"),
    ],
)
async def test_bad_frames_get_a_clear_error_and_store_nothing(cast, layer, frame, code, settings):
    settings.ARENA_MAX_MESSAGE_CHARS = 1000
    interrogation, _, _ = await setup_three_party(cast)
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await judge.expect("state")
    await judge.send(frame)
    error = await judge.expect("error")
    assert error["code"] == code and error["message"]
    # the connection is still usable and nothing was stored
    await judge.send({"type": "state"})
    assert (await judge.expect("state"))["status"] == "running"
    assert await sync_to_async(Message.objects.count)() == 0
    await judge.close()


async def test_messages_after_the_end_are_refused(cast, layer):
    interrogation, human, _ = await setup_three_party(cast)
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await judge.expect("state")
    await judge.send({"type": "end"})
    assert (await judge.expect("status"))["status"] == "ended"
    await judge.send({"type": "message", "side": human.side, "text": "one more thing"})
    assert (await judge.expect("error"))["code"] == "closed"
    assert await sync_to_async(Message.objects.count)() == 0
    await judge.close()


async def test_nobody_connects_to_a_conversation_not_theirs(cast, layer):
    interrogation, human, machine = await setup_three_party(cast)
    for path, user in [
        (f"/ws/judge/{interrogation.public_id}/", cast.june),  # another judge
        (f"/ws/judge/{interrogation.public_id}/", cast.connie),  # the witness as judge
        (f"/ws/judge/{interrogation.public_id}/", None),  # anonymous
        (f"/ws/witness/{human.public_id}/", cast.carl),  # another confederate
        (f"/ws/witness/{human.public_id}/", cast.jude),  # the judge as witness
        (f"/ws/witness/{machine.public_id}/", cast.connie),  # the machine's conversation
        ("/ws/monitor/", cast.jude),  # a judge spying on the live view
    ]:
        socket, connected, code = await connect(path, user)
        assert not connected and code == 4403, (path, user)


async def test_reconnecting_judge_gets_every_earlier_message(cast, layer):
    interrogation, human, machine = await setup_three_party(cast)

    @sync_to_async
    def chat():
        for i in range(3):
            services.message_post(conversation_id=human.pk, sender_role="interrogator", text=f"q{i}", user=cast.jude)
            services.message_post(conversation_id=human.pk, sender_role="witness", text=f"a{i}", user=cast.connie)

    await chat()
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    state = await judge.expect("state")
    assert [m["text"] for m in state["messages"][human.side]] == ["q0", "a0", "q1", "a1", "q2", "a2"]
    assert [m["seq"] for m in state["messages"][human.side]] == [1, 2, 3, 4, 5, 6]
    await judge.close()


async def test_monitor_sees_everything_live_with_identities(cast, layer):
    interrogation, human, machine = await setup_three_party(cast)
    monitor, ok, _ = await connect("/ws/monitor/", cast.olivia)
    assert ok
    state = await monitor.expect("state")
    item = next(i for i in state["interrogations"] if i["id"] == interrogation.pk)
    assert {c["witness"] for c in item["conversations"]} == {"connie", "Simple Bot"}
    await sync_to_async(services.message_post)(
        conversation_id=human.pk, sender_role="interrogator", text="watched", user=cast.jude
    )
    pushed = await monitor.expect("message")
    assert pushed["witness"] == "connie" and pushed["witness_kind"] == "human" and pushed["text"] == "watched"
    await monitor.close()
