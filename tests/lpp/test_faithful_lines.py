"""The log reader as JComm showed the lines on screen (docs/reference/protocols.md), on synthetic keys and on the
shared 2012 logs: a BackSpace after the reader closed a line deletes from that line, a BackSpace through a
Return joins the lines, neither a change of speaker nor the idle rule splits a word."""

from lpp.protocol.fidelity import measure
from lpp.protocol.keys import BACKSPACE, RETURN
from lpp.protocol.lines import segment, transcript_utterances
from lpp.protocol.logs import read_log
from lpp.protocol.stamps import sort_per_sender
from tests.lpp.test_lines import texts, typed


def test_a_backspace_after_a_speaker_change_deletes_from_the_closed_line():
    keys = typed("judge", "Hello", 0.0) + typed("other", "Yes|", 3.0) + typed("judge", "<<p|", 4.0)
    assert texts(segment(keys, faithful=True)) == [("other", "Yes"), ("judge", "Help")]
    assert ("judge", "Hello") in texts(segment(keys))  # the streaming rules (the live bridge) cannot go back


def test_a_backspace_right_after_return_joins_the_lines():
    keys = typed("judge", "Hi|<, there|", 0.0)
    assert texts(segment(keys, faithful=True)) == [("judge", "Hi, there")]
    assert texts(segment(keys)) == [("judge", "Hi"), ("judge", ", there")]


def test_a_capital_after_a_small_letter_or_digit_starts_a_word_the_idle_rule_may_cut_before():
    keys = typed("judge", "This is judge 2", 0.0) + typed("judge", "This is judge2", 70.0)
    assert texts(segment(keys, idle_timeout=60.0, faithful=True)) == [
        ("judge", "This is judge 2"),
        ("judge", "This is judge2"),
    ]


def test_the_idle_rule_does_not_split_a_word_but_splits_between_words():
    keys = typed("ai", "Hel", 0.0) + typed("ai", "lo there", 10.0)
    assert texts(segment(keys, idle_timeout=5.0, faithful=True)) == [("ai", "Hello there")]
    assert texts(segment(keys, idle_timeout=5.0)) == [("ai", "Hel"), ("ai", "lo there")]
    spaced = typed("ai", "Hi ", 0.0) + typed("ai", "there", 10.0)
    assert texts(segment(spaced, idle_timeout=5.0, faithful=True)) == [("ai", "Hi"), ("ai", "there")]


def test_a_change_of_speaker_does_not_split_a_word_the_other_party_did_not_answer():
    # the judge is in the middle of a line; the confederate starts "Yeah", deletes "eah", waits for the
    # judge's Return (a line begun before "Y"), and types the word again
    judge = typed("judge", "This is hard for a computer", 0.0, step=0.5) + typed("judge", "|", 20.0)
    other = typed("other", "Yeah<<<", 10.0) + typed("other", "eah it must be|", 30.0)
    keys = sorted(judge + other, key=lambda k: k.time)
    assert texts(segment(keys, faithful=True)) == [
        ("judge", "This is hard for a computer"),
        ("other", "Yeah it must be"),
    ]


def test_a_change_of_speaker_still_ends_a_turn_typed_without_return():
    # a judge who never presses Return: "Hello", the confederate answers a whole line, "How are you?"
    keys = typed("judge", "Hello", 0.0) + typed("other", "Hi there|", 5.0) + typed("judge", "How are you?", 10.0)
    assert texts(segment(keys, faithful=True)) == [("judge", "Hello"), ("other", "Hi there"), ("judge", "How are you?")]


def test_backspaces_through_a_return_after_a_new_key_join_the_lines_without_doubling():
    # "day." Return, the judge speaks, then "z" and five BackSpaces (z, Return, ".", "y") and the retyping
    keys = typed("other", "day.|", 0.0) + typed("judge", "Hot?|", 3.0) + typed("other", "z<<<<y. Yeah|", 10.0)
    assert texts(segment(keys, faithful=True)) == [("judge", "Hot?"), ("other", "day. Yeah")]


def test_a_real_log_with_backspaces_through_returns_reads_as_its_windows_showed(data_dir):
    [transcript] = read_log(data_dir / "logfile.m_embar_chip_vivant.2012-05-15--13-23-04.log")
    counts = measure(transcript, transcript_utterances)
    assert (counts.words_split, counts.deleted_surviving, counts.retyped_doubled, counts.lost) == (0, 0, 0, 0)
    assert counts.returns_deleted == counts.lines_joined == 2
    said = [u.text for u in transcript_utterances(transcript, "right") if u.sender == "other"]
    assert any("outside during the day. Yeah in Pune" in line for line in said)
    [linguo] = read_log(data_dir / "logfile.m_allan_linguo.2012-05-15--15-03-16.log")
    assert any(u.text.startswith("Yeah it must be.") for u in transcript_utterances(linguo, "right"))


def _screen(keys) -> str:
    """What one sender's pane showed at the end: every BackSpace deletes the previous character, a
    Return included; letters only (line breaks and spaces are where the reader cuts)."""
    shown: list[str] = []
    for key in keys:
        if key.char == BACKSPACE:
            if shown:
                shown.pop()
        elif key.char:
            shown.append(key.char)
    return "".join(c for c in shown if c != RETURN and not c.isspace())


def test_on_the_shared_logs_no_deleted_text_survives_and_nothing_is_lost(data_dir):
    files = sorted(data_dir.glob("*.log"))
    assert files
    for path in files:
        for transcript in read_log(path):
            for side in transcript.sides:
                keys = sort_per_sender(k for k in transcript.keystrokes if k.side == side)
                lines = transcript_utterances(transcript, side)
                for sender in {k.sender for k in keys}:
                    screen = _screen(k for k in keys if k.sender == sender)
                    read = "".join("".join(u.text.split()) for u in lines if u.sender == sender)
                    assert read == screen, (path.name, side, sender)


def test_no_line_of_the_shared_logs_is_cut_inside_a_word_by_the_idle_rule(data_dir):
    for path in sorted(data_dir.glob("*.log")):
        for transcript in read_log(path):
            for side in transcript.sides:
                by_sender = {}
                for u in transcript_utterances(transcript, side):
                    by_sender.setdefault(u.sender, []).append(u)
                for own in by_sender.values():
                    for before, after in zip(own, own[1:]):
                        if before.ended_by == "idle":
                            assert not (
                                before.text[-1:].isalnum()
                                and after.text[:1].isalnum()
                                and after.keystrokes[0].time - before.keystrokes[-1].time < 60
                            ), (path.name, before.text, after.text)
