"""A wager interview's transcript proves where it ends: an edited, an inserted or a removed last message
fails verification, on the platform (`verify_transcript`) and offline (`python -m core.hashchain verify`)."""

import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from arena.models import Message
from core import hashchain
from core.errors import Closed
from tests.arena.test_seals import fresh_keys, offline_verify  # noqa: F401  autouse: each test reads its own signing key

from .wager_helpers import fooled_by, run_trial, wager_session


@pytest.fixture
def interview(cast):
    session = wager_session(cast, rehearsal=True, trials=1, minutes=5)
    trial = session.trials.get()
    run_trial(trial, say=True)
    interview = trial.interviews.select_related("interrogation").get(judge=cast.jude, candidate="F1")
    assert interview.interrogation.conversations.get().messages.count() == 2
    return interview


def verify(reference, capsys) -> tuple[int, str]:
    try:
        call_command("verify_transcript", str(reference))
        code = 0
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out + out.err


def test_an_untouched_interview_verifies(interview, capsys):
    code, output = verify(interview.interrogation.public_id, capsys)
    assert code == 0 and "2 messages, chain intact, sealed at its end" in output


def test_an_edited_message_fails(interview, capsys):
    Message.objects.filter(conversation__interrogation=interview.interrogation, seq=1).update(text="hello!")
    code, output = verify(interview.interrogation.public_id, capsys)
    assert code == 1 and "ALTERED" in output and "message #1" in output


def test_an_inserted_message_fails_even_with_the_chain_recomputed(interview, capsys):
    conversation = interview.interrogation.conversations.get()
    last = conversation.messages.get(seq=2)
    # an attacker appends a message and links it properly: the chain is whole, but the seal says 2 messages
    Message.objects.create(
        conversation=conversation,
        seq=3,
        sender_role="witness",
        text="I am human, honestly.",
        created_at=timezone.now(),
        prev_hash=last.hash,
        hash=hashchain.message_hash(
            prev_hash=last.hash, seq=3, sender_role="witness", text="I am human, honestly.", created_at=timezone.now()
        ),
    )
    code, output = verify(interview.interrogation.public_id, capsys)
    assert code == 1 and "ALTERED" in output


def test_a_removed_last_message_fails(interview, capsys):
    Message.objects.filter(conversation__interrogation=interview.interrogation, seq=2).delete()
    code, output = verify(interview.interrogation.public_id, capsys)
    assert code == 1 and "seal: 2 messages, found 1" in output


def offline(cwd, name):
    return offline_verify(cwd, name, "--key", "keys.json")


def _rechain(conversation_id: str, messages: list) -> None:
    prev = hashchain.genesis_hash(conversation_id)
    for seq, m in enumerate(messages, start=1):
        m["seq"], m["prev_hash"] = seq, prev
        m["hash"] = prev = hashchain.message_hash(
            prev_hash=prev, seq=seq, sender_role=m["from"], text=m["text"], created_at=hashchain._moment(m["at"])
        )


def test_the_published_transcript_checks_offline_against_the_report(interview, cast, client, tmp_path):
    from tournaments.wager import services

    session = interview.trial.session
    with pytest.raises(Closed, match="verdicts"):  # not while a judge may still be judging
        services.session_publish(session_id=session.pk, by=cast.olivia)
    fooled_by(interview.trial, [j.user for j in session.judges.all()], 2)
    services.session_publish(session_id=session.pk, by=cast.olivia)
    client.force_login(cast.olivia)
    report = client.get(f"/wager/sessions/{session.pk}/report/").content.decode()
    data = client.get(f"/transcripts/{interview.interrogation.public_id}.json").json()
    (tmp_path / "keys.json").write_bytes(client.get("/transcripts/keys.json").content)
    (tmp_path / "t.json").write_text(json.dumps(data))
    result = offline(tmp_path, "t.json")
    assert result.returncode == 0, result.stdout + result.stderr
    [conversation] = data["conversations"]
    assert conversation["seal"]["head"] in report and conversation["seal"]["signature"] in report

    messages = conversation["messages"]
    original = json.loads(json.dumps(messages))
    messages[1]["text"] = "an edited answer"
    (tmp_path / "edited.json").write_text(json.dumps(data))
    assert offline(tmp_path, "edited.json").returncode == 1

    conversation["messages"] = json.loads(json.dumps(original))
    conversation["messages"].insert(1, dict(original[0], text="an inserted question"))
    _rechain(conversation["id"], conversation["messages"])
    (tmp_path / "inserted.json").write_text(json.dumps(data))
    result = offline(tmp_path, "inserted.json")
    assert result.returncode == 1 and "seal: 2 messages, found 3" in result.stdout

    conversation["messages"] = original[:-1]
    (tmp_path / "cut.json").write_text(json.dumps(data))
    result = offline(tmp_path, "cut.json")
    assert result.returncode == 1 and "seal: 2 messages, found 1" in result.stdout
