"""What one LPP2 line costs the database (a count load does not change): the append's one statement
on PostgreSQL, and nothing else once the contest's seats are cached."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from arena.models import Message
from lpp.lpp2 import events
from lpp.lpp2.services import lpp2_contest_setup, lpp2_round_new, lpp2_round_start
from tournaments.loebner.models import Meeting

SECRET = "s3cret"


def line(name: str, to: str, content: str):
    return events.lpp2_event(
        event="message", data=json.dumps({"id": name, "secret": SECRET, "to": to, "content": content}), sid="sid"
    )


@pytest.mark.django_db(transaction=True)
def test_an_lpp2_line_is_one_statement_on_postgresql():
    lpp2 = lpp2_contest_setup(name="LPP2 cost", secret=SECRET)
    lpp2_round_new(lpp2_id=lpp2.pk)
    lpp2_round_start(lpp2_id=lpp2.pk)
    meeting = Meeting.objects.select_related("entry").get(
        round__contest=lpp2.contest, round__number=1, judge__label="J1"
    )
    ai = f"ai{int(meeting.entry.label[1:]) - 1}"
    assert line("judge0", ai, "warm the seats").replies == []
    with CaptureQueriesContext(connection) as queries:
        out = line("judge0", ai, "Hello machine?")
        assert out.replies == [] and line(ai, "judge0", "Hi judge.").replies == []
    statements = [q["sql"] for q in queries]
    if connection.vendor == "postgresql":
        assert len(statements) == 2 and all("arena_message_append" in sql for sql in statements), statements
    assert list(
        Message.objects.filter(conversation__interrogation=meeting.interrogation, text__startswith="H")
        .order_by("seq")
        .values_list("sender_role", "text")
    ) == [("interrogator", "Hello machine?"), ("witness", "Hi judge.")]


@pytest.mark.django_db(transaction=True)
def test_a_line_refused_through_a_stale_round_is_decided_again_afresh():
    """Another process moved the panel on (this one's cached round is the old one): the line goes to the
    new round's partner; a line the fresh state refuses is answered with why."""
    from lpp.lpp2.services import lpp2_round_end

    lpp2 = lpp2_contest_setup(name="LPP2 stale", secret=SECRET)
    lpp2_round_new(lpp2_id=lpp2.pk)
    lpp2_round_start(lpp2_id=lpp2.pk)
    first = Meeting.objects.select_related("entry").get(round__contest=lpp2.contest, round__number=1, judge__label="J1")
    assert line("judge0", f"ai{int(first.entry.label[1:]) - 1}", "round one").replies == []  # cached: round 0
    lpp2_round_end(lpp2_id=lpp2.pk)
    lpp2_round_new(lpp2_id=lpp2.pk)
    second = Meeting.objects.select_related("entry").get(
        round__contest=lpp2.contest, round__number=2, judge__label="J1"
    )
    ai = f"ai{int(second.entry.label[1:]) - 1}"
    refused = line("judge0", ai, "too early")
    assert [event for event, _ in refused.replies] == ["TargetError", "message"]  # the page shows the second
    assert "Not Started" in refused.replies[0][1] and "Not Started" in refused.replies[1][1]
    lpp2_round_start(lpp2_id=lpp2.pk)
    assert line("judge0", ai, "round two").replies == []
    assert Message.objects.filter(conversation__interrogation=second.interrogation, text="round two").exists()


@pytest.mark.django_db(transaction=True)
def test_the_seats_are_read_afresh_in_three_queries_however_many_rounds():
    """Every few seconds each process reads the contest's seats again (a secret changed in the admin, a
    round restarted): three queries, not one per meeting, so no line waits behind a long refresh."""
    from lpp.lpp2 import selectors

    lpp2 = lpp2_contest_setup(name="LPP2 seats", secret=SECRET)
    for _ in range(2):
        lpp2_round_new(lpp2_id=lpp2.pk)
        lpp2_round_start(lpp2_id=lpp2.pk)
        from lpp.lpp2.services import lpp2_round_end

        lpp2_round_end(lpp2_id=lpp2.pk)
    meetings = Meeting.objects.filter(round__contest=lpp2.contest).exclude(interrogation=None).count()
    assert meetings >= 8
    selectors.contest_static.cache.clear()
    with CaptureQueriesContext(connection) as queries:
        seats = selectors.contest_static(lpp2=lpp2)["seats"]
    assert len(queries) == 3, [q["sql"][:80] for q in queries]
    assert len(seats) == 3 * meetings  # the judge, the entry and the confederate of every meeting
    assert all(len(seat["partners"]) == (2 if name.startswith("judge") else 1) for (_, name), seat in seats.items())


def controller(status: str):
    return events.lpp2_event(
        event="controller", data=json.dumps({"id": "CONTROLLER", "secret": SECRET, "status": status}), sid="panel"
    )


@pytest.mark.django_db(transaction=True)
def test_a_rounds_first_line_finds_the_round_and_seats_read_by_the_panels_event():
    """The panel's startRound reads the new round and the seats into this process's caches after its
    change, and the hub's beat re-reads them every second: no line, the round's first included, waits
    for their reload (8 conversations starting at once: 20-40 ms for the lines that met it)."""
    from lpp.lpp2 import selectors

    lpp2 = lpp2_contest_setup(name="LPP2 first line", secret=SECRET)
    assert controller("newRound").broadcasts and controller("startRound").broadcasts
    meeting = Meeting.objects.select_related("entry").get(
        round__contest=lpp2.contest, round__number=1, judge__label="J1"
    )
    ai = f"ai{int(meeting.entry.label[1:]) - 1}"
    with CaptureQueriesContext(connection) as queries:
        assert line("judge0", ai, "First line of the round").replies == []
    if connection.vendor == "postgresql":
        assert [q["sql"][:40] for q in queries] == [queries[0]["sql"][:40]] and "arena_message_append" in queries[0][
            "sql"
        ]
    selectors.hot_path_forget()  # the TTL ran out: the beat's warm reads both again, the line does not
    selectors.hot_path_warm()
    with CaptureQueriesContext(connection) as queries:
        assert line(ai, "judge0", "A reply after the beat").replies == []
    if connection.vendor == "postgresql":
        assert len(queries) == 1 and "arena_message_append" in queries[0]["sql"]
    assert Message.objects.filter(conversation__interrogation=meeting.interrogation).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_beat_reads_the_seats_again_only_when_they_are_old_or_the_round_changed():
    """The hub's beat runs every second; the seats (identities, meetings, conversations) are its heavy
    read, done again only when ``fresh_s`` old or when the round changed, and the line target each time."""
    from lpp.lpp2 import selectors
    from lpp.lpp2.services import lpp2_round_end

    def reads(**kwargs) -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            selectors.hot_path_warm(**kwargs)
        return [q["sql"] for q in queries]

    def seats_read(statements) -> bool:
        return any("arena_conversation" in sql for sql in statements)

    lpp2 = lpp2_contest_setup(name="LPP2 beat", secret=SECRET)
    lpp2_round_new(lpp2_id=lpp2.pk)
    lpp2_round_start(lpp2_id=lpp2.pk)
    selectors.hot_path_forget()
    try:
        assert seats_read(reads(fresh_s=60))
        again = reads(fresh_s=60)
        assert again and not seats_read(again)  # the line target only
        assert seats_read(reads(fresh_s=0))  # old enough: read again (a panel event's warm)
        lpp2_round_end(lpp2_id=lpp2.pk)
        lpp2_round_new(lpp2_id=lpp2.pk)  # round 1: new seats, read at the next beat however fresh the old ones
        assert seats_read(reads(fresh_s=60))
        assert (1, "judge0") in selectors.contest_static_peek(lpp2=lpp2)["seats"]
    finally:
        selectors.hot_path_forget()
