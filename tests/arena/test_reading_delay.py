"""A machine witness is seen typing only once it could have read the judge's message and thought (the
reading delay of bots.typing_delay), never at once, and its reply comes after its typing."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from arena.models import Entry

from .helpers import sides, three_party
from .wsclient import connect

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "Are you a person?"  # 17 characters
READING = {"think_s": 0.4, "read_per_char_s": 0.05, "per_char_s": 0.03, "jitter": 0}  # reads for 0.4 + 0.85 s


@sync_to_async
def setup(cast):
    reader = Entry.objects.create(display_name="Reader", engine="simple", settings=READING)
    interrogation = three_party(cast, machine=reader)
    return interrogation, sides(interrogation)[1]


@pytest.mark.slow
async def test_the_typing_indicator_waits_for_the_reading_delay(cast, task_worker):
    interrogation, machine = await setup(cast)
    judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await judge.expect("state")
    loop = asyncio.get_running_loop()
    sent = loop.time()
    await judge.send({"type": "message", "side": machine.side, "text": QUESTION})
    await judge.expect("message", side=machine.side, seq=1)
    typing = await judge.expect("typing", timeout=10, side=machine.side)
    typing_at = loop.time() - sent
    reply = await judge.expect("message", timeout=10, side=machine.side, seq=2)
    shown_at = loop.time() - sent
    reading = READING["think_s"] + READING["read_per_char_s"] * len(QUESTION)
    assert typing["type"] == "typing" and typing_at >= reading - 0.05, typing_at  # not before it was read
    assert shown_at >= reading + READING["per_char_s"] * len(reply["text"]) - 0.05  # then typed, then shown
    await judge.close()
