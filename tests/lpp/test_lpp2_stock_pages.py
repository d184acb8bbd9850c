"""A whole 2017–19-style contest over LPP2 (4 judges, 4 confederates, 4 entries, every round) with clients
that behave as the reference pages and a published entrant program do (``lpp2_pages``): what each person
sees on their screen, what is stored, what the organiser sees on the control panel, and the ranks after
the last round."""

import asyncio
import json

import pytest

from arena.models import Message
from lpp.lpp2.services import LINE_MAX_CHARS, lpp2_contest_setup
from lpp.models import Lpp2Problem
from tests.lpp.lpp2_pages import (
    ConfederatePage,
    ControlPanel,
    FixedJudgeEntry,
    JudgePage,
    WebcastPage,
    until,
)
from tournaments.loebner.models import Contest, JudgeRank, Judgment, Meeting

pytestmark = pytest.mark.slow
SECRET = "alice"
LONG = "x" * 1990 + " and the end of a long line"  # 2,017 characters, as a judge once typed
SPACED = "  two spaces before, three after   "


@pytest.fixture
def contest(transactional_db):
    return lpp2_contest_setup(name="AISB stock pages", secret=SECRET)


def _heard(page, event: str, status: str | None = None) -> int:
    return sum(1 for e, data in page.heard if e == event and (status is None or json.loads(data)["status"] == status))


def _stored(lpp2) -> list[str]:
    return list(
        Message.objects.filter(conversation__interrogation__loebner_meeting__round__contest=lpp2.contest)
        .order_by("pk")
        .values_list("text", flat=True)
    )


async def test_a_whole_contest_with_the_reference_pages(contest, live_daphne, capsys):
    db = asyncio.to_thread
    panel = await ControlPanel(live_daphne, SECRET).load()
    judges = [await JudgePage(live_daphne, f"judge{i}", SECRET, seed=i).load() for i in range(4)]
    confederates = [await ConfederatePage(live_daphne, f"conf{i}", SECRET).load() for i in range(4)]
    entries = [await FixedJudgeEntry(live_daphne, f"ai{i}", SECRET).start() for i in range(4)]
    typed = refused_typed = 0
    try:
        await until(lambda: all(_heard(p, "roundInformation") >= 2 for p in judges + confederates))
        for number in range(4):
            await panel.press("newRound")
            await until(lambda n=number: all(_heard(j, "control", "newRound") == n + 1 for j in judges))
            await panel.press("startRound")
            await until(lambda n=number: all(_heard(j, "control", "startRound") == n + 1 for j in judges))
            for judge in judges:
                for side in ("L", "R"):
                    await judge.type(side, f"{judge.name} round {number} {side}: who are you?")
                    typed += 1
            await judges[0].type("L", LONG if number == 0 else SPACED)  # stored as typed, not cut or trimmed
            await judges[1].type("R", "")  # Enter on an empty box: refused, and the judge sees why
            typed, refused_typed = typed + 2, refused_typed + 1
            for confederate in confederates:
                await until(lambda c=confederate, n=number: any(f"round {n}" in t for t in c.shown()))
                await confederate.type(f"{confederate.name} here, a person.")
                typed += 1
            for judge in judges:
                robot = next(s for s in "LR" if judge.partner(s).startswith("ai"))
                human = "R" if robot == "L" else "L"
                # the entry's answers, addressed to judge0 whoever its judge is, reach this judge
                asked = len([t for t in judge.shown(robot, "you") if t])
                await until(
                    lambda j=judge, s=robot, k=asked: len([t for t in j.shown(s) if t.startswith("You said:")]) == k
                )
                await until(lambda j=judge, s=human: any("a person" in t for t in j.shown(s)))
            assert any(
                "[platform] Your line was not delivered: The message is empty." in t for t in judges[1].panes["R"]
            )
            status = await panel.poll()
            shown = " | ".join(panel.cells(3))
            assert (
                f"refused: message from judge1 to {judges[1].partner('R')} (0 characters): The message is empty"
                in shown
            )
            assert status["roundStatus"] == "Running"
            await panel.press("endRound")
            await until(lambda n=number: all(_heard(j, "control", "endRound") == n + 1 for j in judges))
            for judge in judges:  # the judge picks the pane that answered like a program, by its side
                await judge.score(next(s for s in "LR" if any(t.startswith("You said:") for t in judge.shown(s))))
            while len((await panel.poll())["scoredClients"]) < 4:
                await asyncio.sleep(0.05)

        # after the last round: every judge page shows its final-score form and the platform's ranking page
        def rank_links():
            return [next((t for t in j.platform_lines() if "ranking page: " in t), None) for j in judges]

        await until(lambda: all(j.final_form for j in judges) and all(rank_links()))
        links = [line.split("ranking page: ")[1].split(" ")[0] for line in rank_links()]
        assert all(link.startswith(f"{live_daphne}/contests/lpp2/rank/") for link in links)

        # every line stored exactly as typed, refusals kept with their reason
        stored = await db(_stored, contest)
        entry_lines = sum(len(e.questions) for e in entries)
        assert len(stored) == typed - refused_typed + entry_lines
        assert LONG in stored and SPACED in stored and "" not in stored
        problems = await db(lambda: list(Lpp2Problem.objects.filter(lpp2=contest).values_list("kind", "to", "reason")))
        refusals = [p for p in problems if p[0] == "refused"]
        assert len(refusals) == refused_typed and all("empty" in reason for _, _, reason in refusals)
        readdressed = [p for p in problems if p[0] == "readdressed"]
        assert readdressed and all(to == "judge0" for _, to, _ in readdressed)
        assert len(readdressed) == entry_lines - sum(1 for m in await db(_entry_judge0_meetings, contest))

        # sides: the pages placed their partners themselves; what they scored, by name, is kept
        meetings = await db(
            lambda: list(Meeting.objects.filter(round__contest=contest.contest).select_related("entry"))
        )
        assert {m.left for m in meetings} == {Meeting.Left.UNKNOWN}
        humans = await db(
            lambda: set(
                Judgment.objects.filter(meeting__round__contest=contest.contest).values_list("human", flat=True)
            )
        )
        assert humans == {"confederate"}
        results = await db(_results_json, contest)
        assert {row["left"] for judge in results["judges"] for row in judge["meetings"]} == {"unknown"}

        with capsys.disabled():
            reasons: dict[str, int] = {}
            for kind, _, reason in problems:
                key = f"{kind}: {reason.split(': stored')[0]}"
                reasons[key] = reasons.get(key, 0) + 1
            print(
                f"\nLPP2 stock-page contest: {typed + entry_lines} lines typed, {len(stored)} stored, "
                f"{len(refusals)} refused; problems by reason: {reasons}"
            )
    finally:
        for page in [panel, *judges, *confederates, *entries]:
            await page.close()


def _entry_judge0_meetings(lpp2):
    """The meetings where an entry's judge is judge0 (its answers need no readdressing): one per line."""
    return [
        m
        for m in Message.objects.filter(
            conversation__interrogation__loebner_meeting__round__contest=lpp2.contest,
            conversation__interrogation__loebner_meeting__judge__label="J1",
            conversation__witness_entry__isnull=False,
            sender_role="witness",
        )
    ]


def _results_json(lpp2):
    from tournaments.loebner.exports import results_json

    return results_json(contest=lpp2.contest)


async def test_final_ranks_on_the_platforms_page_from_the_judges_link(contest, live_daphne, client):
    """The judge page's own final-score form cannot be sent: the link the platform gives the judge opens
    the platform's ranking page for that judge, without a login; it dies with a change of the judge's secret."""
    from lpp.lpp2.selectors import rank_paths
    from tournaments.loebner.models import Round
    from tournaments.loebner.services import round_finish, round_start

    def play_all():
        for round_ in Round.objects.filter(contest=contest.contest).order_by("number"):
            round_start(round_id=round_.pk)
            round_finish(round_id=round_.pk)
        for meeting in Meeting.objects.filter(round__contest=contest.contest, judge__label="J1"):
            Judgment.objects.create(meeting=meeting, human="confederate", decided_at=meeting.round.started_at)
        # as a score from the judge's own page records it: that page placed the partners, no side is known
        Meeting.objects.filter(round__contest=contest.contest, judge__label="J1").update(left=Meeting.Left.UNKNOWN)
        return rank_paths(contest)["judge0"]

    path = await asyncio.to_thread(play_all)
    page = await asyncio.to_thread(client.get, path)
    assert page.status_code == 200 and b'id="rank-form"' in page.content
    text = page.content.decode()  # the page names no side the judge never saw
    assert "Left witness" not in text and "Right witness" not in text and "left or right" not in text
    assert text.count("One witness") == 4 and text.count("The other witness") == 4
    keys = [f"rank-r{n}" for n in range(1, 5)]
    answer = await asyncio.to_thread(client.post, path, dict(zip(keys, ["1", "2", "3", "4"])))
    assert answer.status_code == 302
    ranks = await asyncio.to_thread(
        lambda: sorted(
            JudgeRank.objects.filter(contest=contest.contest, judge__label="J1").values_list("rank", flat=True)
        )
    )
    assert ranks == [1, 2, 3, 4]

    def new_secret():
        identity = contest.identities.get(name="judge0")
        identity.secret_set("changed")
        identity.save()

    await asyncio.to_thread(new_secret)
    assert (await asyncio.to_thread(client.get, path)).status_code == 404


async def test_the_webcast_page_without_credentials_sees_only_what_spectators_may(contest, live_daphne):
    """The reference webcast page sends setView without id or secret: it is the public's view, after the
    contest's spectator delay, its two partners under names that do not tell the confederate from the entry."""
    db = asyncio.to_thread
    panel = await ControlPanel(live_daphne, SECRET).load()
    judge = await JudgePage(live_daphne, "judge0", SECRET).load()
    try:
        await panel.press("newRound")
        await until(lambda: judge.left is not None)
        await panel.press("startRound")
        await until(lambda: _heard(judge, "control", "startRound") == 1)
        await judge.type("L", "first question")
        while not await db(lambda: Message.objects.filter(text="first question").exists()):
            await asyncio.sleep(0.05)
        # a long delay: nothing yet, the names hidden
        await db(lambda: Contest.objects.filter(pk=contest.contest_id).update(spectator_delay_s=3600))
        slow = await WebcastPage(live_daphne).go(0, 0)
        await until(lambda: slow.participants is not None and _heard(slow, "recap") == 1)
        assert slow.participants == {"judge": "judge0", "participant1": "partner1", "participant2": "partner2"}
        assert slow.lines == [] and not any(e == "TargetError" for e, _ in slow.heard)
        # no delay: every line, the partners renamed; live lines follow
        await db(lambda: Contest.objects.filter(pk=contest.contest_id).update(spectator_delay_s=0))
        live = await WebcastPage(live_daphne).go(0, 0)
        await until(lambda: _heard(live, "recap") == 1)
        assert [(m["id"], m["content"]) for m in live.lines] == [("judge0", "first question")]
        assert live.lines[0]["to"] in ("partner1", "partner2")
        await judge.type("R", "second question")
        await until(lambda: len(live.lines) == 2)
        assert live.lines[1]["to"] in ("partner1", "partner2") and live.lines[1]["to"] != live.lines[0]["to"]
        assert slow.lines == []
        # a line younger than the delay when the view is set is shown once it is that old
        await db(lambda: Contest.objects.filter(pk=contest.contest_id).update(spectator_delay_s=4))
        await judge.type("L", "a fresh question")
        while not await db(lambda: Message.objects.filter(text="a fresh question").exists()):
            await asyncio.sleep(0.05)
        later = await WebcastPage(live_daphne).go(0, 0)
        await until(lambda: _heard(later, "recap") == 1)
        await until(lambda: [m["content"] for m in later.lines][-1:] == ["a fresh question"])
        assert [m["content"] for m in later.lines] == ["first question", "second question", "a fresh question"]
        # a contest whose spectators are off has no public view
        await db(lambda: Contest.objects.filter(pk=contest.contest_id).update(spectator_markets=False))
        closed = await WebcastPage(live_daphne).go(0, 0)
        reason = "This contest has no public view: its spectators are off."
        while not await db(lambda: Lpp2Problem.objects.filter(event="webcast", reason=reason).exists()):
            await asyncio.sleep(0.05)  # the organiser sees the refusal; the page shows nothing
        assert closed.participants is None and closed.lines == []
        for page in (slow, live, later, closed):
            await page.close()
    finally:
        await judge.close()
        await panel.close()


async def test_an_overlong_line_is_refused_where_the_judge_sees_it(contest, live_daphne):
    panel = await ControlPanel(live_daphne, SECRET).load()
    judge = await JudgePage(live_daphne, "judge0", SECRET).load()
    try:
        await panel.press("newRound")
        await until(lambda: judge.left is not None)
        await panel.press("startRound")
        await until(lambda: _heard(judge, "control", "startRound") == 1)
        await judge.type("R", "y" * (LINE_MAX_CHARS + 1))
        await until(lambda: judge.platform_lines())
        assert judge.panes["R"][-1][1].startswith(
            f"[platform] Your line ({LINE_MAX_CHARS + 1:,} characters) was not delivered"
        )
        await panel.poll()
        assert any("longer than" in cell for cell in panel.cells(3))
    finally:
        await judge.close()
        await panel.close()
