"""lpp_import on what contests left behind besides JComm logs: the LPP2 reference server's round logs and
published text transcripts; and its refusals, each with the reason and a non-zero exit, nothing created."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from arena.models import Conversation, Entry, Interrogation, Message
from core.hashchain import chain_verify
from lpp.protocol.logs import read_log
from lpp.protocol.replay import render
from tests.data_files import LOEBNER2012, LPP2_ROUNDS, TRANSCRIPTS

pytestmark = pytest.mark.django_db


def lines(conversation):
    return [(m.sender_role, m.text) for m in conversation.messages.order_by("seq")]


def test_a_reference_round_log_becomes_one_interrogation_per_judge_and_partner_without_a_side(capsys):
    call_command("lpp_import", str(LPP2_ROUNDS / "Round0"))
    assert capsys.readouterr().out == "Imported 4 transcript(s), 0 already imported.\n"
    assert set(Interrogation.objects.values_list("kind", flat=True)) == {Interrogation.Kind.ONE_TO_ONE}
    assert set(Conversation.objects.values_list("side", flat=True)) == {Conversation.Side.SOLE}
    human = Conversation.objects.get(witness_human__username="lpp-confederate-conf0")
    assert human.interrogation.judge.username == "lpp-judge-judge0"
    assert "round 1" in human.interrogation.title and "partner conf0" in human.interrogation.title
    assert lines(human) == [
        ("interrogator", "Hello, who am I talking to?"),
        ("witness", "Hi! I'm Sam."),
        ("interrogator", "Why did you pause?"),
        ("witness", "I was reading your other question"),
    ]
    program = Conversation.objects.get(witness_entry=Entry.objects.get(display_name="ai0"))
    assert lines(program)[1:] == [
        ("witness", "Good afternoon. How are you today?"),
        ("interrogator", "  fine, thanks  "),  # stored exactly as typed
    ]
    assert chain_verify(program.public_id, program.messages.order_by("seq")).ok
    call_command("lpp_import", str(LPP2_ROUNDS / "Round0"))
    assert capsys.readouterr().out == "Imported 0 transcript(s), 4 already imported.\n"


def test_a_round_log_that_contradicts_the_schedule_is_printed():
    out = StringIO()
    call_command("lpp_import", str(LPP2_ROUNDS / "Round1"), stdout=out)
    printed = out.getvalue().splitlines()
    assert printed[0] == "Imported 2 transcript(s), 0 already imported."
    assert "Round1#0: the schedule is contradicted: conf1 talks to judge0 and to judge1 in one round" in printed
    assert "Round1#1: the schedule is contradicted: conf1 talks to judge1 and to judge0 in one round" in printed


def test_a_published_transcript_with_tildes_imports_with_backspace_applied(capsys):
    call_command("lpp_import", str(TRANSCRIPTS / "published.txt"))
    assert capsys.readouterr().out.startswith("Imported 1 transcript(s), 0 already imported.\n")
    conversation = Conversation.objects.get()
    assert conversation.witness_entry.display_name == "Entry"
    assert conversation.interrogation.title.startswith("Loebner Prize 2014, round 3, judge 2")
    assert lines(conversation) == [
        ("interrogator", "Hello, how are you?"),
        ("witness", "I am fine thanks. And you?"),
        ("interrogator", "Can't complain. What did you have\nfor breakfast?"),
        ("witness", "Porridge, as always."),
    ]
    times = list(conversation.messages.order_by("seq").values_list("created_at", flat=True))
    assert (times[-1] - times[0]).total_seconds() == 47


def test_a_tilde_can_be_kept_as_a_character(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("Judge: ~hello~\nHuman: hi\n")
    call_command("lpp_import", str(path), "--tilde", "literal", verbosity=0)
    conversation = Conversation.objects.get()
    assert conversation.witness_human.username == "lpp-confederate-Human"
    assert lines(conversation)[0] == ("interrogator", "~hello~")


def test_the_replay_of_a_jcomm_log_imports_as_text_with_the_same_lines(tmp_path):
    log = LOEBNER2012 / "logfile.m_allan_linguo.2012-05-15--13-47-26.log"
    [transcript] = read_log(log)
    path = tmp_path / "replay.txt"
    path.write_text("\n".join(render(transcript)) + "\n")
    call_command("lpp_import", str(path), verbosity=0)
    call_command("lpp_import", str(log), verbosity=0)
    from_text, from_log = Interrogation.objects.order_by("pk")
    assert from_text.kind == from_log.kind == Interrogation.Kind.THREE_PARTY
    for side in ("left", "right"):
        assert lines(from_text.conversations.get(side=side)) == lines(from_log.conversations.get(side=side))


@pytest.mark.parametrize(
    ("content", "options", "reason"),
    [
        (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", [], "a PDF file: extract its text first"),
        (
            b"Loebner Prize 2013\n\nThe judges met the entries in four rounds.\n",
            [],
            "not a JComm log, a round log of the LPP2 reference server or a transcript",
        ),
        (b"Judge: hello\n", ["--format", "jcomm"], "not a JComm log"),
        (b"Judge: hello\n", ["--format", "lpp2"], "not a round log of the LPP2 reference server (line 1: not a JSON"),
        (
            b'{"id": "judge0", "to": "judge1", "content": "hi"}\n',
            [],
            "not a round log of the LPP2 reference server (line 1: a message from 'judge0' to 'judge1' is not",
        ),
        (b"\n\n  \n", [], "the file is empty"),
    ],
)
def test_input_no_reader_can_use_is_refused_with_the_reason_and_nothing_is_created(
    tmp_path, capsys, content, options, reason
):
    bad, good = tmp_path / "contest.txt", TRANSCRIPTS / "published.txt"
    bad.write_bytes(content)
    with pytest.raises(CommandError, match=re.escape(f"contest.txt: {reason}")):
        call_command("lpp_import", str(bad), str(good), *options)
    created = 0 if options else 1  # the good file beside it is imported all the same
    assert Interrogation.objects.count() == created
    assert f"Imported {created} transcript(s), 0 already imported." in capsys.readouterr().out
    assert not Message.objects.filter(text="").exists()
