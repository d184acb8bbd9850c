"""The whole record sealed (seal version 2): every conversation of an interrogation (its id, side, witness
kind, message count and head), the transcript's metadata and the verdict are signed, so the offline
verifier and `verify_transcript` catch a conversation deleted, duplicated or relabelled, a verdict
flipped or the metadata edited; a transcript sealed before records were (version 1) verifies as it did."""

import copy
import json

import pytest
from django.core.management import call_command

from arena import services, transcript_keys
from arena.models import Conversation, ConversationSeal, InterrogationSeal, Verdict
from core import hashchain
from core.signing import seal_sign

from .helpers import finished_chat, verify
from .test_seals import offline_verify


@pytest.fixture(autouse=True)
def fresh_keys():
    transcript_keys.signing_key_forget()
    yield
    transcript_keys.signing_key_forget()


@pytest.fixture
def exported(cast, client, tmp_path):
    """A published three-party transcript with its verdict, as /transcripts/<id>.json gives it, and the
    platform's public keys written beside it."""
    interrogation, human, machine = finished_chat(cast)
    services.interrogation_publish(interrogation_id=interrogation.pk)
    (tmp_path / "keys.json").write_bytes(client.get("/transcripts/keys.json").content)
    return client.get(f"/transcripts/{interrogation.public_id}.json").json()


def offline(data, tmp_path) -> tuple[int, str]:
    (tmp_path / "transcript.json").write_text(json.dumps(data))
    result = offline_verify(tmp_path, "transcript.json", "--key", "keys.json")
    return result.returncode, result.stdout + result.stderr


def checked(data) -> tuple[bool, str]:
    """export_verify in process (what the command prints): (all OK, the lines)."""
    reports = hashchain.export_verify(data, hashchain.keys_index(transcript_keys.public_keys().values()))
    return all(r.ok for _, r in reports), "\n".join(f"{r.verdict}: {label}: {r.describe()}" for label, r in reports)


def test_an_intact_transcript_verifies_its_whole_record_offline(exported, tmp_path):
    assert exported["seal"]["version"] == 2
    assert {c["seal"]["version"] for c in exported["conversations"]} == {2}
    code, output = offline(exported, tmp_path)
    assert code == 0, output
    assert "OK: whole record: 2 conversations (left, right), the verdict and the metadata as sealed" in output


def _delete_one(data):
    data["conversations"].pop()


def _duplicate_one(data):
    data["conversations"].append(copy.deepcopy(data["conversations"][0]))


def _swap_sides_and_kinds(data):
    left, right = data["conversations"]
    left["side"], right["side"] = right["side"], left["side"]
    left["witness_kind"], right["witness_kind"] = right["witness_kind"], left["witness_kind"]


def _flip_verdict(data):
    verdict = data["verdict"]
    verdict["choice"] = {"left": "right", "right": "left"}[verdict["choice"]]
    verdict["correct"] = not verdict["correct"]


def _retitle(data):
    data["title"] = "A friendlier title"


def _strip_record_seal(data):
    data["seal"] = None


@pytest.mark.parametrize(
    "edit, said",
    [
        (_delete_one, "the sealed right conversation"),
        (_duplicate_one, "appears 2 times"),
        (_swap_sides_and_kinds, "side sealed 'left', found 'right'"),
        (_flip_verdict, "verdict: choice sealed"),
        (_retitle, "metadata: title sealed"),
        (_strip_record_seal, "its conversations were sealed within a whole record, and it has none"),
    ],
    ids=["delete a conversation", "duplicate one", "swap side and kind", "flip the verdict", "edit metadata", "strip"],
)
def test_each_edit_of_the_record_fails_offline_verification(exported, tmp_path, edit, said):
    assert checked(exported)[0]
    edit(exported)
    ok, lines = checked(exported)
    assert not ok and "ALTERED: whole record: " in lines and said in lines, lines
    assert "ALTERED: " not in lines.replace("ALTERED: whole record: ", "")  # each conversation alone is intact


def test_the_flipped_verdict_names_both_fields(exported):
    _flip_verdict(exported)
    lines = checked(exported)[1]
    assert "verdict: choice sealed" in lines and "verdict: correct sealed True, found False" in lines


def test_the_verifier_run_alone_catches_a_deleted_conversation(exported, tmp_path):
    _delete_one(exported)
    code, output = offline(exported, tmp_path)
    assert code == 1 and "ALTERED: whole record: the sealed right conversation" in output, output


def test_a_transcript_sealed_before_records_were_still_verifies(cast, client, tmp_path):
    """Version 1: each conversation's seal alone, no record seal; what such a transcript holds verifies."""
    interrogation, human, machine = finished_chat(cast)
    InterrogationSeal.objects.filter(interrogation=interrogation).delete()
    key = transcript_keys.signing_key()
    for conversation in (human, machine):  # the seals as version 1 wrote them
        row = ConversationSeal.objects.get(conversation=conversation)
        seal = seal_sign(
            hashchain.seal_unsigned(
                conversation_public_id=conversation.public_id,
                interrogation_public_id=interrogation.public_id,
                messages_count=row.message_count,
                head=row.head_hash,
                ended_at=row.ended_at,
            ),
            key,
        )
        assert seal.version == 1
        ConversationSeal.objects.filter(pk=row.pk).update(signature=seal.signature, version=1)
    services.interrogation_publish(interrogation_id=interrogation.pk)
    (tmp_path / "keys.json").write_bytes(client.get("/transcripts/keys.json").content)
    data = client.get(f"/transcripts/{interrogation.public_id}.json").json()
    assert data["seal"] is None
    code, output = offline(data, tmp_path)
    assert code == 0 and output.count("OK: ") == 2 and "whole record" not in output, output


def test_the_platform_command_checks_the_record_too(cast, capsys):
    interrogation, human, machine = finished_chat(cast)
    code, output = verify(interrogation.public_id, capsys)
    assert code == 0 and f"OK: whole record of interrogation {interrogation.public_id}" in output, output

    Verdict.objects.filter(interrogation=interrogation).update(choice=machine.side, correct=False)
    code, output = verify(interrogation.public_id, capsys)
    assert code == 1 and "ALTERED: whole record" in output and "verdict: choice sealed" in output

    Verdict.objects.filter(interrogation=interrogation).update(choice=human.side, correct=True)
    Conversation.objects.filter(pk=machine.pk).delete()
    code, output = verify(interrogation.public_id, capsys)
    assert code == 1 and f"the sealed {machine.side} conversation {machine.public_id} is missing" in output


def test_the_verdict_is_sealed_over_the_record_sealed_at_the_end_not_the_database_then(cast, capsys):
    """A message deleted between the end and the verdict stays visible: the record signed again with the
    verdict keeps the conversations sealed at the end."""
    from .helpers import sides, three_party

    interrogation = three_party(cast)
    human, _ = sides(interrogation)
    for text in ("one", "two"):
        services.message_post(conversation_id=human.pk, sender_role="interrogator", text=text, user=cast.jude)
    services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
    assert InterrogationSeal.objects.get(interrogation=interrogation).record["verdict"] is None
    human.messages.get(seq=2).delete()
    ConversationSeal.objects.filter(conversation=human).update(message_count=1)  # the seal's row edited too
    services.verdict_submit(interrogation_id=interrogation.pk, judge=cast.jude, choice=human.side, confidence=60)
    record = InterrogationSeal.objects.get(interrogation=interrogation).record
    assert record["verdict"]["choice"] == human.side
    assert [c["count"] for c in record["conversations"] if c["side"] == human.side] == [2]
    try:
        call_command("verify_transcript", str(interrogation.public_id))
        code = 0
    except SystemExit as exc:
        code = exc.code
    output = capsys.readouterr()
    assert code == 1 and "count sealed 2, found 1" in output.err


@pytest.mark.parametrize("seal", ["forged", {"interrogation": "x"}])
def test_a_malformed_record_seal_is_reported_not_a_crash(exported, tmp_path, seal):
    exported["seal"] = seal
    code, output = offline(exported, tmp_path)
    assert code in (1, 2) and "Traceback" not in output, output
