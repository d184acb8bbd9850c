"""Rate limits of websocket frames (core.ratelimit, in core.consumers.BaseConsumer): per socket and per
user, from settings; a refused frame gets one rate_limited error frame, nothing of it is stored or
relayed, and the socket stays open."""

import pytest
from asgiref.sync import sync_to_async

from arena.models import Keystroke, Message
from tests.arena.helpers import sides, three_party
from tests.arena.wsclient import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def limits(settings):
    """Generous limits, each test tightening one (counts start from zero: tests/conftest.py)."""
    for category in ("MESSAGE", "TYPING"):
        setattr(settings, f"ARENA_RATE_{category}_BURST", 1000)
        setattr(settings, f"ARENA_RATE_{category}_PER_S", 1000.0)
        setattr(settings, f"ARENA_RATE_{category}_PER_USER", 100_000)
    settings.ARENA_RATE_WINDOW_S = 60
    return settings


@sync_to_async
def setup(cast, **kwargs):
    interrogation = three_party(cast, **kwargs)
    human, _ = sides(interrogation)
    return interrogation, human


async def consoles(cast):
    """A running three-party interrogation: its human conversation, the judge's and the witness's sockets."""
    interrogation, human = await setup(cast)
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await judge.expect("state")
    witness, _, _ = await connect(f"/ws/witness/{human.public_id}/", cast.connie)
    await witness.expect("state")
    return human, judge, witness


@sync_to_async
def judge_texts():
    return sorted(Message.objects.filter(sender_role="interrogator").values_list("text", flat=True))


async def answers(socket, n):
    """The next ``n`` error frames or message echoes the judge receives (typing pushes and states skipped)."""
    got = []
    while len(got) < n:
        payload = await socket.receive()
        if payload["type"] == "error" or (payload["type"] == "message" and payload.get("from") == "you"):
            got.append(payload)
    return got


async def test_a_burst_of_messages_on_one_socket_stores_only_the_first_n(cast, limits, end_stray_sessions):
    limits.ARENA_RATE_MESSAGE_BURST, limits.ARENA_RATE_MESSAGE_PER_S = 5, 0.01
    human, judge, witness = await consoles(cast)

    for i in range(12):
        await judge.send({"type": "message", "side": human.side, "text": f"question {i}"})
    got = await answers(judge, 12)
    refused = [p for p in got if p["type"] == "error"]
    assert len(refused) == 7 and {p["code"] for p in refused} == {"rate_limited"}
    assert all(p["message"] for p in refused)
    assert await judge_texts() == sorted(f"question {i}" for i in range(5))  # the first five, nothing more

    # the socket stays open: a frame of the other category still goes through
    await judge.send({"type": "typing", "side": human.side})
    assert (await witness.expect("typing"))["type"] == "typing"
    await judge.close()
    await witness.close()


async def test_two_sockets_of_one_user_share_the_per_user_budget(cast, limits, end_stray_sessions):
    limits.ARENA_RATE_MESSAGE_PER_USER = 6  # each socket alone could send all eight
    interrogation, human = await setup(cast)
    first, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await first.expect("state")
    second, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await second.expect("state")

    for i in range(4):
        await first.send({"type": "message", "side": human.side, "text": f"first {i}"})
    assert all(p["type"] == "message" for p in await answers(first, 4))
    for i in range(4):
        await second.send({"type": "message", "side": human.side, "text": f"second {i}"})
    refused, echoed = [], []
    while len(refused) + len(echoed) < 4:  # (the first socket's echoes come here too: skipped)
        payload = await second.receive()
        if payload["type"] == "error":
            refused.append(payload["code"])
        elif payload["type"] == "message" and payload["text"].startswith("second"):
            echoed.append(payload["text"])
    assert refused == ["rate_limited", "rate_limited"] and echoed == ["second 0", "second 1"]
    assert len(await judge_texts()) == 6

    # another user's budget is their own
    witness, _, _ = await connect(f"/ws/witness/{human.public_id}/", cast.connie)
    await witness.expect("state")
    await witness.send({"type": "message", "text": "I can still answer"})
    assert (await witness.expect("message", **{"from": "you"}))["text"] == "I can still answer"
    for socket in (first, second, witness):
        await socket.close()


async def test_typing_frames_past_the_limit_are_not_relayed(cast, limits, end_stray_sessions):
    limits.ARENA_RATE_TYPING_BURST, limits.ARENA_RATE_TYPING_PER_S = 3, 0.01
    human, judge, witness = await consoles(cast)

    for _ in range(10):
        await judge.send({"type": "typing", "side": human.side})
    refused = [await judge.expect("error") for _ in range(7)]
    assert {p["code"] for p in refused} == {"rate_limited"}
    relayed = 0
    while not await witness.silent(0.5):
        relayed += (await witness.receive())["type"] == "typing"
    assert relayed == 3
    # messages have their own budget: the judge can still write
    await judge.send({"type": "message", "side": human.side, "text": "still here"})
    assert (await witness.expect("message"))["text"] == "still here"
    await judge.close()
    await witness.close()


async def test_keystroke_frames_past_the_per_user_limit_are_neither_stored_nor_relayed(
    cast, limits, end_stray_sessions
):
    limits.ARENA_RATE_TYPING_PER_USER = 4
    interrogation, human = await setup(cast, keystroke_mode=True)
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await judge.expect("state")

    for key in "abcdefgh":
        await judge.send({"type": "keys", "side": human.side, "keys": [key]})
    refused = [await judge.expect("error") for _ in range(4)]
    assert {p["code"] for p in refused} == {"rate_limited"}
    await judge.silent(0.3)
    keys = await sync_to_async(lambda: list(Keystroke.objects.order_by("pk").values_list("key", flat=True)))()
    assert keys == ["a", "b", "c", "d"]
    await judge.close()
