"""Transcripts that prove their own end: each conversation's chain is sealed (head, count, signature)
when its interrogation ends, and verification, on the platform or offline, checks the seal."""

import datetime as dt
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.urls import reverse

from arena import services, transcript_keys
from arena.models import ConversationSeal, Interrogation, Message
from core import hashchain
from core.errors import Closed
from core.signing import private_key_load, private_key_text, seal_sign

from .helpers import finished_chat, in_thread, sides, three_party, verify

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_keys():
    """Each test reads the signing key from its own settings."""
    transcript_keys.signing_key_forget()
    yield
    transcript_keys.signing_key_forget()


def forge(conversation, *, key, **changes):
    """Rewrite a conversation's seal as an attacker with `key` would: new fields, signed by `key`."""
    row = ConversationSeal.objects.get(conversation=conversation)
    seal = hashchain.Seal(
        conversation=str(conversation.public_id),
        interrogation=str(conversation.interrogation.public_id),
        count=row.message_count,
        head=row.head_hash,
        ended_at=hashchain.stamp(row.ended_at),
        key_id="",
    )
    forged = seal_sign(hashchain.Seal(**{**seal.as_dict(), **changes}), key)
    ConversationSeal.objects.filter(pk=row.pk).update(
        message_count=forged.count, head_hash=forged.head, key_id=forged.key_id, signature=forged.signature
    )


def test_an_intact_transcript_is_sealed_and_verifies(cast, capsys):
    _, human, _ = finished_chat(cast)
    code, output = verify(human, capsys)
    key_id = hashchain.key_id(transcript_keys.signing_key().public_key())
    assert code == 0 and "OK: " in output and "6 messages, chain intact, sealed at its end (6 messages" in output
    assert f"signature valid (key {key_id})" in output


def test_deleting_the_last_message_fails_verification_and_says_so(cast, capsys):
    _, human, _ = finished_chat(cast)
    human.messages.get(seq=6).delete()  # what is left is an intact chain of 5
    code, output = verify(human, capsys)
    assert code == 1 and "ALTERED" in output and "seal: 6 messages, found 5" in output


def test_deleting_the_last_message_and_its_seal_is_still_caught(cast, capsys):
    _, human, _ = finished_chat(cast)
    human.messages.get(seq=6).delete()
    ConversationSeal.objects.filter(conversation=human).delete()
    code, output = verify(human, capsys)
    assert code == 1 and "no seal: the interrogation ended at" in output


@pytest.mark.parametrize("field, value", [("message_count", 5), ("head_hash", "0" * 64)])
def test_altering_the_seal_invalidates_its_signature(cast, capsys, field, value):
    _, human, _ = finished_chat(cast)
    human.messages.get(seq=6).delete()
    if field == "head_hash":
        value = human.messages.get(seq=5).hash  # the seal made to fit the cut chain
    ConversationSeal.objects.filter(conversation=human).update(**{field: value})
    code, output = verify(human, capsys)
    assert code == 1 and "signature invalid" in output


def test_moving_the_recorded_end_time_is_caught(cast, capsys):
    interrogation, human, _ = finished_chat(cast)
    sealed_end = Interrogation.objects.get(pk=interrogation.pk).ended_at
    Interrogation.objects.filter(pk=interrogation.pk).update(ended_at=sealed_end - dt.timedelta(minutes=1))
    code, output = verify(human, capsys)
    assert code == 1 and f"seal: ended at {hashchain.stamp(sealed_end)}" in output


def test_a_seal_signed_by_another_key_is_refused(cast, capsys):
    _, human, _ = finished_chat(cast)
    human.messages.get(seq=6).delete()
    forge(human, key=Ed25519PrivateKey.generate(), count=5, head=human.messages.get(seq=5).hash)
    code, output = verify(human, capsys)
    assert code == 1 and "REFUSED" in output and "not one of the platform's keys" in output


def test_a_retired_key_still_verifies_its_seals_after_the_key_is_replaced(cast, capsys, settings):
    old = Ed25519PrivateKey.generate()
    settings.ARENA_SIGNING_KEY = private_key_text(old)
    transcript_keys.signing_key_forget()
    _, human, _ = finished_chat(cast)
    settings.ARENA_SIGNING_KEY = private_key_text(Ed25519PrivateKey.generate())  # rotated, old key forgotten
    transcript_keys.signing_key_forget()
    assert verify(human, capsys)[0] == 1
    settings.ARENA_SIGNING_RETIRED_KEYS = [hashchain.public_key_text(old.public_key())]
    code, output = verify(human, capsys)
    assert code == 0 and f"key {hashchain.key_id(old.public_key())}" in output


def test_verify_by_the_public_id_in_the_transcript_url(cast, client, capsys):
    interrogation, human, machine = finished_chat(cast)
    services.interrogation_publish(interrogation_id=interrogation.pk)
    url = reverse("transcript_detail", args=[interrogation.public_id])
    assert client.get(url).status_code == 200 and str(interrogation.public_id) in url
    for reference in (str(interrogation.public_id), f"https://arena.example{url}", str(human.public_id)):
        code, output = verify(reference, capsys)
        assert code == 0 and f"OK: conversation {human.pk} ({human.side})" in output
    code, output = verify(interrogation.public_id, capsys)
    assert f"OK: conversation {machine.pk} ({machine.side})" in output  # every conversation of the transcript
    Message.objects.filter(conversation=machine).order_by("-seq").first().delete()
    code, output = verify(interrogation.public_id, capsys)
    assert code == 1 and f"ALTERED: conversation {machine.pk}" in output and f"OK: conversation {human.pk}" in output


def test_a_running_interrogation_has_no_seal_yet(cast, capsys):
    interrogation = three_party(cast)
    human, _ = sides(interrogation)
    services.message_post(conversation_id=human.pk, sender_role="interrogator", text="hello?", user=cast.jude)
    code, output = verify(interrogation.public_id, capsys)
    assert code == 1 and "no seal (interrogation still running); 1 messages so far" in output
    services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
    code, output = verify(human, capsys)
    assert code == 0 and "1 messages, chain intact, sealed" in output


def test_the_published_page_and_json_show_the_seal_and_how_to_verify(cast, client):
    interrogation, human, _ = finished_chat(cast)
    services.interrogation_publish(interrogation_id=interrogation.pk)
    row = ConversationSeal.objects.get(conversation=human)
    page = client.get(f"/transcripts/{interrogation.public_id}/").content.decode()
    for shown in (
        row.head_hash,
        row.key_id,
        row.signature,
        "6 messages",
        "/transcripts/keys.json",
        "python -m core.hashchain verify",
    ):
        assert shown in page
    data = client.get(f"/transcripts/{interrogation.public_id}.json").json()
    [exported] = [c for c in data["conversations"] if c["side"] == human.side]
    assert exported["id"] == str(human.public_id)
    assert exported["seal"]["count"] == 6 and exported["seal"]["head"] == exported["messages"][-1]["hash"]
    assert exported["seal"]["key_id"] == row.key_id and exported["seal"]["signature"] == row.signature
    keys = client.get("/transcripts/keys.json").json()
    assert keys["algorithm"] == "Ed25519"
    assert [k["key_id"] for k in keys["keys"] if k["current"]] == [row.key_id]
    assert data["signing_keys"] == keys["keys"]


def offline_verify(cwd, *args):
    """core/hashchain.py run alone, as a reader would: no Django, no database, no settings."""
    environ = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": ""}
    return subprocess.run(
        [sys.executable, str(ROOT / "core" / "hashchain.py"), "verify", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_an_exported_transcript_verifies_offline_with_only_the_public_key(cast, client, tmp_path):
    interrogation, human, _ = finished_chat(cast)
    services.interrogation_publish(interrogation_id=interrogation.pk)
    data = client.get(f"/transcripts/{interrogation.public_id}.json").json()
    (tmp_path / "keys.json").write_bytes(client.get("/transcripts/keys.json").content)
    (tmp_path / "transcript.json").write_text(json.dumps(data))
    result = offline_verify(tmp_path, "transcript.json", "--key", "keys.json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"OK: {human.side} conversation: 6 messages, chain intact" in result.stdout
    public = hashchain.public_key_text(transcript_keys.signing_key().public_key())
    assert offline_verify(tmp_path, "transcript.json", "--key", public).returncode == 0

    [exported] = [c for c in data["conversations"] if c["side"] == human.side]
    exported["messages"][3]["text"] = "a different answer"
    (tmp_path / "edited.json").write_text(json.dumps(data))
    result = offline_verify(tmp_path, "edited.json", "--key", "keys.json")
    assert result.returncode == 1 and f"ALTERED: {human.side} conversation: message #4" in result.stdout

    exported["messages"][3]["text"] = "answer 1"
    del exported["messages"][-1]
    (tmp_path / "cut.json").write_text(json.dumps(data))
    result = offline_verify(tmp_path, "cut.json", "--key", "keys.json")
    assert result.returncode == 1 and "seal: 6 messages, found 5" in result.stdout

    stranger = hashchain.public_key_text(Ed25519PrivateKey.generate().public_key())
    result = offline_verify(tmp_path, "transcript.json", "--key", stranger)
    assert result.returncode == 1 and "REFUSED" in result.stdout


def test_the_development_key_is_created_once_with_0600_and_reused(cast, settings, tmp_path):
    path = tmp_path / "var" / "transcript-signing-key.pem"
    settings.ARENA_SIGNING_KEY, settings.ARENA_SIGNING_KEY_FILE = None, path
    _, human, _ = finished_chat(cast)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    created = path.read_bytes()
    key_id = hashchain.key_id(private_key_load(created.decode()).public_key())
    assert ConversationSeal.objects.get(conversation=human).key_id == key_id
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no draft left behind
    transcript_keys.signing_key_forget()  # as a restarted process
    _, human, _ = finished_chat(cast)
    assert ConversationSeal.objects.get(conversation=human).key_id == key_id and path.read_bytes() == created


@pytest.mark.django_db(transaction=True)
def test_a_message_racing_the_end_is_refused_not_stored_after_the_seal(cast, monkeypatch, capsys):
    """A judge's message waits for the conversation's lock while the interrogation ends: once the end
    commits, the message is refused, so the sealed head is the transcript's last message."""
    import threading

    from django.db import connection

    from arena.services import interrogations

    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL (SQLite serialises whole transactions)")
    interrogation = three_party(cast)
    human, _ = sides(interrogation)
    services.message_post(conversation_id=human.pk, sender_role="interrogator", text="first", user=cast.jude)
    sealed, release = threading.Event(), threading.Event()
    original = interrogations.seals_write

    def seals_then_wait(**kwargs):
        written = original(**kwargs)
        sealed.set()
        release.wait(5)
        return written

    monkeypatch.setattr(interrogations, "seals_write", seals_then_wait)
    thread, errors = in_thread(lambda: services.interrogation_end(interrogation_id=interrogation.pk, reason="judge"))
    assert sealed.wait(5)
    threading.Timer(0.5, release.set).start()  # the end commits while the message waits for its lock
    with pytest.raises(Closed):
        services.message_post(conversation_id=human.pk, sender_role="interrogator", text="late", user=cast.jude)
    thread.join(5)
    assert not errors and list(human.messages.values_list("text", flat=True)) == ["first"]
    code, output = verify(human, capsys)
    assert code == 0, output
