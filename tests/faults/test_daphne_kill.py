"""daphne SIGKILLed in the middle of a conversation, then started again on the same port.

What the judge and the confederate notice: their consoles lose the connection ("Reconnecting…"),
come back by themselves when the server is back, and show every message they had seen acknowledged
(their own message shown back with its place in the conversation) before the crash, nothing twice,
and the conversation carries on, the machine witness included.
"""

import asyncio

from arena.models import Message
from bench.harness import free_port, session_cookie
from core.hashchain import chain_verify
from tests.arena.helpers import sides, three_party
from tests.faults.conftest import Console, services_only

pytestmark = services_only


def stored(conversation) -> list[tuple[int, str, str]]:
    return list(
        Message.objects.filter(conversation=conversation).order_by("seq").values_list("seq", "sender_role", "text")
    )


async def test_a_killed_daphne_loses_no_acknowledged_message_and_consoles_carry_on(platform, cast):
    interrogation = three_party(cast, time_limit_s=900)
    human, machine = sides(interrogation)
    H, M = human.side, machine.side
    port = free_port()
    server = await asyncio.to_thread(platform.daphne, port)
    await asyncio.to_thread(platform.worker, "faults-daphne")  # the machine witness's replies
    judge = Console(port, f"/ws/judge/{interrogation.public_id}/", session_cookie(cast.jude), "judge")
    witness = Console(port, f"/ws/witness/{human.public_id}/", session_cookie(cast.connie), "confederate")
    await judge.start()
    await witness.start()
    try:
        # --- a conversation before the fault --------------------------------------------------------
        for i in range(3):
            assert await judge.send({"type": "message", "side": H, "text": f"question {i}"})
            await witness.wait_for(lambda i=i: f"question {i}" in witness.texts("", "judge"), 15)
            assert await witness.send({"type": "message", "text": f"answer {i}"})
            await judge.wait_for(lambda i=i: f"answer {i}" in judge.texts(H, "witness"), 15)
        assert await judge.send({"type": "message", "side": M, "text": "Are you a machine?"})
        await judge.wait_for(lambda: len(judge.texts(M, "witness")) == 1, 30)

        # --- both sides write at once; the server is killed in the middle of it ---------------------
        burst = 40
        sent = {"judge": [], "confederate": []}

        async def write(console, who, frame):
            for k in range(burst):
                text = f"{who} burst {k}"
                if not await console.send({**frame, "text": text}):
                    return  # the page's send() refuses once the socket is known closed
                sent[who].append(text)
                await asyncio.sleep(0.02)

        writers = [
            asyncio.create_task(write(judge, "judge", {"type": "message", "side": H})),
            asyncio.create_task(write(witness, "confederate", {"type": "message"})),
        ]
        await judge.wait_for(lambda: sum("burst" in t for t in judge.texts(H, "you")) >= 5, 30)
        await asyncio.to_thread(server.kill)
        await judge.wait_for(lambda: not judge.is_open, 10)
        await witness.wait_for(lambda: not witness.is_open, 10)
        await asyncio.gather(*writers)
        # what each sender saw acknowledged before the crash (every frame that reached it is read by now)
        acked_judge = [t for t in judge.texts(H, "you") if "burst" in t]
        acked_witness = [t for t in witness.texts("", "you") if "burst" in t]
        assert 5 <= len(acked_judge) < burst, "the kill should land in the middle of the burst"

        # --- the server comes back on the same port; the consoles reconnect by themselves ------------
        await asyncio.to_thread(platform.daphne, port)
        await judge.connected(40)
        await witness.connected(40)
        assert judge.connects == 2 and witness.connects == 2

        rows = stored(human)
        texts = [text for _, _, text in rows]
        # nothing acknowledged is lost, nothing is stored twice, the chain is whole
        for text in acked_judge + acked_witness:
            assert texts.count(text) == 1, text
        assert len(texts) == len(set(texts))
        assert [seq for seq, _, _ in rows] == list(range(1, len(rows) + 1))
        assert chain_verify(human.public_id, Message.objects.filter(conversation=human).order_by("seq")).ok
        # the state each console received on reconnecting is the database's, in order
        judge_state = judge.states[-1]["messages"][H]
        assert [(m["seq"], m["text"]) for m in judge_state] == [(seq, text) for seq, _, text in rows]
        assert [(m["seq"], m["text"]) for m in witness.states[-1]["messages"]] == [(seq, text) for seq, _, text in rows]
        # a message sent but never acknowledged was either stored (and is shown now) or not at all
        unacked = [t for t in sent["judge"] + sent["confederate"] if t not in acked_judge + acked_witness]
        assert all(texts.count(t) <= 1 for t in unacked)

        # --- and the conversation carries on --------------------------------------------------------
        assert await judge.send({"type": "message", "side": H, "text": "Still there?"})
        await witness.wait_for(lambda: "Still there?" in witness.texts("", "judge"), 15)
        assert await witness.send({"type": "message", "text": "Yes, the page came back."})
        await judge.wait_for(lambda: "Yes, the page came back." in judge.texts(H, "witness"), 15)
        assert await judge.send({"type": "message", "side": M, "text": "And you?"})
        await judge.wait_for(lambda: len(judge.texts(M, "witness")) == 2, 30)
        await asyncio.sleep(1.0)
        machine_rows = stored(machine)
        assert [role for _, role, _ in machine_rows] == ["interrogator", "witness", "interrogator", "witness"]
        assert judge.errors == [] and witness.errors == []
    finally:
        await judge.close()
        await witness.close()
