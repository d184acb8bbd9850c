"""Input too large is answered, not dropped: a console frame past the platform's limit gets an error frame
and the socket stays open, a legal message written with JSON's \\u escapes is accepted (its length is
counted in characters of the text), and LPP2 answers an oversize payload, or lines past the consoles'
rate, with TargetError on a socket that stays connected."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from daphne.server import Server

from arena.models import Message
from core.consumers import max_frame_chars
from lpp.lpp2.services import lpp2_contest_setup
from tests.arena.helpers import sides, three_party
from tests.arena.wsclient import connect
from tests.lpp.lpp2_clients import Lpp2Client
from tests.lpp.test_lpp2 import _round_partners

SECRET = "s3cret"
EMOJI = "\U0001f600"


def test_the_longest_frame_the_consoles_read_stays_below_daphnes_own_limit(settings):
    daphne_limit = Server.__init__.__kwdefaults__ or {}
    daphne_limit = daphne_limit.get("websocket_max_message_size", 1024 * 1024)
    settings.ARENA_MAX_MESSAGE_CHARS = 20_000  # the setting's maximum
    assert max_frame_chars() < daphne_limit


@pytest.mark.django_db(transaction=True)
async def test_a_thousand_emoji_sent_with_escapes_is_one_legal_message(cast, settings, end_stray_sessions):
    settings.ARENA_MAX_MESSAGE_CHARS = 1000
    interrogation = await sync_to_async(three_party)(cast)
    human, _ = await sync_to_async(sides)(interrogation)
    judge, ok, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    assert ok
    await judge.expect("state")
    frame = json.dumps({"type": "message", "side": human.side, "text": EMOJI * 1000})  # ensure_ascii: \ud83d\ude00
    assert len(frame) > 12_000
    await judge.send(frame)
    assert (await judge.expect("message", **{"from": "you"}))["text"] == EMOJI * 1000
    await judge.send(json.dumps({"type": "message", "side": human.side, "text": EMOJI * 1001}))
    assert (await judge.expect("error"))["code"] == "too_long"  # one character more: refused, by its length
    await judge.send({"type": "state"})
    assert (await judge.expect("state"))["type"] == "state"  # still open
    texts = await sync_to_async(lambda: list(Message.objects.values_list("text", flat=True)))()
    assert texts == [EMOJI * 1000]
    await judge.close()


@pytest.fixture
def contest(transactional_db):
    return lpp2_contest_setup(name="LPP2 bounds", secret=SECRET)


async def _running_round(url, lpp2):
    controller = await Lpp2Client(url, "CONTROLLER", SECRET).connect()
    judge = await Lpp2Client(url, "judge0", SECRET).connect()
    await controller.send("controller", {"status": "newRound"})
    await judge.next("control")
    seats = await asyncio.to_thread(_round_partners, lpp2, 0)
    await controller.send("controller", {"status": "startRound"})
    await judge.next("control")
    return controller, judge, seats


@pytest.mark.slow
async def test_an_lpp2_payload_too_large_is_answered_with_target_error(contest, live_daphne):
    judge = await Lpp2Client(live_daphne, "judge0", SECRET).connect()
    try:
        for size in (30_000, 200_000, 900_000):
            await judge.sio.emit("message", json.dumps({"id": "judge0", "secret": SECRET, "content": "x" * size}))
            assert "longer than" in json.loads(await judge.next("TargetError"))["status"]
        await judge.send("control", {"status": "roundInformation"})
        assert json.loads(await judge.next("roundInformation"))["roundNumber"] == -1  # still connected
    finally:
        await judge.close()


@pytest.fixture
def five_lines_at_once(monkeypatch):
    """The server's settings (read from its environment): a socket's bucket of five lines, barely refilled."""
    monkeypatch.setenv("ARENA_RATE_MESSAGE_BURST", "5")
    monkeypatch.setenv("ARENA_RATE_MESSAGE_PER_S", "0.01")


@pytest.mark.slow
async def test_lpp2_lines_past_the_consoles_rate_are_refused_and_not_stored(contest, five_lines_at_once, live_daphne):
    controller, judge, seats = await _running_round(live_daphne, contest)
    try:
        for i in range(30):
            await judge.send("message", {"to": seats["ai"], "content": f"line {i}"})
        refusals = [json.loads(await judge.next("TargetError"))["status"] for _ in range(25)]
        assert all("too many lines" in why for why in refusals)
        stored = []
        for _ in range(100):  # the five accepted lines are stored in their lane meanwhile
            stored = await asyncio.to_thread(
                lambda: list(Message.objects.filter(sender_role="interrogator").values_list("text", flat=True))
            )
            if len(stored) >= 5:
                break
            await asyncio.sleep(0.1)
        assert sorted(stored) == sorted(f"line {i}" for i in range(5))
    finally:
        await judge.close()
        await controller.close()
