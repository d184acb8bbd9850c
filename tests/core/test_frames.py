"""Every bad frame gets one error frame naming the problem, and the socket stays open (judge, witness
and bettor consoles share core.consumers.BaseConsumer)."""

import pytest
from asgiref.sync import sync_to_async

from arena.models import Message
from tests.arena.helpers import sides, three_party
from tests.arena.wsclient import connect

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def setup(cast):
    interrogation = three_party(cast)
    human, _ = sides(interrogation)
    return interrogation, human


@sync_to_async
def stored():
    return list(Message.objects.values_list("text", flat=True))


async def still_open(socket):
    await socket.send({"type": "state"})
    assert (await socket.expect("state"))["type"] == "state"


@pytest.mark.parametrize(
    "raw, code",
    [
        ('{"type": "message", "side": "left", "text": "\\ud800"}', "bad_frame"),
        ('{"type": "message", "side": "left", "text": "a\\udfffb"}', "bad_frame"),
        ('{"type": "verdict", "choice": "left", "confidence": 1e309}', "bad_frame"),
        ('{"type": "verdict", "choice": "left", "confidence": NaN}', "bad_frame"),
        ('{"type": "verdict", "choice": "left", "confidence": -Infinity}', "bad_frame"),
        ("[" * 30000 + "]" * 30000, "too_long"),
        ("[" * 1500 + "]" * 1500, "bad_json"),
    ],
)
async def test_a_bad_frame_is_answered_and_the_judge_stays_connected(cast, raw, code, end_stray_sessions):
    interrogation, _ = await setup(cast)
    judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    assert ok
    await judge.expect("state")
    await judge.send(raw)
    error = await judge.expect("error")
    assert error["code"] == code and error["message"]
    await still_open(judge)
    assert await stored() == []


@pytest.mark.parametrize("text", ["\u200b\u200b\u200b", "\u200d \u2060\ufeff", " \n\t "])
async def test_invisible_text_is_not_a_message(cast, text, end_stray_sessions):
    interrogation, human = await setup(cast)
    witness, ok, _ = await connect(f"/ws/witness/{human.public_id}/", cast.connie)
    assert ok
    await witness.expect("state")
    await witness.send({"type": "message", "text": text})
    error = await witness.expect("error")
    assert "empty" in error["message"]
    await still_open(witness)
    assert await stored() == []


async def test_a_failing_handler_costs_one_frame_not_the_connection(cast, monkeypatch, end_stray_sessions):
    from arena import services

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "typing_signal", broken)
    interrogation, human = await setup(cast)
    judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    await judge.expect("state")
    await judge.send({"type": "typing", "side": human.side})
    assert (await judge.expect("error"))["code"] == "server_error"
    await still_open(judge)
