"""A Loebner contest's published meetings exported as JComm 2012 logs, read back by lpp.protocol."""

import pytest
from django.core.management import call_command

from arena.models import Message
from arena.services import message_post, verdict_submit
from lpp.protocol.logs import parse_log
from tests.tournaments.loebner.helpers import finals_make, judge_round
from tournaments.loebner import services
from tournaments.loebner.models import Meeting

pytest.importorskip("tournaments.loebner.rules.schedule")
pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_a_published_contest_exports_readable_jcomm_logs(cast, tmp_path):
    contest = finals_make(cast, fmt="2012")
    round_ = contest.rounds.get(number=1)
    services.round_start(round_id=round_.pk)
    meeting = round_.meetings.select_related("judge__user", "interrogation").get(judge__label="J1")
    human = meeting.interrogation.conversations.get(witness_human__isnull=False)
    message_post(
        conversation_id=human.pk, sender_role=Message.Role.INTERROGATOR, text="Hi, who are you?", user=cast.jude
    )
    message_post(conversation_id=human.pk, sender_role=Message.Role.WITNESS, text="Just me.", user=human.witness_human)
    services.round_finish(round_id=round_.pk)
    for m in round_.meetings.select_related("judge__user"):
        verdict_submit(interrogation_id=m.interrogation_id, judge=m.judge.user, choice="left", confidence=50)
    for later in contest.rounds.exclude(number=1).order_by("number"):  # a contest is published whole
        judge_round(later, lambda m: False)
    services.contest_publish(contest_id=contest.pk)
    call_command("lpp_export_contest", str(contest.pk), str(tmp_path))
    files = sorted(p.name for p in tmp_path.iterdir())
    assert len(files) == Meeting.objects.filter(round__contest=contest).count()
    name = f"R1-J1-{meeting.entry.label}-{meeting.confederate.label}.log"
    [transcript] = parse_log((tmp_path / name).read_text(), source=name)
    assert transcript.judge == "1" and transcript.round == "1" and transcript.program == meeting.entry.label
    assert transcript.left == ("program" if meeting.left == "entry" else "human")
    typed = "".join(
        k.key if len(k.key) == 1 else {"space": " ", "comma": ",", "question": "?", "period": "."}.get(k.key, "|")
        for k in transcript.keystrokes
        if k.side == human.side
    )
    assert typed == "Hi, who are you?|Just me.|"
