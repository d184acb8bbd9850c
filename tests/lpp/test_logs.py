import pytest

from lpp.protocol.lines import transcript_utterances
from lpp.protocol.logs import LogWriter, format_2012, parse_log, read_log, write_2012
from lpp.protocol.model import Keystroke, Transcript

LINGUO = "logfile.m_allan_linguo.2012-05-15--{}.log"


def said(transcript, side, sender):
    return [u.text for u in transcript_utterances(transcript, side) if u.sender == sender]


def test_every_2012_log_reads_into_sensible_sessions(data_dir):
    logs = sorted(data_dir.glob("*.log"))
    assert len(logs) == 8
    for path in logs:
        [transcript] = read_log(path)
        assert transcript.title.startswith("Loebner Prize 2012")
        assert transcript.left in ("human", "program")
        if not transcript.keystrokes:
            continue  # the aborted b-wilcox-angela session
        assert transcript.judge.isdigit() and transcript.round.isdigit()
        assert set(transcript.sides) == {"left", "right"}
        assert all(k.char is not None and k.time is not None for k in transcript.keystrokes)
        utterances = transcript_utterances(transcript)
        assert {u.sender for u in utterances} == {"judge", "other"}
        assert {u.side for u in utterances} == {"left", "right"}
        assert all(u.text and "\b" not in u.text for u in utterances)
        assert [u.ended for u in utterances] == sorted(u.ended for u in utterances)


def test_judge_human_and_program_lines_of_a_whole_session(data_dir):
    [t] = read_log(data_dir / LINGUO.format("13-14-57"))
    assert (t.judge, t.program, t.round, t.left) == ("3", "m_allan_linguo", "1", "human")
    assert t.role_of("left") == "human" and t.role_of("right") == "program"
    assert said(t, "left", "judge")[:2] == ["Hello..", "Is there anybody there?"]
    # BackSpace applied: the confederate typed "bu~it" and "timr~~me"
    assert "no, so I m ight be a bit slow" in said(t, "left", "other")
    assert "are you talking to the computer T the same time as me?" in said(t, "left", "other")
    assert "I am 33, I live in Newcastle, and I have a daughter who is 11, her name is Charlotte" in said(
        t, "left", "other"
    )
    assert said(t, "right", "judge")[:2] == ["Greetings", "I'm Tracey, what's yours?"]


def test_the_program_that_never_sent_return_is_split_at_pauses_and_speaker_changes(data_dir):
    [t] = read_log(data_dir / LINGUO.format("13-14-57"))
    program = [k for k in t.keystrokes if k.side == "right" and k.sender == "other"]
    assert program and not any(k.key == "Return" for k in program)
    lines = said(t, "right", "other")
    assert lines[:3] == [
        "Hello there.What is your name?",
        "Where are you from?I am from Brisbane.Are you healthy?",
        "I'm not sure.Do you like to shop?",
    ]
    assert len(lines) > 30


def test_other_sessions_known_lines(data_dir):
    [t] = read_log(data_dir / LINGUO.format("13-56-46"))
    assert t.left == "program"
    assert said(t, "left", "judge")[:2] == ["ASk me a question", "Tom"]
    assert said(t, "right", "other")[0] == "You bastard"
    [t] = read_log(data_dir / LINGUO.format("14-28-53"))
    assert said(t, "left", "other")[0] == "Hi. I'm not sure.What is your name?"
    assert said(t, "left", "judge")[1] == "My name is phil, what is your name."


def test_aborted_session_has_a_header_and_no_keystrokes(data_dir):
    [t] = read_log(data_dir / "logfile.b-wilcox-angela.2012-05-15--13-07-55.log")
    assert (t.judge, t.program, t.round, t.left) == ("", "b-wilcox-angela", "", "human")
    assert t.keystrokes == [] and t.problems == []


def test_cut_last_line_is_reported_not_fatal(data_dir):
    [t] = read_log(data_dir / LINGUO.format("15-03-16"))
    assert t.problems == ["line 3753: the file is cut off inside its last line 'J2 013370929970798'"]
    assert t.keystrokes[-1].key == "m" and said(t, "left", "judge")[0] == "Hello"


@pytest.mark.parametrize("name", ["10-06-30", "13-14-57", "13-47-26", "13-56-46", "14-28-53"])
def test_writer_reproduces_the_real_logs_byte_for_byte(data_dir, name):
    path = data_dir / LINGUO.format(name)
    [t] = read_log(path)
    assert format_2012(t).encode() == path.read_bytes()


HEADER = (
    "Loebner Prize 2012 15 May  Bletchley Park UK\r\nThese transcripts are in the public domain\r\n"
    "Transcripts of judge 2 program d_burke_adam round 4\r\nLeft =program \r\n"
)


def test_quirks_literal_space_unknown_name_missing_key_and_glued_header():
    text = HEADER + (
        "J2 013370915290479672 judge left H\r\n"
        "J2 013370915290479673 judge left i\r\n"
        "J2 013370915290479674 judge left Return\r\n"
        "J2 013370915300000000 d_burke_adam left O\r\n"
        "J2 013370915300100000 d_burke_adam left  \r\n"  # literal space name
        "J2 013370915300200000 d_burke_adam left BackSpace\r\n"
        "J2 013370915300300000 d_burke_adam left space\r\n"
        "J2 013370915300400000 d_burke_adam left frobnicate\r\n"
        "J2 013370915300500000 d_burke_adam left K\r\n"
        "J2 013370915300600000 d_burke_adam left\r\n"
        "J2 0133709153007" + HEADER.replace("judge 2", "judge 3") + "J3 013370915400000000 judge right Y\r\n"
    )
    first, second = parse_log(text)
    assert [u.text for u in transcript_utterances(first, "left")] == ["Hi", "O K"]
    assert [k.key for k in first.keystrokes if k.char is None] == ["frobnicate"]
    assert len(first.problems) == 3  # unknown name, line without key, cut line
    assert second.judge == "3" and [k.key for k in second.keystrokes] == ["Y"]


def test_2009_format_with_rounds_and_receive_stamps():
    text = (
        "*Starting round 1 program P3 human H2 judge J2 left is P3 right is Human\n"
        "**Starting subround 1 program P3 human H2 judge J2 other is P3\n"
        "J2 012522395810610049 012522395810609375 local left H \n"
        "J2 012522395810868951 012522395810867792 local left i\n"
        "J2 012522395810968951 012522395810967792 local left Return\n"
        "J2 012522395820610049 012522395820609375 remote left y\n"
        "*Starting round 2 program P3 human H1 judge J1 left is Human right is P3\n"
        "J1 012522400000000000 012522399990000000 local right x\n"
    )
    first, second = parse_log(text)
    assert (first.format, first.judge, first.round, first.left) == ("2009", "2", "1", "program")
    assert first.keystrokes[0].received == "012522395810610049"
    assert first.keystrokes[0].stamp == "012522395810609375"
    assert [(u.sender, u.text) for u in transcript_utterances(first)] == [("judge", "Hi"), ("other", "y")]
    assert (second.judge, second.round, second.left) == ("1", "2", "human")


def test_platform_log_round_trips_through_writer_and_reader(tmp_path):
    keys = [
        Keystroke("judge", "H", "H", "017953020730938369", 1795302073.938369, side="left"),
        Keystroke("judge", "Return", "\n", "017953020730948369", 1795302073.948369, side="left"),
        Keystroke("other", "quoteright", "'", "017953020750000000", 1795302075.0, side="left"),
        Keystroke("other", "Return", "\n", "017953020750000001", 1795302075.000001, side="left"),
    ]
    transcript = Transcript(program="arena-bot", judge="7", round="2", left="program", keystrokes=keys)
    write_2012(transcript, tmp_path / "a.log")
    with open(tmp_path / "b.log", "w", newline="") as stream:
        writer = LogWriter(stream, transcript)
        for k in keys:
            writer.write(k)
    assert (tmp_path / "a.log").read_bytes() == (tmp_path / "b.log").read_bytes()
    [back] = read_log(tmp_path / "a.log")
    assert back.keystrokes == keys and back.problems == []
    assert (back.program, back.judge, back.round, back.left) == ("arena-bot", "7", "2", "program")
    assert [u.text for u in transcript_utterances(back)] == ["H", "'"]
