"""daphne SIGKILLed in the middle of a sequential Loebner round, then started again on the same port.

What the organiser, the judge and the confederate notice: nothing acknowledged before the crash is lost;
the round's clock went on while the server was down (its timestamps are in the database, its timers in
the worker), so the judge comes back to the right witness at half time, and the interrogation ends on
its deadline, whatever the server's state then.
"""

import asyncio
import time

import pytest

from arena.models import Interrogation, Message, Status
from bench.harness import free_port, session_cookie
from tests.faults.conftest import Console, services_only
from tests.tournaments.loebner.helpers import finals_make
from tournaments.loebner import selectors, services
from tournaments.loebner.models import Round

pytest.importorskip("tournaments.loebner.rules.schedule")
pytestmark = services_only


async def test_a_daphne_restart_mid_round_loses_nothing(platform, cast):
    contest = await asyncio.to_thread(
        finals_make, cast, fmt="2009-rules", round_minutes=0.25, review_minutes=0.2, break_minutes=0.1
    )
    fmt = await asyncio.to_thread(selectors.contest_format, contest=contest)
    assert fmt.mode == "sequential"
    port = free_port()
    server = await asyncio.to_thread(platform.daphne, port)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from core.signing_keys import private_key_text

    key = private_key_text(Ed25519PrivateKey.generate())  # the worker seals the interrogation it closes
    await asyncio.to_thread(platform.worker, "faults-loebner", ARENA_SIGNING_KEY=key)  # replies, the switch, the close
    round_ = await asyncio.to_thread(lambda: contest.rounds.get(number=1))
    meeting = await asyncio.to_thread(
        lambda: round_.meetings.select_related("judge__user", "confederate__user", "interrogation").get(
            judge__label="J1"
        )
    )
    interrogation = meeting.interrogation
    human = await asyncio.to_thread(lambda: interrogation.conversations.get(witness_human__isnull=False))
    first, second = "left", "right"
    await asyncio.to_thread(services.round_start, round_id=round_.pk)
    started = time.monotonic()
    judge = Console(port, f"/ws/judge/{interrogation.public_id}/", session_cookie(cast.jude), "judge")
    witness = Console(port, f"/ws/witness/{human.public_id}/", session_cookie(meeting.confederate.user), "confederate")
    await judge.start()
    await witness.start()
    try:
        # --- the left witness, before the fault ----------------------------------------------------------
        for i in range(2):
            assert await judge.send({"type": "message", "side": first, "text": f"left question {i}"})
            if human.side == first:
                await witness.wait_for(lambda i=i: f"left question {i}" in witness.texts("", "judge"), 15)
                assert await witness.send({"type": "message", "text": f"left answer {i}"})
            await judge.wait_for(lambda i=i: len(judge.texts(first, "witness")) > i, 20)
        seen = judge.texts(first)
        assert len(seen) == 4

        # --- the server dies; half time passes while it is down ------------------------------------------
        await asyncio.to_thread(server.kill)
        await judge.wait_for(lambda: not judge.is_open, 10)
        await asyncio.sleep(max(0.0, fmt.round_minutes * 60 + 1 - (time.monotonic() - started)))
        await asyncio.to_thread(platform.daphne, port)
        await judge.connected(40)
        await witness.connected(40)

        # nothing acknowledged is lost; the round moved on to the right witness without the server
        assert judge.texts(first) == seen
        stored = await asyncio.to_thread(
            lambda: list(
                Message.objects.filter(conversation__interrogation=interrogation, conversation__side=first)
                .order_by("seq")
                .values_list("text", flat=True)
            )
        )
        assert stored == seen
        statuses = await asyncio.to_thread(lambda: dict(interrogation.conversations.values_list("side", "status")))
        assert statuses == {first: Status.SCHEDULED, second: Status.RUNNING}
        assert await judge.send({"type": "message", "side": second, "text": "right question"})
        await judge.wait_for(lambda: "right question" in judge.texts(second), 15)
        assert await judge.send({"type": "message", "side": first, "text": "too late for the left"})
        await judge.wait_for(lambda: judge.errors, 15)

        # --- the interrogation ends on its deadline (the worker's timer), the review period follows --------
        def ended():
            return Interrogation.objects.get(pk=interrogation.pk)

        end = time.monotonic() + 40
        while (await asyncio.to_thread(ended)).status != Status.ENDED and time.monotonic() < end:
            await asyncio.sleep(0.5)
        done = await asyncio.to_thread(ended)
        assert done.status == Status.ENDED and done.end_reason == "time" and done.ended_at == done.deadline
        fresh = await asyncio.to_thread(Round.objects.get, pk=round_.pk)
        clock = selectors.round_clock(round_=fresh, fmt=fmt)
        assert clock["phase"] in ("review", "break", "over")
    finally:
        await judge.close()
        await witness.close()
