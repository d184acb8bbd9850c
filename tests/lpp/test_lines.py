from lpp.protocol.keys import char_for
from lpp.protocol.lines import Segmenter, apply_backspace, segment
from lpp.protocol.model import Keystroke


def typed(sender, text, start, step=0.1, side=""):
    """Keystrokes for ``text`` ('<' is BackSpace, '|' is Return) from time ``start``."""
    names = {"<": "BackSpace", "|": "Return", " ": "space"}
    keys = []
    for i, c in enumerate(text):
        name = names.get(c, c)
        keys.append(
            Keystroke(sender=sender, key=name, char=char_for(name), stamp=str(i), time=start + i * step, side=side)
        )
    return keys


def texts(utterances):
    return [(u.sender, u.text) for u in utterances]


def test_backspace_deletes_the_previous_character_of_the_same_line_only():
    assert apply_backspace("helo\b\bllo") == "hello"
    assert apply_backspace("\b\bab\b") == "a"


def test_backspace_applies_per_sender_even_when_keys_interleave():
    judge = typed("judge", "Hellp<o|", 0.0)
    other = typed("other", "Hi therr<e|", 0.05)
    merged = sorted(judge + other, key=lambda k: k.time)
    assert texts(segment(merged)) == [("judge", "Hello"), ("other", "Hi there")]


def test_return_ends_an_utterance_and_keeps_every_keystroke():
    [u] = segment(typed("judge", "ab<c|", 10.0))
    assert (u.text, u.ended_by, u.started, u.ended) == ("ac", "Return", 10.0, 10.4)
    assert len(u.keystrokes) == 5 and u.typed("~") == "ab~c"


def test_idle_timeout_ends_a_line_of_a_sender_that_never_presses_return():
    keys = typed("other", "Hi.", 0.0) + typed("other", "Bye.", 20.0)
    result = segment(keys, idle_timeout=5.0)
    assert texts(result) == [("other", "Hi."), ("other", "Bye.")]
    assert [u.ended_by for u in result] == ["idle", "end"]


def test_live_expiry_reports_an_idle_line_without_a_new_key():
    segmenter = Segmenter(idle_timeout=3.0)
    for k in typed("judge", "hello", 0.0):
        assert segmenter.feed(k) == []
    assert segmenter.expire(2.0) == []
    [u] = segmenter.expire(10.0)
    assert (u.text, u.ended_by) == ("hello", "idle")


def test_change_of_speaker_ends_a_paused_line_but_not_concurrent_typing():
    # the program types a reply without Return, pauses, then the judge asks again
    program = typed("other", "I am Dave.", 0.0)
    judge = typed("judge", "And where from?|", 4.0)
    assert texts(segment(program + judge, idle_timeout=None)) == [("other", "I am Dave."), ("judge", "And where from?")]
    # both typing at once: the judge's line survives the other's interleaved keys
    judge = typed("judge", "What is the weather?|", 0.0, step=0.2)
    other = typed("other", "Have you a pet?", 0.1, step=0.2)
    merged = sorted(judge + other, key=lambda k: k.time)
    assert sorted(texts(segment(merged, idle_timeout=None))) == [
        ("judge", "What is the weather?"),
        ("other", "Have you a pet?"),
    ]


def test_empty_lines_and_unknown_keys_produce_no_text():
    keys = typed("judge", "a<|", 0.0) + [Keystroke("judge", "foo", None, "9", 1.0)]
    assert segment(keys) == []
