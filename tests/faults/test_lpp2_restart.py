"""LPP2 across two daphne processes sharing Redis, and one of them SIGKILLed mid-round and started again:
a judge on one process and its ai on the other chat through the channel layer; after the restart the
judge reconnects, its recap has every line, its robot pick is still there, and the round goes on."""

import asyncio
import json

from bench.harness import free_port
from lpp.lpp2.services import lpp2_contest_setup
from lpp.models import Lpp2Score
from tests.faults.conftest import services_only
from tests.lpp.lpp2_clients import Lpp2Client

pytestmark = services_only
SECRET = "s3cret"


async def test_a_daphne_restart_mid_round_loses_no_line_and_no_score(platform):
    db = asyncio.to_thread
    await db(lpp2_contest_setup, name="LPP2 restart", secret=SECRET)
    port_a, port_b = free_port(), free_port()
    server_a = await db(platform.daphne, port_a)
    await db(platform.daphne, port_b)
    url_a, url_b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    controller = await Lpp2Client(url_b, "CONTROLLER", SECRET).connect()
    judge = await Lpp2Client(url_a, "judge0", SECRET).connect()
    await controller.send("controller", {"status": "newRound"})
    partners = json.loads(await judge.next("control"))["partners"]  # a broadcast from B reaches A's socket
    ai_name = next(p for p in partners["judge0"] if p.startswith("ai"))
    ai = await Lpp2Client(url_b, ai_name, SECRET, eio=3).connect()
    await controller.send("controller", {"status": "startRound"})
    await judge.next("control")
    try:
        sent = []
        for i in range(3):
            await judge.send("message", {"to": ai_name, "content": f"question {i}"})
            assert json.loads(await ai.next("message"))["content"] == f"question {i}"  # process A -> B
            await ai.send("message", {"to": "judge0", "content": f"answer {i}"})
            assert json.loads(await judge.next("message"))["content"] == f"answer {i}"  # B -> A
            sent += [f"question {i}", f"answer {i}"]
        await judge.send("score", {"robot": ai_name})
        for _ in range(50):
            if await db(lambda: Lpp2Score.objects.filter(judge="judge0", robot=ai_name).exists()):
                break
            await asyncio.sleep(0.1)

        await db(server_a.kill)
        await asyncio.sleep(0.5)
        await judge.close()
        await db(platform.daphne, port_a)
        judge = await Lpp2Client(url_a, "judge0", SECRET).connect()
        await judge.send("control", {"status": "roundInformation"})
        info = json.loads(await judge.next("roundInformation"))
        assert (info["roundNumber"], info["status"]) == (0, "Running")
        await judge.send("control", {"status": "recap"})
        assert [m["content"] for m in json.loads(await judge.next("recap"))] == sent
        await controller.send("controller", {"status": "statusUpdate"})
        status = json.loads(await controller.next("statusUpdate"))
        assert status["scores"][0] == {"judge0": ai_name} and status["scoredClients"] == ["judge0"]
        await judge.send("message", {"to": ai_name, "content": "after the restart"})
        assert json.loads(await ai.next("message"))["content"] == "after the restart"
    finally:
        for client in (judge, ai, controller):
            await client.close()


async def test_reference_pages_go_on_after_a_restart_without_registering_again(platform):
    """The reference pages' socket.io reconnects by itself after a restart of the server and never registers
    again: the platform's first word to every socket (the round) makes each page ask for its recap, with its
    id and secret, and from then on the page hears its partner's lines live; the confederate page, which adds
    a recap to what it shows, shows no line twice."""
    from tests.lpp.lpp2_pages import ConfederatePage, ControlPanel, JudgePage, until

    db = asyncio.to_thread
    await db(lpp2_contest_setup, name="LPP2 stock restart", secret=SECRET)
    port = free_port()
    server = await db(platform.daphne, port)
    url = f"http://127.0.0.1:{port}"
    panel = await ControlPanel(url, SECRET).load()
    await panel.press("newRound")
    await panel.press("startRound")
    while (await panel.poll())["roundStatus"] != "Running":
        await asyncio.sleep(0.05)
    judge = await JudgePage(url, "judge0", SECRET, reconnection=True).load()
    await until(lambda: judge.left is not None)
    confederate_name = next(p for p in (judge.left, judge.right) if p.startswith("conf"))
    side = "L" if judge.left == confederate_name else "R"
    confederate = await ConfederatePage(url, confederate_name, SECRET, reconnection=True).load()
    await until(lambda: confederate.partner == "judge0")
    try:
        await judge.type(side, "before the restart")
        await until(lambda: confederate.shown() == ["before the restart"])

        recaps = {page: sum(1 for event, _ in page.heard if event == "recap") for page in (judge, confederate)}
        await db(server.kill)
        await db(platform.daphne, port)  # the pages reconnect by themselves, and send nothing
        await until(lambda: all(sum(1 for e, _ in p.heard if e == "recap") > n for p, n in recaps.items()), 60)

        side = "L" if judge.left == confederate_name else "R"  # the judge page placed its partners anew
        await judge.type(side, "after the restart")
        await until(lambda: confederate.shown() == ["before the restart", "after the restart"])
        await confederate.type("I heard you.")
        await until(lambda: judge.shown(side) == ["I heard you."])
        assert judge.shown(side, "you") == ["before the restart", "after the restart"]
    finally:
        for page in (judge, confederate, panel):
            await page.close()
