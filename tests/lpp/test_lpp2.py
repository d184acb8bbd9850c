"""LPP2 (docs/reference/protocols.md) against a real daphne, with real socket.io clients of both Engine.IO generations:
every event and every refusal as the reference's clients see them, stored in the contest's
interrogations, scores kept; a judge on LPP2 chatting with a confederate on the platform's console."""

import asyncio
import json
from functools import partial
from urllib.parse import urlsplit

import pytest

from arena.models import Message
from lpp.lpp2.services import lpp2_contest_setup
from lpp.models import Lpp2Score
from tests.lpp.lpp2_clients import Lpp2Client
from tournaments.loebner.models import Judgment, Meeting, Round

pytestmark = pytest.mark.slow
SECRET = "s3cret"


@pytest.fixture
def contest(transactional_db):
    return lpp2_contest_setup(name="LPP2 test", secret=SECRET)


def _round_partners(lpp2, number: int) -> dict:
    """judge0's meeting in round ``number`` (0-based): its ai, its confederate, and which is left."""
    meeting = Meeting.objects.select_related("entry", "confederate").get(
        round__contest=lpp2.contest, round__number=number + 1, judge__label="J1"
    )
    ai, conf = f"ai{int(meeting.entry.label[1:]) - 1}", f"conf{int(meeting.confederate.label[1:]) - 1}"
    return {"ai": ai, "conf": conf, "left": ai if meeting.left == "entry" else conf, "meeting": meeting}


async def test_every_event_and_refusal_eio4(contest, live_daphne):
    db = asyncio.to_thread
    controller = await Lpp2Client(live_daphne, "CONTROLLER", SECRET).connect()
    judge = await Lpp2Client(live_daphne, "judge0", SECRET).connect()
    try:
        # before the first round: roundNumber -1, no partners, no recap, messages refused with a reason
        await judge.send("control", {"status": "roundInformation"})
        assert await judge.next("roundInformation") == '{"roundNumber":-1, "status":"Finished", "partners":{}}'
        await judge.send("control", {"status": "recap"})
        assert await judge.none("recap")
        await judge.send("message", {"to": "ai0", "content": "hello?"})
        assert "No round" in json.loads(await judge.next("TargetError"))["status"]
        shown = json.loads(await judge.next("message"))  # the reference pages show no TargetError: a line they show
        assert shown["id"] == "ai0" and shown["content"].startswith("[platform] Your line (6 characters) was not")
        # a wrong secret: AuthError, a plain string; a payload that is not JSON: TargetError naming why
        await judge.send("control", {"status": "roundInformation"}, secret="wrong")
        assert await judge.next("AuthError") == "Invalid secret"
        await judge.sio.emit("control", "{not json")
        assert json.loads(await judge.next("TargetError")) == {"status": "the payload is not JSON"}
        await judge.send("controller", {"status": "newRound"})
        assert "only the CONTROLLER" in json.loads(await judge.next("TargetError"))["status"]

        # newRound: broadcast with every identity's partners; the round is Not Started
        await controller.send("controller", {"status": "newRound"})
        raw = await judge.next("control")
        assert raw.startswith('{"status":"newRound","partners": {"judge0":[')
        partners = json.loads(raw)["partners"]
        assert list(partners)[:5] == ["judge0", "judge1", "judge2", "judge3", "ai0"] and len(partners) == 12
        seats = await db(_round_partners, contest, 0)
        assert partners["judge0"] == [seats["left"], ({seats["ai"], seats["conf"]} - {seats["left"]}).pop()]
        assert partners[seats["ai"]] == ["judge0"] and partners[seats["conf"]] == ["judge0"]
        await judge.send("control", {"status": "roundInformation"})
        info = json.loads(await judge.next("roundInformation"))
        assert (info["roundNumber"], info["status"], info["partners"]) == (0, "Not Started", partners)
        await judge.send("message", {"to": seats["ai"], "content": "too early"})
        assert "Not Started" in json.loads(await judge.next("TargetError"))["status"]
        assert "Not Started" in json.loads(await judge.next("message"))["content"]

        ai = await Lpp2Client(live_daphne, seats["ai"], SECRET).connect()
        conf = await Lpp2Client(live_daphne, seats["conf"], SECRET).connect()
        await controller.send("controller", {"status": "startRound"})
        for client in (judge, ai, conf):
            assert await client.next("control") == '{"status":"startRound"}'

        # messages line by line, relayed with the secret blanked, stored in the meeting's interrogation
        await judge.send("message", {"to": seats["ai"], "content": "Hello <b>machine</b>?"})
        got = json.loads(await ai.next("message"))
        assert got == {"id": "judge0", "secret": "", "content": "Hello <b>machine</b>?", "to": seats["ai"]}
        await ai.send("message", {"to": "judge0", "content": "Hi judge."})
        assert json.loads(await judge.next("message"))["content"] == "Hi judge."
        await judge.send("message", {"to": seats["conf"], "content": "And you?"})
        assert json.loads(await conf.next("message"))["content"] == "And you?"
        await conf.send("message", {"to": "judge0", "content": "Human here."})
        assert json.loads(await judge.next("message")) == {
            "id": seats["conf"],
            "secret": "",
            "content": "Human here.",
            "to": "judge0",
        }
        assert await conf.none("message")  # the judge's line to the ai went to the ai only
        # refusals name why: not a partner, empty content, a confederate writing to another judge
        await judge.send("message", {"to": "ai3" if seats["ai"] != "ai3" else "ai2", "content": "psst"})
        assert "is not your partner in round 0" in json.loads(await judge.next("TargetError"))["status"]
        assert "is not your partner in round 0" in json.loads(await judge.next("message"))["content"]
        await judge.send("message", {"to": seats["ai"], "content": "   "})
        assert "empty" in json.loads(await judge.next("TargetError"))["status"]
        assert "empty" in json.loads(await judge.next("message"))["content"]
        await conf.send("message", {"to": "judge1", "content": "hi"})
        assert "not your partner" in json.loads(await conf.next("TargetError"))["status"]
        assert "not your partner" in json.loads(await conf.next("message"))["content"]

        stored = await db(
            lambda: list(
                Message.objects.filter(conversation__interrogation=seats["meeting"].interrogation)
                .order_by("created_at")
                .values_list("sender_role", "text")
            )
        )
        assert stored == [
            ("interrogator", "Hello <b>machine</b>?"),
            ("witness", "Hi judge."),
            ("interrogator", "And you?"),
            ("witness", "Human here."),
        ]

        # recap (a reconnecting judge): a JSON array of its round's lines
        await judge.send("control", {"status": "recap"})
        lines = json.loads(await judge.next("recap"))
        assert [(m["id"], m["to"], m["content"]) for m in lines] == [
            ("judge0", seats["ai"], "Hello <b>machine</b>?"),
            (seats["ai"], "judge0", "Hi judge."),
            ("judge0", seats["conf"], "And you?"),
            (seats["conf"], "judge0", "Human here."),
        ]
        await ai.send("control", {"status": "recap"})
        assert len(json.loads(await ai.next("recap"))) == 2

        # the webcast: participants, the recap, then live copies of judge0's lines
        webcast = await Lpp2Client(live_daphne, "webcast", SECRET).connect(register=False)
        await webcast.send("webcast", {"status": "setView", "round": "0", "judge": "0"})
        assert json.loads(await webcast.next("participants")) == {
            "judge": "judge0",
            "participant1": seats["conf"],
            "participant2": seats["ai"],
        }
        assert len(json.loads(await webcast.next("recap"))) == 4
        await judge.send("message", {"to": seats["conf"], "content": "live line"})
        assert json.loads(await webcast.next("message"))["content"] == "live line"
        await webcast.close()

        # score: the judge's robot pick, stored with the meeting's judgment; statusUpdate shows it
        await judge.send("score", {"robot": seats["ai"]})
        await judge.send("score", {"robot": "judge1"})
        assert "robot must be one of your partners" in json.loads(await judge.next("TargetError"))["status"]
        await controller.send("controller", {"status": "statusUpdate"})
        status = json.loads(await controller.next("statusUpdate"))
        assert status["roundNumber"] == 0 and status["roundStatus"] == "Running"
        assert status["connectedClients"][0]["judge0"] is True and status["connectedClients"][0]["judge1"] is False
        assert status["connectedClients"][1][seats["ai"]] is True
        assert status["scoredClients"] == ["judge0"] and status["scores"][0] == {"judge0": seats["ai"]}
        judgment = await db(lambda: Judgment.objects.get(meeting=seats["meeting"]))
        assert judgment.human == "confederate"

        # endRound: broadcast; messages refused after it
        await controller.send("controller", {"status": "endRound"})
        assert await judge.next("control") == '{"status":"endRound"}'
        await judge.send("message", {"to": seats["ai"], "content": "one more"})
        assert "Finished" in json.loads(await judge.next("TargetError"))["status"]
        assert "Finished" in json.loads(await judge.next("message"))["content"]
        await judge.send("control", {"status": "roundInformation"})
        assert json.loads(await judge.next("roundInformation"))["status"] == "Finished"
        assert await db(lambda: Round.objects.get(contest=contest.contest, number=1).status) == Round.Status.ENDED

        # finalScore before every round is finished: refused with the reason, nothing stored
        await judge.send("finalScore", {"finalScores": ["3", "4", "1", "2"]})
        assert "3 of 4 rounds are not" in json.loads(await judge.next("TargetError"))["status"]
        assert not await db(lambda: Lpp2Score.objects.filter(lpp2=contest, final_score__isnull=False).exists())
        for client in (ai, conf):
            await client.close()
    finally:
        await judge.close()
        await controller.close()


async def test_reference_generation_eio3_polling_and_websocket(contest, live_daphne):
    """The reference pages' socket.io 1.4.5 speaks Engine.IO 3 and starts on long-polling."""
    controller = await Lpp2Client(live_daphne, "CONTROLLER", SECRET, eio=3, transports=("polling",)).connect()
    judge = await Lpp2Client(live_daphne, "judge0", SECRET, eio=3, transports=("polling",)).connect()
    modern = await Lpp2Client(live_daphne, "judge1", SECRET, eio=4).connect()
    try:
        await judge.send("control", {"status": "register"}, secret="nope")
        assert await judge.next("AuthError") == "Invalid secret"
        await controller.send("controller", {"status": "newRound"})
        partners = json.loads(await judge.next("control"))["partners"]
        assert json.loads(await modern.next("control"))["partners"] == partners  # both generations hear it
        await controller.send("controller", {"status": "startRound"})
        assert await judge.next("control") == '{"status":"startRound"}'
        witness = partners["judge0"][0]
        other = await Lpp2Client(live_daphne, witness, SECRET, eio=3).connect()  # websocket
        await judge.send("message", {"to": witness, "content": "ça va ? 👋"})
        assert json.loads(await other.next("message"))["content"] == "ça va ? 👋"
        await other.send("message", {"to": "judge0", "content": "oui"})
        assert json.loads(await judge.next("message"))["content"] == "oui"
        await other.close()
    finally:
        for client in (judge, controller, modern):
            await client.close()


async def test_each_line_reaches_its_partner_and_the_webcast_once_and_in_order(contest, live_daphne):
    """A line's sender's process relays it at once, and the channel layer brings the same line again:
    every socket still gets each line exactly once, in the order its sender sent them."""
    controller = await Lpp2Client(live_daphne, "CONTROLLER", SECRET).connect()
    judge = await Lpp2Client(live_daphne, "judge0", SECRET).connect()
    await controller.send("controller", {"status": "newRound"})
    partners = json.loads(await judge.next("control"))["partners"]
    await controller.send("controller", {"status": "startRound"})
    await judge.next("control")
    witness = await Lpp2Client(live_daphne, partners["judge0"][0], SECRET, eio=3).connect()
    webcast = await Lpp2Client(live_daphne, "webcast", SECRET).connect(register=False)
    try:
        await webcast.send("webcast", {"status": "setView", "round": "0", "judge": "0"})
        await webcast.next("participants"), await webcast.next("recap")
        asked = [f"question {k}" for k in range(12)]
        answered = [f"answer {k}" for k in range(12)]
        for question, answer in zip(asked, answered):  # both sides at once, without waiting for delivery
            await judge.send("message", {"to": witness.name, "content": question})
            await witness.send("message", {"to": "judge0", "content": answer})
        assert [json.loads(await witness.next("message"))["content"] for _ in asked] == asked
        assert [json.loads(await judge.next("message"))["content"] for _ in answered] == answered
        watched = [json.loads(await webcast.next("message"))["content"] for _ in range(24)]
        assert sorted(watched) == sorted(asked + answered)
        assert [line for line in watched if line in asked] == asked
        assert await witness.none("message") and await judge.none("message") and await webcast.none("message")
    finally:
        for client in (webcast, witness, judge, controller):
            await client.close()


@pytest.mark.own_daphne  # the connections a fresh server opens
async def test_the_servers_line_connections_are_open_before_the_first_line(contest, live_daphne):
    """On PostgreSQL a daphne stores lines from its event loop over connections of its own, opened when
    its first client registers, so that a round's first lines do not wait for them."""
    from lpp.lpp2 import loop_lines

    if not await asyncio.to_thread(loop_lines.usable):
        pytest.skip("lines are stored from the loop on PostgreSQL only")

    def query(sql: str, *params):
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone()[0]

    since = await asyncio.to_thread(query, "SELECT clock_timestamp()")
    opened = partial(
        asyncio.to_thread,
        query,
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND backend_start > %s "
        "AND datname = current_database()",
        loop_lines.APPLICATION_NAME,
        since,
    )  # this test's daphne only
    judge = await Lpp2Client(live_daphne, "judge0", SECRET).connect()
    try:
        for _ in range(50):
            if await opened() == loop_lines.CONNECTIONS:
                break
            await asyncio.sleep(0.1)
        assert await opened() == loop_lines.CONNECTIONS
    finally:
        await judge.close()


async def test_lpp2_judge_and_console_confederate_in_one_round(contest, live_daphne):
    """judge0 on LPP2, its confederate on the platform's own console (the witness websocket)."""
    from bench.harness import session_cookie
    from tests.faults.conftest import Console

    db = asyncio.to_thread
    controller = await Lpp2Client(live_daphne, "CONTROLLER", SECRET).connect()
    judge = await Lpp2Client(live_daphne, "judge0", SECRET).connect()
    await controller.send("controller", {"status": "newRound"})
    await judge.next("control")
    await controller.send("controller", {"status": "startRound"})
    await judge.next("control")
    seats = await db(_round_partners, contest, 0)
    meeting = seats["meeting"]
    human = await db(
        lambda: meeting.interrogation.conversations.select_related("witness_human").get(witness_human__isnull=False)
    )
    cookie = await db(session_cookie, human.witness_human)
    console = Console(urlsplit(live_daphne).port, f"/ws/witness/{human.public_id}/", cookie, "confederate")
    await console.start()
    try:
        await judge.send("message", {"to": seats["conf"], "content": "Where do you live?"})
        await console.wait_for(lambda: "Where do you live?" in console.texts(""), 10)
        assert await console.send({"type": "message", "text": "By the sea & <wind>."})
        got = json.loads(await judge.next("message"))
        assert got == {"id": seats["conf"], "secret": "", "content": "By the sea & <wind>.", "to": "judge0"}
    finally:
        await console.close()
        await judge.close()
        await controller.close()


def test_setup_command_resets_and_serves_one_contest(transactional_db, capsys):
    from django.core.management import call_command

    from lpp.models import Lpp2Contest, Lpp2Identity

    call_command("lpp2", "setup", "--contest", "AISB rehearsal", "--secret", "alice")
    first = Lpp2Contest.objects.get(active=True)
    assert first.contest.format_name == "aisb" and first.driver == "panel" and first.contest.rounds.count() == 4
    names = set(Lpp2Identity.objects.filter(lpp2=first).values_list("name", flat=True))
    assert names == {*(f"{p}{i}" for p in ("judge", "ai", "conf") for i in range(4)), "CONTROLLER", "webcast"}
    assert all(i.secret_matches("alice") and not i.secret_matches("bob") for i in first.identities.all())
    assert "alice" not in "".join(first.identities.values_list("secret_hash", flat=True))
    call_command("lpp2", "setup", "--contest", "AISB rehearsal", "--secret", "bob")
    second = Lpp2Contest.objects.get(active=True)
    assert second.pk != first.pk and second.contest.name == "AISB rehearsal"
    first.refresh_from_db()
    assert not first.active and first.contest.name.startswith("AISB rehearsal (reset ")
    assert "served at /socket.io/" in capsys.readouterr().out


def test_organiser_sets_a_secret_in_the_admin(contest, client, cast):
    from lpp.models import Lpp2Identity

    client.force_login(cast.olivia)
    if not cast.olivia.is_staff or not cast.olivia.is_superuser:
        cast.olivia.is_staff = cast.olivia.is_superuser = True
        cast.olivia.save()
    identity = Lpp2Identity.objects.get(lpp2=contest, name="judge2")
    page = client.get(f"/admin/lpp/lpp2contest/{contest.pk}/change/").content.decode()
    assert "Judges&#x27; ranking pages" in page and page.count("/contests/lpp2/rank/") == 8  # each judge's, linked
    assert client.get("/admin/lpp/lpp2problem/").status_code == 200
    prefix = "identities"
    rows = list(Lpp2Identity.objects.filter(lpp2=contest).order_by("name"))
    form = {
        f"{prefix}-TOTAL_FORMS": str(len(rows)),
        f"{prefix}-INITIAL_FORMS": str(len(rows)),
        "contest": contest.contest_id,
        "driver": "panel",
        "round_number": "-1",
        "active": "on",
    }
    for k, row in enumerate(rows):
        form.update(
            {
                f"{prefix}-{k}-id": row.pk,
                f"{prefix}-{k}-lpp2": contest.pk,
                f"{prefix}-{k}-name": row.name,
                f"{prefix}-{k}-participant": row.participant_id or "",
                f"{prefix}-{k}-new_secret": "n3w-secret" if row.pk == identity.pk else "",
            }
        )
    response = client.post(f"/admin/lpp/lpp2contest/{contest.pk}/change/", form)
    assert response.status_code == 302, response.content[:2000]
    identity.refresh_from_db()
    assert identity.secret_matches("n3w-secret") and not identity.secret_matches(SECRET)
    assert Lpp2Identity.objects.get(lpp2=contest, name="judge1").secret_matches(SECRET)


async def test_rounds_driven_by_the_platforms_schedule_reach_lpp2_clients(transactional_db, live_daphne):
    """driver "schedule": the organiser starts and finishes rounds on the platform (the Loebner services
    the board calls); LPP2 clients hear newRound, startRound and endRound as from a panel, and the panel's
    own commands are refused."""
    from tournaments.loebner.services import round_finish, round_start

    db = asyncio.to_thread
    lpp2 = await db(lpp2_contest_setup, name="LPP2 scheduled", secret=SECRET, driver="schedule")
    judge = await Lpp2Client(live_daphne, "judge0", SECRET).connect()
    controller = await Lpp2Client(live_daphne, "CONTROLLER", SECRET).connect()
    try:
        await controller.send("controller", {"status": "newRound"})
        assert "schedule" in json.loads(await controller.next("TargetError"))["status"]
        await asyncio.sleep(1.5)  # the hub's first look
        first = await db(lambda: Round.objects.get(contest=lpp2.contest, number=1))
        await db(round_start, round_id=first.pk)
        assert json.loads(await judge.next("control"))["status"] == "newRound"
        assert await judge.next("control") == '{"status":"startRound"}'
        await judge.send("control", {"status": "roundInformation"})
        info = json.loads(await judge.next("roundInformation"))
        assert (info["roundNumber"], info["status"]) == (0, "Running")
        await db(round_finish, round_id=first.pk)
        assert await judge.next("control") == '{"status":"endRound"}'
    finally:
        await judge.close()
        await controller.close()


async def test_an_lpp1_entry_meets_an_lpp2_judge_through_the_bridge(contest, live_daphne, tmp_path):
    """The organiser switches judge0's round-0 entry to the legacy protocol (engine "lpp"): lpp_bridge's
    Bridge runs its communications-directory program (here lpp.entry's echo); the LPP2 judge's line
    reaches it key by key and its answer comes back into the judge's recap (live too in services mode,
    where the bridge's push crosses processes)."""
    import os
    import sys

    from arena.models import Entry
    from lpp.bridge import Bridge
    from tests.lpp.test_bridge import step_until

    db = asyncio.to_thread
    seats = await db(_round_partners, contest, 0)
    entry = await db(lambda: Entry.objects.get(pk=seats["meeting"].entry.contest_entry.entry_id))
    entry.engine = "lpp"
    await db(entry.save, update_fields=["engine"])
    controller = await Lpp2Client(live_daphne, "CONTROLLER", SECRET).connect()
    judge = await Lpp2Client(live_daphne, "judge0", SECRET).connect()
    bridge = await db(
        Bridge,
        entry,
        f"{sys.executable} -m lpp.entry {{dir}} --engine echo --fast --idle 1 --watch poll",
        tmp_path / "comm",
    )
    try:
        await controller.send("controller", {"status": "newRound"})
        await judge.next("control")
        await controller.send("controller", {"status": "startRound"})
        await judge.next("control")
        await judge.send("message", {"to": seats["ai"], "content": "Are you an old program?"})
        witness = await db(lambda: seats["meeting"].interrogation.conversations.get(witness_entry__isnull=False))
        await db(step_until, bridge, lambda: witness.messages.filter(sender_role="witness").exists(), 20)
        if os.environ.get("REDIS_URL"):
            live = json.loads(await judge.next("message"))
            assert (live["id"], live["content"]) == (seats["ai"], "Are you an old program?")
        await judge.send("control", {"status": "recap"})
        lines = json.loads(await judge.next("recap"))
        assert [(m["id"], m["content"]) for m in lines] == [
            ("judge0", "Are you an old program?"),
            (seats["ai"], "Are you an old program?"),
        ]
    finally:
        await db(bridge.close)
        await judge.close()
        await controller.close()


def test_an_existing_contest_is_connected_to_lpp2(transactional_db, cast):
    from django.core.management import CommandError, call_command

    from lpp.models import Lpp2Contest
    from tests.tournaments.loebner.helpers import finals_make

    contest = finals_make(cast, fmt="2012")
    with pytest.raises(CommandError, match="No contest named"):
        call_command("lpp2", "connect", "--contest", "nope", "--secret", "x")
    call_command("lpp2", "connect", "--contest", contest.name, "--secret", "x")
    lpp2 = Lpp2Contest.objects.get(active=True)
    assert lpp2.contest == contest and lpp2.driver == "schedule"
    labels = dict(lpp2.identities.filter(participant__isnull=False).values_list("name", "participant__label"))
    assert labels["judge0"] == "J1" and labels["ai3"] == "E4" and labels["conf1"] == "C2"
    with pytest.raises(CommandError, match="already"):
        call_command("lpp2", "connect", "--contest", contest.name, "--secret", "x")
