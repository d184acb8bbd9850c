"""LPP2 lines for bench.lpp_latency: a judge's line sent on its socket.io client -> its partner's client.

A four-judge LPP2 contest (``lpp.lpp2.services.lpp2_contest_setup``) on the run's database; the control
panel (a socket.io client) starts round 0; each judge0…3 talks to both its partners at once (8
conversations: 4 ais on Engine.IO 4, 4 confederates on Engine.IO 3, as the reference pages), one line
every pause() seconds each. Latency = arrival of ``message`` on the partner's client - the moment the
judge's client emitted it (the same clock: one process). Each line is stored in the meeting's arena
interrogation (a database commit) before it is relayed through the channel layer.

Every conversation first exchanges one line, unmeasured (reported as the round's first lines): a
running daphne has its message threads and their database connections open, as after a round's first
lines. The measured lines follow, each conversation starting after uniform(0, stagger_s), as the
baseline's pairs do (``harness.baseline_phase``): eight lines sent in the same instant, which both
would otherwise send at their start, is a coincidence of the benchmark's own clock, not of a contest.

Baselines of the same run, at the same concurrency (8 pairs) and pacing, half before and half after the
lines (``lpp2_baselines``): the bare channel-layer round trip, the database commit (one single-row
INSERT committed through a persistent psycopg connection per pair, bench.chat_latency.Floor, timed
alone), and the line's own database work (``Appends``: the platform's append, committed, timed alone).
Target: line p99 <= 2 x the bare p99 + the commit's p99 (and, printed beside it, the same with the
append's p99 in place of the commit's)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import Callable

SECRET = "bench"


class _Client:
    def __init__(self, url: str, name: str, eio: int):
        self.url, self.name = url, name
        if eio == 3:
            import socketio_v4

            self.sio = socketio_v4.AsyncClient(reconnection=False)
        else:
            import socketio

            self.sio = socketio.AsyncClient(reconnection=False)
        self.inbox: dict[str, asyncio.Queue] = {
            e: asyncio.Queue() for e in ("message", "control", "roundInformation", "TargetError", "AuthError")
        }
        for event, queue in self.inbox.items():
            self.sio.on(event, self._put(queue))

    @staticmethod
    def _put(queue):
        async def put(data=None):
            queue.put_nowait((time.perf_counter(), data))

        return put

    async def start(self) -> _Client:
        await self.sio.connect(self.url, transports=["websocket"])
        await self.send("control", {"status": "register"})
        await self.send("control", {"status": "roundInformation"})
        await asyncio.wait_for(self.inbox["roundInformation"].get(), 10)
        return self

    async def send(self, event: str, payload: dict) -> None:
        await self.sio.emit(event, json.dumps({**payload, "id": self.name, "secret": SECRET}))


def contest_create() -> None:
    from lpp.lpp2.services import lpp2_contest_setup

    lpp2_contest_setup(name="LPP2 bench", secret=SECRET)


PAIRS = 8


class Appends:
    """A line's own database work without the rest of its path: the platform's append
    (``arena.services.appends_pg.CALL``: the conversation's row locked, its chain's last link read, the
    message numbered, hashed, inserted and committed) of a judge's line to a running one-to-one
    interrogation of its own per pair, through a persistent psycopg connection per pair set up as the
    LPP2 hub sets up its own (``loop_lines.connection_params``, warmed by ``loop_lines.warm_args``), run
    on the default thread pool as Floor's INSERT is."""

    def __init__(self):
        self.connections: dict = {}
        self.targets: dict = {}  # pair -> (conversation id, judge's user id)

    def open(self, n: int) -> None:
        import psycopg
        from django.contrib.auth import get_user_model
        from django.utils import timezone

        from arena.services import appends_pg, interrogation_create, interrogation_start
        from lpp.lpp2.loop_lines import connection_params, warm_args

        self.call, self.now = appends_pg.CALL, timezone.now  # not imported inside the timed append
        users = get_user_model().objects
        for i in range(n):
            judge = users.get_or_create(username=f"bench-append-judge{i}")[0]
            witness = users.get_or_create(username=f"bench-append-witness{i}")[0]
            interrogation = interrogation_create(
                judge=judge, witnesses=[witness], time_limit_s=3600, title="bench appends"
            )
            interrogation_start(interrogation_id=interrogation.pk)
            self.targets[i] = (interrogation.conversations.get().pk, judge.pk)
            self.connections[i] = conn = psycopg.connect(**connection_params(), autocommit=True)
            conn.execute(self.call, warm_args())

    def close(self) -> None:
        for conn in self.connections.values():
            conn.close()
        self.connections.clear()

    def _append(self, pair: int, k: int) -> None:
        conversation_id, judge_id = self.targets[pair]
        row = (
            self.connections[pair]
            .execute(
                self.call,
                [conversation_id, "interrogator", judge_id, f"bench {pair} {k}: are you human?", self.now(), True],
            )
            .fetchone()
        )
        if row[0] != "ok":
            raise RuntimeError(f"the bench append was refused: {row[0]}")

    async def write(self, pair: int, k: int) -> None:
        await asyncio.to_thread(self._append, pair, k)


async def lpp2_baselines(
    rounds: int, pause: Callable[[], float], stagger_s: float, timeout_s: float, conninfo: dict
) -> dict:
    """At the LPP2 phase's concurrency and pacing: {"bare": round trips (s), "commit": INSERT + COMMIT
    times (s), "append": the platform's append of a line, committed (s), "lost": round trips lost}; each
    write comes before a round trip, timed on its own, in a phase of its own."""
    from bench import harness
    from bench.chat_latency import Floor

    timed: dict[str, list[float]] = {"commit": [], "append": []}

    def timing(name: str, write):
        async def timed_write(pair: int, k: int) -> None:
            started = time.perf_counter()
            await write(pair, k)
            timed[name].append(time.perf_counter() - started)

        return timed_write

    bare = await harness.baseline_phase(PAIRS, rounds, pause, stagger_s, timeout_s)
    for name, writer in (("commit", Floor(conninfo)), ("append", Appends())):
        await asyncio.to_thread(writer.open, PAIRS)
        try:
            await harness.baseline_phase(PAIRS, rounds, pause, stagger_s, timeout_s, write=timing(name, writer.write))
        finally:
            writer.close()
    return {"bare": bare["latency"], **timed, "lost": bare["lost"]}


async def lpp2_phase(
    base: str,
    lines: int,
    pause: Callable[[], float],
    timeout_s: float,
    stagger_s: float = 0.0,
    stamps: dict | None = None,
) -> dict:
    """Latencies (s) of every measured line, the round's first lines (unmeasured warm-up), lines lost,
    errors (TargetError and the like). ``stamps``: filled with each measured line's client stamps
    (text -> {"client_sent", "client_arrived"}: perf_counter, the clock of bench/tracing's)."""
    await asyncio.to_thread(contest_create)
    controller = await _Client(base, "CONTROLLER", 4).start()
    judges = [await _Client(base, f"judge{j}", 4).start() for j in range(4)]
    await controller.send("controller", {"status": "newRound"})
    _, raw = await asyncio.wait_for(judges[0].inbox["control"].get(), timeout_s)
    partners = json.loads(raw)["partners"]
    witnesses = {
        name: await _Client(base, name, 3 if name.startswith("conf") else 4).start()
        for j in range(4)
        for name in partners[f"judge{j}"]
    }
    await controller.send("controller", {"status": "startRound"})
    for judge in judges:
        await asyncio.wait_for(judge.inbox["control"].get(), timeout_s)
    result = {"latency": [], "first": [], "lost": 0, "errors": []}

    async def talk(judge: _Client, witness: _Client, first: int, count: int, stagger: float = 0.0):
        await asyncio.sleep(stagger)
        for k in range(first, first + count):
            text = f"{judge.name} to {witness.name}: line {k}"
            sent = time.perf_counter()
            await judge.send("message", {"to": witness.name, "content": text})
            try:
                while True:
                    arrived, data = await asyncio.wait_for(witness.inbox["message"].get(), timeout_s)
                    if json.loads(data)["content"] == text:
                        result["latency" if k else "first"].append(arrived - sent)
                        if stamps is not None and k:
                            stamps[text] = {"client_sent": sent, "client_arrived": arrived}
                        break
            except TimeoutError:
                result["lost"] += 1
            await asyncio.sleep(pause())

    pairs = [(judges[j], witnesses[name]) for j in range(4) for name in partners[f"judge{j}"]]
    await asyncio.gather(*(talk(judge, witness, 0, 1) for judge, witness in pairs))
    started = time.perf_counter()
    await asyncio.gather(*(talk(judge, witness, 1, lines, random.uniform(0, stagger_s)) for judge, witness in pairs))
    result["elapsed_s"] = time.perf_counter() - started
    for client in itertools.chain([controller], judges, witnesses.values()):
        while not client.inbox["TargetError"].empty():
            result["errors"].append(client.inbox["TargetError"].get_nowait()[1])
        await client.sio.disconnect()
    return result
