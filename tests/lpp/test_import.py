import pytest
from django.core.management import CommandError, call_command

from arena.models import Conversation, Entry, Interrogation, Keystroke, Message, Status
from core.hashchain import chain_verify
from lpp.models import ImportedTranscript
from lpp.protocol.lines import transcript_utterances
from lpp.protocol.logs import read_log

pytestmark = pytest.mark.django_db
LINGUO = "logfile.m_allan_linguo.2012-05-15--{}.log"


def texts(conversation, role):
    return list(conversation.messages.filter(sender_role=role).values_list("text", flat=True))


@pytest.mark.slow
def test_all_eight_logs_become_ended_interrogations_with_every_keystroke_once(data_dir, capsys):
    imported = sorted(str(p) for p in data_dir.glob("*.log"))
    call_command("lpp_import", *imported, verbosity=0)
    # the aborted b-wilcox-angela session has no keystroke: it is reported, not imported
    assert len(imported) == 8 and Interrogation.objects.count() == 7
    assert set(Interrogation.objects.values_list("status", flat=True)) == {Status.ENDED}
    for path in imported:
        [transcript] = read_log(path)
        if not transcript.keystrokes:
            assert not ImportedTranscript.objects.filter(file_name=path.rsplit("/", 1)[1]).exists()
            continue
        source = ImportedTranscript.objects.get(file_name=path.rsplit("/", 1)[1])
        stored = Keystroke.objects.filter(conversation__interrogation=source.interrogation)
        assert stored.count() == len(transcript.keystrokes)
        for side in transcript.sides:
            conversation = source.interrogation.conversations.get(side=side)
            assert conversation.keystrokes.count() == sum(k.side == side for k in transcript.keystrokes)
            assert conversation.messages.count() == len(transcript_utterances(transcript, side))
            assert chain_verify(conversation.public_id, conversation.messages.order_by("seq")).ok
    counts = (Interrogation.objects.count(), Message.objects.count(), Keystroke.objects.count())
    call_command("lpp_import", *imported, verbosity=0)
    assert (Interrogation.objects.count(), Message.objects.count(), Keystroke.objects.count()) == counts
    assert "0 transcript(s), 7 already imported" in capsys.readouterr().out


def test_a_session_maps_onto_judge_confederate_and_program(data_dir):
    call_command("lpp_import", str(data_dir / LINGUO.format("13-14-57")), verbosity=0)
    source = ImportedTranscript.objects.get(file_name=LINGUO.format("13-14-57"))
    interrogation = source.interrogation
    assert interrogation.judge.username == "lpp-judge-3" and not interrogation.judge.is_active
    assert interrogation.title.startswith("Loebner Prize 2012 15 May")
    assert interrogation.kind == Interrogation.Kind.THREE_PARTY
    assert interrogation.started_at.isoformat().startswith("2012-05-15T12:18:41")  # 13:18 BST
    left, right = interrogation.conversations.get(side="left"), interrogation.conversations.get(side="right")
    assert left.witness_human.username == "lpp-confederate-m_allan_linguo"
    assert right.witness_entry == Entry.objects.get(display_name="m_allan_linguo")
    assert right.witness_entry.engine == "simple" and not right.witness_entry.active
    assert texts(left, "interrogator")[:2] == ["Hello..", "Is there anybody there?"]
    assert "no, so I m ight be a bit slow" in texts(left, "witness")
    assert texts(right, "witness")[0] == "Hello there.What is your name?"
    first = right.messages.order_by("seq").first()
    assert first.created_at >= interrogation.started_at
    key = right.keystrokes.order_by("seq").first()
    assert len(key.stamp) == 18 and key.time.timestamp() == pytest.approx(int(key.stamp) / 1e7)


def test_verify_transcript_passes_on_an_imported_conversation(data_dir, capsys):
    call_command("lpp_import", str(data_dir / LINGUO.format("10-06-30")), verbosity=0)
    conversation = Conversation.objects.filter(messages__isnull=False).first()
    call_command("verify_transcript", str(conversation.pk))
    assert "chain intact" in capsys.readouterr().out


def test_imported_transcripts_are_sealed_so_a_cut_end_shows(data_dir, capsys):
    call_command("lpp_import", str(data_dir / LINGUO.format("10-06-30")), verbosity=0)
    conversation = Conversation.objects.filter(messages__isnull=False).first()
    count = conversation.messages.count()
    call_command("verify_transcript", str(conversation.interrogation.public_id))
    assert f"{count} messages, chain intact, sealed at its end ({count} messages" in capsys.readouterr().out
    conversation.messages.order_by("-seq").first().delete()
    with pytest.raises(SystemExit):
        call_command("verify_transcript", str(conversation.pk))
    assert f"seal: {count} messages, found {count - 1}" in capsys.readouterr().err


def test_the_aborted_session_is_said_and_not_imported_and_a_chosen_judge(data_dir, cast, capsys):
    aborted = "logfile.b-wilcox-angela.2012-05-15--13-07-55.log"
    call_command(
        "lpp_import", str(data_dir / aborted), str(data_dir / LINGUO.format("13-47-26")), "--judge-user", "jude"
    )
    interrogation = Interrogation.objects.get()
    assert interrogation.judge == cast.jude
    out = capsys.readouterr().out
    assert out.startswith("Imported 1 transcript(s), 0 already imported.\n")
    assert f"{aborted}#0: an aborted session without a keystroke, nothing imported" in out


def test_unreadable_files_and_unknown_users_are_clear_errors(tmp_path, data_dir):
    with pytest.raises(CommandError, match="cannot read .*missing.log"):
        call_command("lpp_import", str(tmp_path / "missing.log"), verbosity=0)
    with pytest.raises(CommandError, match="No user named 'nobody'"):
        call_command("lpp_import", str(data_dir / LINGUO.format("13-47-26")), "--judge-user", "nobody")


def test_an_empty_log_file_is_refused_with_its_reason(tmp_path, capsys):
    empty = tmp_path / "logfile.x.2012-05-15--09-00-00.log"
    empty.write_bytes(b"")
    with pytest.raises(CommandError, match="logfile.x.2012-05-15--09-00-00.log: the file is empty"):
        call_command("lpp_import", str(empty))
    assert Interrogation.objects.count() == 0
    assert "Imported 0 transcript(s), 0 already imported." in capsys.readouterr().out


def test_cut_off_files_are_printed_by_the_command(data_dir, capsys):
    call_command("lpp_import", str(data_dir / LINGUO.format("15-03-16")), verbosity=0)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Imported 1 transcript(s), 0 already imported."
    assert out[1] == (
        f"{LINGUO.format('15-03-16')}#0: line 3753: the file is cut off inside its last line 'J2 013370929970798'"
    )
