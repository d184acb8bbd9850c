"""Over the console's websocket: a contest's judge gives a verdict and is told only that it is recorded, by the
answer and by every push that follows it (the verdict's refresh); the end screen's link is their next meeting.
Once the contest's results are published, the same console tells the truth."""

import json

import pytest
from asgiref.sync import sync_to_async

from tests.arena.wsclient import connect
from tests.tournaments.loebner.helpers import finals_make, judge_round
from tournaments.loebner import services

pytest.importorskip("tournaments.loebner.rules.scoring")
pytestmark = pytest.mark.django_db(transaction=True)

SECRETS = ("Finalist", "connie", "machine", "human", "confederate", "entry")


def _round_one_over(cast):
    contest = finals_make(cast, fmt="2012")
    first = contest.rounds.get(number=1)
    services.round_start(round_id=first.pk)
    services.round_finish(round_id=first.pk)
    meetings = {m.judge.label: m for m in first.meetings.select_related("judge", "interrogation")}
    later = contest.rounds.get(number=2).meetings.select_related("interrogation").get(judge__label="J1")
    return contest, meetings["J1"], later


def _publish(contest):
    from arena.services import verdict_submit

    first = contest.rounds.get(number=1)
    for m in first.meetings.filter(interrogation__verdict__isnull=True).select_related("judge__user"):
        verdict_submit(interrogation_id=m.interrogation_id, judge=m.judge.user, choice="left", confidence=50)
    for round_ in contest.rounds.exclude(number=1).order_by("number"):
        judge_round(round_, lambda m: False)
    services.contest_publish(contest_id=contest.pk)


async def test_the_console_and_its_pushes_tell_a_contest_judge_nothing_until_publication(cast, end_stray_sessions):
    contest, meeting, later = await sync_to_async(_round_one_over)(cast)
    path = f"/ws/judge/{meeting.interrogation.public_id}/"
    judge, connected, _ = await connect(path, cast.jude)
    second_tab, _, _ = await connect(path, cast.jude)  # the same judge's other tab gets the verdict's push only
    assert connected
    await judge.expect("state")
    await second_tab.expect("state")
    await judge.send({"type": "verdict", "choice": "left", "confidence": 80, "reason": "quick answers"})
    recorded = await judge.expect("state", reveal_later=True)
    pushed = await second_tab.expect("state", reveal_later=True)  # the verdict's refresh
    for socket in (judge, second_tab):  # whatever else follows the verdict
        while not await socket.silent(0.5):
            await socket.receive()
    after = [p for p in judge.received + second_tab.received if p.get("type") == "state" and p.get("verdict")]
    assert len(after) >= 2 and recorded in after and pushed in after
    for payload in after:
        assert payload["reveal"] is None and payload["correct"] is None
        assert payload["verdict"] == {"choice": "left", "confidence": 80, "reason": "quick answers"}
        text = json.dumps(payload)
        for secret in SECRETS:
            assert secret not in text, (secret, payload)
    assert recorded["next"]["url"] == f"/judge/{later.interrogation.public_id}/"
    await judge.close()
    await second_tab.close()

    await sync_to_async(_publish)(contest)
    judge, _, _ = await connect(path, cast.jude)
    told = await judge.expect("state")
    assert told["reveal_later"] is False and told["correct"] is (meeting.left == "confederate")
    assert {shown["kind"] for shown in told["reveal"].values()} == {"human", "machine"}
    assert told["next"] is None  # the contest is over: nothing left to do
    await judge.close()
