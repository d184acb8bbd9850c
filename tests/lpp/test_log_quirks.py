"""The JComm log reader on synthetic files, one per quirk the real logs show: the 17 files of the
2012 contest that are not in tests/data have them too, so the reader must survive each."""

import pytest

from lpp.protocol.lines import transcript_utterances
from lpp.protocol.logs import parse_log, read_log

TITLE = "Loebner Prize 2012 15 May  Bletchley Park UK"
NOTICE = "These transcripts are in the public domain"


def log_2012(*keys: str, judge="2", program="d_burke_adam", round="4", left="program", eol="\r\n") -> str:
    header = [TITLE, NOTICE, f"Transcripts of judge {judge} program {program} round {round}", f"Left ={left} "]
    return "".join(line + eol for line in header + list(keys))


def texts(transcript, side="left"):
    return [(u.sender, u.text) for u in transcript_utterances(transcript, side)]


HELLO = [
    "J2 013370915290400000 judge left H",
    "J2 013370915290500000 judge left i",
    "J2 013370915290600000 judge left Return",
    "J2 013370915300000000 d_burke_adam left Y",
    "J2 013370915300100000 d_burke_adam left o",
    "J2 013370915300200000 d_burke_adam left Return",
]


@pytest.mark.parametrize("content", [b"", b"\r\n", b"\r\n\r\n  \r\n"])
def test_an_empty_file_has_no_session(tmp_path, content):
    path = tmp_path / "logfile.x.2012-05-15--09-00-00.log"
    path.write_bytes(content)
    assert read_log(path) == []


def test_lf_only_line_endings_read_like_crlf():
    [crlf], [lf] = parse_log(log_2012(*HELLO)), parse_log(log_2012(*HELLO, eol="\n"))
    assert texts(lf) == texts(crlf) == [("judge", "Hi"), ("other", "Yo")]
    assert lf.problems == crlf.problems == []


def test_a_byte_order_mark_is_not_a_cut_line(tmp_path):
    path = tmp_path / "bom.log"
    path.write_bytes(b"\xef\xbb\xbf" + log_2012(*HELLO).encode())
    [t] = read_log(path)
    assert t.title == TITLE and t.problems == [] and texts(t) == [("judge", "Hi"), ("other", "Yo")]


def test_a_test_session_with_blank_judge_and_round():
    text = log_2012(
        "J 013370915290400000 judge left O",
        "J 013370915290500000 judge left k",
        "J 013370915290600000 judge left Return",
        judge="",
        round="",
    )
    [t] = parse_log(text)
    assert (t.judge, t.round, t.program, t.left) == ("", "", "d_burke_adam", "program")
    assert texts(t) == [("judge", "Ok")] and t.problems == []


def test_the_header_round_is_kept_as_written_even_when_wrong():
    # d_burke_adam's 15-04-11 file says round 2 but sits in the round-4 slot: only the header is known
    [t] = parse_log(log_2012(*HELLO, round="2"))
    assert t.round == "2" and t.problems == []


def test_the_human_side_is_known_from_the_header_only():
    [t] = parse_log(log_2012(*HELLO, left="Human"))
    assert t.left == "human" and t.role_of("left") == "human" and t.role_of("right") == "program"
    [t] = parse_log(log_2012(*HELLO, left=""))  # header cut short: unknown, not a guess
    assert t.left == "" and t.role_of("left") == ""


def test_a_slightly_earlier_stamp_of_the_other_party_keeps_each_senders_order():
    # docs/reference/protocols.md: "…0649898 b-wilcox-angela left a" followed by "…0649200 judge left BackSpace"
    text = log_2012(
        "J2 013370915290640000 judge left N",
        "J2 013370915290645000 judge left o",
        "J2 013370915290649898 d_burke_adam left a",
        "J2 013370915290649200 judge left BackSpace",
        "J2 013370915290650000 judge left Return",
        "J2 013370915300000000 d_burke_adam left Return",
    )
    [t] = parse_log(text)
    assert texts(t) == [("judge", "N"), ("other", "a")]


def test_unpadded_counter_stamps_sort_numerically_and_have_no_time():
    text = log_2012(*[f"J1 {n} judge left {key}" for n, key in [(8, "a"), (9, "b"), (10, "c"), (11, "Return")]])
    [t] = parse_log(text)
    assert [k.time for k in t.keystrokes] == [None] * 4
    assert texts(t) == [("judge", "abc")]


def test_lenient_key_names_of_third_party_clients():
    text = log_2012(
        *[
            f"J2 0133709152904{n:05d}0 judge left {key}"
            for n, key in enumerate(["quotedble", "x", "quotedl", "tab", "y", "return"])
        ]
    )
    [t] = parse_log(text)
    assert [k.char for k in t.keystrokes] == ['"', "x", '"', "\t", "y", "\n"] and t.problems == []


def test_a_line_cut_inside_its_stamp_at_the_end_of_the_file():
    [t] = parse_log(log_2012(*HELLO) + "J2 01337091")
    assert texts(t) == [("judge", "Hi"), ("other", "Yo")]
    assert len(t.problems) == 1 and "cut off inside its last line 'J2 01337091'" in t.problems[0]


def test_bytes_that_are_not_utf8_are_replaced_and_reported(tmp_path):
    path = tmp_path / "latin1.log"
    path.write_bytes(log_2012(*HELLO[:3], "J2 013370915300000000 d_burke_adam left \xe9").encode("latin-1"))
    [t] = read_log(path)
    assert texts(t)[0] == ("judge", "Hi")
    assert [k.char for k in t.keystrokes][-1] is None and len(t.problems) == 1


def test_an_aborted_session_and_its_restart_glued_into_one_file():
    aborted = log_2012(judge="", round="")
    restarted = log_2012(*HELLO)
    first, second = parse_log(aborted + restarted)
    assert first.keystrokes == [] and (first.judge, first.round) == ("", "")
    assert (second.judge, second.round) == ("2", "4") and texts(second) == [("judge", "Hi"), ("other", "Yo")]


def test_every_cut_of_a_session_reads_without_error():
    """A file may end anywhere (a cut last line) or have the next file's header glued anywhere."""
    text = log_2012(*HELLO, " J2 013370915300300000 d_burke_adam left  ", "J2 013370915300400000 d_burke_adam left")
    whole = sum(len(t.keystrokes) for t in parse_log(text))
    for cut in range(len(text) + 1):
        for glued in ("", log_2012(*HELLO[:1])):
            sessions = parse_log(text[:cut] + glued)
            assert sum(len(t.keystrokes) for t in sessions) <= whole + len(HELLO[:1])
            assert all(k.stamp.isdigit() and k.key for t in sessions for k in t.keystrokes)
