"""Tamper-evident transcripts, their verification command, publication and the public pages."""

import json

import pytest
from django.core.management import call_command

from arena import services
from arena.models import Message

from .helpers import finished_chat, verify


def test_an_intact_transcript_verifies(cast, capsys):
    _, human, _ = finished_chat(cast)
    code, output = verify(human, capsys)
    assert code == 0 and "6 messages, chain intact" in output


@pytest.mark.parametrize(
    "tamper, bad_seq",
    [
        (lambda msgs: Message.objects.filter(pk=msgs[3].pk).update(text="a different answer"), 4),
        (lambda msgs: Message.objects.filter(pk=msgs[0].pk).update(sender_role="witness"), 1),
        (lambda msgs: Message.objects.filter(pk=msgs[2].pk).delete(), 3),
        (lambda msgs: Message.objects.filter(pk=msgs[5].pk).update(created_at=msgs[4].created_at), 6),
    ],
    ids=["edited text", "changed sender", "deleted message", "changed time"],
)
def test_any_alteration_is_detected(cast, capsys, tamper, bad_seq):
    _, human, _ = finished_chat(cast)
    tamper(list(human.messages.order_by("seq")))
    code, output = verify(human, capsys)
    assert code == 1 and f"message #{bad_seq}" in output and "ALTERED" in output


def test_an_edit_that_also_recomputes_its_own_hash_is_still_caught(cast, capsys):
    from core.hashchain import message_hash

    _, human, _ = finished_chat(cast)
    msg = human.messages.get(seq=2)
    forged = message_hash(
        prev_hash=msg.prev_hash, seq=2, sender_role=msg.sender_role, text="forged", created_at=msg.created_at
    )
    Message.objects.filter(pk=msg.pk).update(text="forged", hash=forged)
    code, output = verify(human, capsys)
    assert code == 1 and "message #3" in output


def test_verify_unknown_conversation_is_a_clear_error(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No conversation"):
        call_command("verify_transcript", "999999")
    with pytest.raises(CommandError, match="No conversation"):
        call_command("verify_transcript", "not-a-uuid")


def test_verify_all_names_each_conversation_that_fails_and_counts_the_rest(cast, capsys):
    from django.core.management.base import CommandError

    _, human, machine = finished_chat(cast)
    Message.objects.filter(conversation=human, seq=2).update(text="forged")
    with pytest.raises(SystemExit):
        call_command("verify_transcript", "--all")
    out, err = capsys.readouterr()
    assert "1 of 2 ended conversations verify." in out
    assert f"conversation {human.pk}" in err and f"conversation {machine.pk}" not in err
    with pytest.raises(CommandError, match="Name one transcript, or give --all"):
        call_command("verify_transcript")
    with pytest.raises(CommandError, match="Name one transcript, or give --all"):
        call_command("verify_transcript", str(human.pk), "--all")


def test_unpublished_transcripts_are_not_public(cast, client):
    interrogation, _, _ = finished_chat(cast)
    assert client.get(f"/transcripts/{interrogation.public_id}/").status_code == 404
    assert client.get(f"/transcripts/{interrogation.public_id}.json").status_code == 404
    assert str(interrogation.public_id) not in client.get("/transcripts/").content.decode()


def test_published_transcripts_are_anonymised_escaped_and_exported(cast, client):
    interrogation, human, machine = finished_chat(cast)
    services.interrogation_publish(interrogation_id=interrogation.pk)
    listing = client.get("/transcripts/").content.decode()
    assert str(interrogation.public_id) in listing
    page = client.get(f"/transcripts/{interrogation.public_id}/").content.decode()
    assert "answer 2" in page and "&lt;b&gt;bold?&lt;/b&gt;" in page and "<b>bold?</b>" not in page
    assert "connie" not in page and "Simple Bot" not in page and "jude" not in page
    data = json.loads(client.get(f"/transcripts/{interrogation.public_id}.json").content)
    by_side = {c["side"]: c for c in data["conversations"]}
    assert by_side[human.side]["witness_kind"] == "human" and by_side[human.side]["witness"] is None
    assert by_side[machine.side]["witness_kind"] == "machine" and by_side[machine.side]["witness"] is None
    assert [m["text"] for m in by_side[human.side]["messages"]][:2] == ["question 0", "answer 0"]
    assert data["verdict"]["confidence"] == 77 and data["verdict"]["correct"] is True
    # the export carries the hash chain, so anyone can re-verify it
    assert by_side[human.side]["messages"][1]["prev_hash"] == by_side[human.side]["messages"][0]["hash"]


def test_publishing_with_names_shows_who_was_who(cast, client):
    interrogation, human, machine = finished_chat(cast)
    services.interrogation_publish(interrogation_id=interrogation.pk, with_names=True)
    data = json.loads(client.get(f"/transcripts/{interrogation.public_id}.json").content)
    by_side = {c["side"]: c for c in data["conversations"]}
    assert by_side[human.side]["witness"] == "connie"
    assert by_side[machine.side]["witness"] == "Simple Bot" and by_side[machine.side]["engine"] == "simple"
    assert data["judge"] == "jude"
