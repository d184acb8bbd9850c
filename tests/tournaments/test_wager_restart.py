"""The server restarted in the middle of a wager interview (services mode: daphne a child process, SIGKILLed
and started again on the same port). Nothing is lost, the consoles reconnect by themselves, and the timer
goes on from the deadline stored in the database; an interview whose time ran out while the server was down
is closed (and sealed) as soon as anyone looks."""

import asyncio
import datetime as dt

from asgiref.sync import sync_to_async
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.utils import timezone

from arena.models import Interrogation, Message, Status
from arena.services import interrogation_start
from bench.harness import free_port, session_cookie
from core.signing import private_key_text
from tests.faults.conftest import Console, platform, services_only  # noqa: F401  platform: the fixture

from .wager_helpers import wager_session

pytestmark = services_only


def _setup(cast):
    session = wager_session(cast, rehearsal=True, trials=1, minutes=10)
    interview = session.trials.get().interviews.select_related("interrogation").get(judge=cast.jude, candidate="F1")
    interrogation_start(interrogation_id=interview.interrogation_id)
    interrogation = Interrogation.objects.get(pk=interview.interrogation_id)
    return interrogation, interrogation.conversations.get()


async def test_a_restart_mid_interview_loses_nothing_and_the_timer_resumes(platform, cast):  # noqa: F811  the fixture imported above
    interrogation, conversation = await sync_to_async(_setup)(cast)
    port = free_port()
    key = private_key_text(Ed25519PrivateKey.generate())  # the platform's signing key: seals at the end
    server = await asyncio.to_thread(platform.daphne, port, ARENA_SIGNING_KEY=key)
    judge = Console(
        port, f"/ws/judge/{interrogation.public_id}/", await sync_to_async(session_cookie)(cast.jude), "judge"
    )
    foil = Console(
        port, f"/ws/witness/{conversation.public_id}/", await sync_to_async(session_cookie)(cast.connie), "foil"
    )
    await judge.start()
    await foil.start()
    try:
        for i in range(3):
            assert await judge.send({"type": "message", "side": "sole", "text": f"question {i}"})
            await foil.wait_for(lambda i=i: f"question {i}" in foil.texts("", "judge"), 15)
            assert await foil.send({"type": "message", "text": f"answer {i}"})
            await judge.wait_for(lambda i=i: f"answer {i}" in judge.texts("sole", "witness"), 15)
        before = judge.states[-1]
        assert before["status"] == "running"

        await asyncio.to_thread(server.kill)
        await judge.wait_for(lambda: not judge.is_open, 10)
        await asyncio.sleep(1.0)  # the clock runs on while the server is down
        await asyncio.to_thread(platform.daphne, port, ARENA_SIGNING_KEY=key)
        await judge.connected(40)
        await foil.connected(40)

        after = judge.states[-1]
        assert after["status"] == "running" and after["deadline"] == before["deadline"]  # from the database
        assert dt.datetime.fromisoformat(after["now"]) > dt.datetime.fromisoformat(before["now"])
        expected = [f"{kind} {i}" for i in range(3) for kind in ("question", "answer")]
        assert judge.texts("sole") == expected and foil.texts("") == expected
        assert await judge.send({"type": "message", "side": "sole", "text": "still there?"})
        await foil.wait_for(lambda: "still there?" in foil.texts("", "judge"), 15)
        rows = await sync_to_async(
            lambda: list(Message.objects.filter(conversation=conversation).order_by("seq").values_list("seq", "text"))
        )()
        assert rows == list(enumerate([*expected, "still there?"], start=1))

        # the server dies again, and stays down past the interview's end
        await asyncio.to_thread(platform.servers[-1].kill)
        await judge.wait_for(lambda: not judge.is_open, 10)
        past = timezone.now() - dt.timedelta(seconds=1)
        await sync_to_async(lambda: Interrogation.objects.filter(pk=interrogation.pk).update(deadline=past))()
        await asyncio.to_thread(platform.daphne, port, ARENA_SIGNING_KEY=key)
        await judge.wait_for(lambda: judge.states[-1]["status"] == "ended", 40)
        ended = await sync_to_async(Interrogation.objects.get)(pk=interrogation.pk)
        assert ended.status == Status.ENDED and ended.end_reason == "time" and ended.ended_at == past
        seal = await sync_to_async(lambda: conversation.__class__.objects.get(pk=conversation.pk).seal)()
        assert seal.message_count == 7
    finally:
        await judge.close()
        await foil.close()
