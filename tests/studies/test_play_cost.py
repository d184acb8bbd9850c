"""What one two-party game costs the database, from the lobby to the reveal (a count the machine's load
does not move): the studies benchmark's games per core are mostly these statements. Every SQL statement
of every thread is counted, phase by phase, against a budget that the code meets, so that a query added
per page or per message shows here."""

import asyncio
import collections

import pytest
from asgiref.sync import sync_to_async
from django.db.backends import utils as dbutils

from studies.models import Game

from .test_play import connect, two_players

pytestmark = pytest.mark.django_db(transaction=True)

# statements each phase takes, with a little slack for the timing of pushes: a push's reaction can fall
# in the phase before or after ("end and verdict" measures 21-22 with the same code: each of the two states
# after the verdict asks the formats' reveal rules, a contest's and a wager session's, a statement each;
# its seals are the conversations' and the whole record's inserts at the end, and the record's update with
# the verdict, its row read with the interrogation the verdict locks)
BUDGET = {
    "lobby A": 7,
    "join A": 17,
    "lobby B": 7,
    "join B": 32,
    "game starts": 40,
    "judge console": 10,
    "witness console": 8,
    "20 messages": 20,
    "end and verdict": 23,
}


async def test_a_two_party_game_from_the_lobby_to_the_reveal_stays_within_its_statements(
    cast, monkeypatch, task_worker
):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the budget is PostgreSQL's (SQLite's portable append is three statements and a BEGIN)")
    phase, counts = ["setup"], collections.defaultdict(list)
    execute = dbutils.CursorWrapper._execute_with_wrappers

    def counted(self, sql, params, many, executor):
        if not sql.startswith(("SAVEPOINT", "RELEASE SAVEPOINT")):
            counts[phase[0]].append(sql[:100])
        return execute(self, sql, params, many, executor)

    monkeypatch.setattr(dbutils.CursorWrapper, "_execute_with_wrappers", counted)
    study, (client_a, a), (client_b, b) = await two_players(human_witness_share=1.0, min_wait_s=2, human_wait_s=2)
    phase[0] = "lobby A"
    lobby_a, _, _ = await connect(f"/ws/play/{study.pk}/lobby/", client_a)
    await lobby_a.expect("state")
    phase[0] = "join A"
    await lobby_a.send({"type": "join"})
    await lobby_a.expect("state", waiting=True)
    phase[0] = "lobby B"
    lobby_b, _, _ = await connect(f"/ws/play/{study.pk}/lobby/", client_b)
    await lobby_b.expect("state")
    phase[0] = "join B"
    await lobby_b.send({"type": "join"})
    await lobby_b.expect("state", waiting=True)
    phase[0] = "game starts"
    await asyncio.sleep(2.1)  # the drawn wait (2 s); then the page's next state request starts the game
    await lobby_b.send({"type": "state"})
    # the game's "matched" and the answer to that request, in either order (the lobby's timer task may
    # have made the game a moment before the request)
    seen = set()
    while seen != {"matched", "state"}:
        seen.add((await lobby_b.receive())["type"])
    await lobby_a.expect("matched")
    phase[0] = "setup"
    game = await sync_to_async(Game.objects.get)()
    ask, answer = (client_a, client_b) if game.interrogator_id == a.pk else (client_b, client_a)
    phase[0] = "judge console"
    judge, _, _ = await connect(f"/ws/play/judge/{game.public_id}/", ask)
    await judge.expect("state")
    phase[0] = "witness console"
    witness, _, _ = await connect(f"/ws/play/witness/{game.public_id}/", answer)
    await witness.expect("state")
    phase[0] = "20 messages"
    for i in range(10):
        await judge.send({"type": "message", "side": "sole", "text": f"question {i}"})
        await witness.expect("message", text=f"question {i}")
        await witness.send({"type": "message", "text": f"answer {i}"})
        await judge.expect("message", text=f"answer {i}")
    phase[0] = "end and verdict"
    await judge.send({"type": "end"})
    await judge.expect("status", status="ended")
    await judge.send({"type": "verdict", "choice": "human", "confidence": 80, "reason": "typos"})
    assert (await judge.expect("state", correct=True))["reveal"]
    phase[0] = "setup"
    for socket in (lobby_a, lobby_b, judge, witness):
        await socket.close()
    over = {
        name: (len(counts[name]), budget, collections.Counter(counts[name]).most_common(5))
        for name, budget in BUDGET.items()
        if len(counts[name]) > budget
    }
    assert not over, over
