"""LPP2 lines stored from daphne's event loop (lpp.lpp2.loop_lines, PostgreSQL): a line whose seat is
cached is stored by the append's one statement over the loop's own connection and pushed; anything
the caches cannot decide, or the append refuses, is left to the thread path (None), which answers why;
a connection lost mid-statement is reported as unknown, never stored twice."""

import asyncio
import json

import pytest

from arena.models import Message
from lpp.lpp2 import loop_lines, selectors
from lpp.lpp2.services import lpp2_contest_setup, lpp2_round_end, lpp2_round_new, lpp2_round_start
from tournaments.loebner.models import Meeting

SECRET = "s3cret"
pytestmark = pytest.mark.django_db(transaction=True)


def data(name: str, to: str, content: str, secret: str = SECRET) -> str:
    return json.dumps({"id": name, "secret": secret, "to": to, "content": content})


@pytest.fixture
def running():
    if not loop_lines.usable():
        pytest.skip("the loop's lines need PostgreSQL")
    lpp2 = lpp2_contest_setup(name="LPP2 loop", secret=SECRET)
    lpp2_round_new(lpp2_id=lpp2.pk)
    lpp2_round_start(lpp2_id=lpp2.pk)
    meeting = Meeting.objects.select_related("entry").get(
        round__contest=lpp2.contest, round__number=1, judge__label="J1"
    )
    selectors.hot_path_forget()
    yield lpp2, meeting, f"ai{int(meeting.entry.label[1:]) - 1}"
    selectors.hot_path_forget()


def texts(meeting):
    return list(
        Message.objects.filter(conversation__interrogation=meeting.interrogation)
        .order_by("created_at")
        .values_list("sender_role", "text")
    )


async def post_all(*items):
    lines = loop_lines.LoopLines()
    try:
        return [await lines.post(item) for item in items]
    finally:
        await lines.close()


def test_a_cached_line_is_stored_from_the_loop_and_relayed_as_the_thread_path_would(running):
    lpp2, meeting, ai = running
    assert asyncio.run(post_all(data("judge0", ai, "cold"))) == [None]  # nothing cached: the thread path reads
    assert texts(meeting) == []
    selectors.hot_path_warm()
    (first, second) = asyncio.run(post_all(data("judge0", ai, " Hello <b>machine</b>?\r\n"), data(ai, "judge0", "Hi.")))
    assert texts(meeting) == [("interrogator", " Hello <b>machine</b>?\n"), ("witness", "Hi.")]  # as typed
    lpp2_id, line = first
    assert lpp2_id == lpp2.pk and (line.to, line.judge, line.number, line.seq) == (ai, "judge0", 0, 1)
    assert json.loads(line.data) == {"id": "judge0", "secret": "", "content": " Hello <b>machine</b>?\n", "to": ai}
    assert (second[1].to, second[1].judge, second[1].seq) == ("judge0", "judge0", 2)
    stored = Message.objects.get(conversation_id=line.conversation_id, seq=1)
    assert stored.created_at.utcoffset().total_seconds() == 0 and stored.hash  # chained, in UTC like Django's


def test_what_the_caches_or_the_append_refuse_is_left_to_the_thread_path(running):
    lpp2, meeting, ai = running
    selectors.hot_path_warm()
    other = "ai3" if ai != "ai3" else "ai2"
    refused = asyncio.run(
        post_all(
            data("judge0", ai, "x", secret="wrong"),
            data("judge0", other, "not my partner"),
            data("judge0", ai, "   "),
            data("judge0", ai, "x" * 100_000),
            "{not json",
        )
    )
    assert refused == [None] * 5
    lpp2_round_end(lpp2_id=lpp2.pk)  # the round ended in another process: this one's caches still say round 0
    assert asyncio.run(post_all(data("judge0", ai, "after the end"))) == [None]
    assert texts(meeting) == []


def test_the_loops_connections_are_opened_warm_and_take_lines_in_turn(running):
    """Opened ahead (the hub does it when it first follows a contest), each connection has already
    called the append once and plans it generically; lines take the connection idle longest, so a
    burst of lines finds no session cold."""
    lpp2, meeting, ai = running
    selectors.hot_path_warm()

    async def scenario():
        lines = loop_lines.LoopLines()
        await lines.open()
        try:
            assert len(lines.idle) == loop_lines.CONNECTIONS
            for conn in lines.idle:
                assert (await (await conn.execute("SHOW plan_cache_mode")).fetchone())[0] == "force_generic_plan"
                assert (await (await conn.execute("SELECT count(*) FROM arena_message")).fetchone())[0] == 0
            before = list(lines.idle)
            await lines.post(data("judge0", ai, "first"))
            assert lines.idle == before[1:] + before[:1]
            await lines.post(data("judge0", ai, "second"))
            assert lines.idle == before[2:] + before[:2]
        finally:
            await lines.close()

    asyncio.run(scenario())
    assert [text for _, text in texts(meeting)] == ["first", "second"]


def test_lines_posted_while_the_connections_open_never_open_more_than_the_bound(running):
    """A hub opens its connections when it first follows a contest; lines arriving meanwhile take them as
    they open (or wait for one), so the process never holds more than CONNECTIONS connections."""
    lpp2, meeting, ai = running
    selectors.hot_path_warm()

    async def scenario():
        lines = loop_lines.LoopLines()
        opening = asyncio.ensure_future(lines.open())
        try:
            stored = await asyncio.gather(*(lines.post(data("judge0", ai, f"line {k}")) for k in range(8)))
            await opening
            assert all(found is not None for found in stored)
            conn = lines.idle[0]
            query = "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND datname = current_database()"
            assert (await (await conn.execute(query, [loop_lines.APPLICATION_NAME])).fetchone())[
                0
            ] == loop_lines.CONNECTIONS
            assert lines.opened == len(lines.idle) == loop_lines.CONNECTIONS
        finally:
            await lines.close()
        assert lines.opened == 0

    asyncio.run(scenario())
    assert sorted(text for _, text in texts(meeting)) == sorted(f"line {k}" for k in range(8))


def test_a_connection_lost_mid_statement_is_reported_not_stored_twice(running, monkeypatch):
    lpp2, meeting, ai = running
    selectors.hot_path_warm()

    async def scenario():
        lines = loop_lines.LoopLines()
        await lines.post(data("judge0", ai, "opens a connection"))
        (conn,) = lines.idle

        async def lost(*args, **kwargs):
            import psycopg

            raise psycopg.OperationalError("server closed the connection unexpectedly")

        monkeypatch.setattr(conn, "execute", lost)
        with pytest.raises(loop_lines.LineUnknown, match="may not have been stored"):
            await lines.post(data("judge0", ai, "lost"))
        assert lines.idle == [] and conn.closed  # the broken connection is not used again
        assert (await lines.post(data("judge0", ai, "next")))[1].seq == 2  # a fresh one
        await lines.close()

    asyncio.run(scenario())
    assert [text for _, text in texts(meeting)] == ["opens a connection", "next"]


def test_a_failure_after_the_append_leaves_the_line_stored_once(running, monkeypatch):
    """What follows a stored line may fail (a bug, a push): the line is given as stored (None to relay),
    never handed to the thread path to be stored a second time."""
    lpp2, meeting, ai = running
    selectors.hot_path_warm()

    def broken(**kwargs):
        raise RuntimeError("relay payload failed")

    monkeypatch.setattr(loop_lines, "line_of", broken)
    assert asyncio.run(post_all(data("judge0", ai, "stored once"))) == [(lpp2.pk, None)]
    assert texts(meeting) == [("interrogator", "stored once")]
