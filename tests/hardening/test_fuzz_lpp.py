"""Property-based tests of the LPP codec (lpp.protocol, no Django): key names, directory names, stamps,
the log reader, and the readers of round logs and text transcripts, on arbitrary input."""

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lpp.protocol.keys import LENIENT_NAMES, SPECIAL_NAMES, char_for, name_for, names_for_text, to_ascii
from lpp.protocol.lines import transcript_utterances
from lpp.protocol.logs import parse_log, read_log
from lpp.protocol.model import JUDGE, OTHER, Keystroke
from lpp.protocol.round_log import parse_round_log
from lpp.protocol.sessions import UnreadableInput, detect
from lpp.protocol.stamps import StampWriter, format_stamp, sort_per_sender, stamp_time, stamp_value
from lpp.protocol.text_transcript import parse_text
from lpp.protocol.transport import EXTENSIONS, parse_name

QUICK = settings(max_examples=300, deadline=None, database=None)

# digits that are not ASCII: "²" is a digit to str.isdigit() but not to int(); "١" is to both
ODD_DIGITS = ["²", "¹", "١", "٣", "０", "𝟘"]
carryable = st.sampled_from(sorted(set(string.ascii_letters + string.digits) | set(SPECIAL_NAMES.values())))
any_text = st.text(st.characters(codec=None), max_size=40)
stamp_like = st.one_of(
    st.integers(min_value=0, max_value=10**17 - 1).map(format_stamp),
    st.integers(min_value=0, max_value=10**30).map(str),
    st.lists(st.sampled_from([*string.digits, *ODD_DIGITS]), min_size=1, max_size=20).map("".join),
    st.sampled_from(["0" * 5000, "9" * 4400, "", "12a", "-1", " 1"]),
    any_text,
)


@QUICK
@given(carryable)
def test_every_carryable_character_round_trips_through_its_name(char):
    assert char_for(name_for(char)) == char


@QUICK
@given(st.characters(codec=None))
def test_a_character_has_its_canonical_name_or_none(char):
    try:
        name = name_for(char)
    except ValueError:
        assert char not in set(string.ascii_letters + string.digits) | set(SPECIAL_NAMES.values())
    else:
        assert char_for(name) == char


@QUICK
@given(st.one_of(any_text, st.sampled_from(sorted(SPECIAL_NAMES) + sorted(LENIENT_NAMES))))
def test_reading_any_name_gives_one_character_or_none(name):
    char = char_for(name)
    assert char is None or (len(char) == 1 and char_for(name_for(char)) == char)


@QUICK
@given(any_text)
def test_text_becomes_names_that_read_back_as_its_ascii_fold(text):
    names = names_for_text(text)
    assert "".join(char_for(n) for n in names) == to_ascii(text)
    assert all(name == name_for(char_for(name)) for name in names)  # canonical names only


@QUICK
@given(st.integers(min_value=0, max_value=10**17 - 1), carryable, st.sampled_from(EXTENSIONS))
def test_key_directory_names_round_trip(micros, char, ext):
    stamp = format_stamp(micros)
    assert parse_name(f"{stamp}.{name_for(char)}.{ext}") == (stamp, name_for(char), ext)


@QUICK
@given(st.one_of(any_text, st.builds("{}.{}.{}".format, stamp_like, any_text, st.sampled_from([*EXTENSIONS, "x"]))))
def test_parse_name_takes_any_name(name):
    parsed = parse_name(name)
    if parsed is not None:
        stamp, key, ext = parsed
        assert f"{stamp}.{key}.{ext}" == name and ext in EXTENSIONS
        stamp_time(stamp)  # a stamp it accepts is one the rest can read
        try:
            stamp_value(stamp)
        except ValueError:
            assert len(stamp) > 4000  # past what int() converts; directory names are far shorter


@QUICK
@given(st.integers(min_value=0, max_value=10**17 - 1))
def test_stamps_round_trip(micros):
    stamp = format_stamp(micros)  # 11 digits of seconds, then 7 of microseconds (the first always 0)
    seconds, micro = divmod(micros, 1_000_000)
    assert len(stamp) == 18 and stamp_value(stamp) == seconds * 10**7 + micro
    assert abs(stamp_time(stamp) - micros / 1_000_000) < 1e-5


@QUICK
@given(st.one_of(st.integers(max_value=-1), st.integers(min_value=10**17)))
def test_times_out_of_range_have_no_stamp(micros):
    try:
        format_stamp(micros)
    except ValueError:
        return
    raise AssertionError(f"{micros} got a stamp")


@QUICK
@given(stamp_like)
def test_reading_any_stamp_gives_a_number_or_value_error(stamp):
    try:
        assert stamp_value(stamp) >= 0
    except ValueError:  # documented: not all digits, or too long to convert
        pass
    when = stamp_time(stamp)
    assert when is None or when >= 0


@QUICK
@given(st.lists(st.floats(min_value=0, max_value=4e9, allow_nan=False), min_size=1, max_size=30))
def test_a_stamp_writer_counts_up_whatever_its_clock_does(times):
    clock = iter(times + [times[-1]] * 5)
    writer = StampWriter(clock=lambda: next(clock))
    values = [stamp_value(writer.next()) for _ in times]
    assert values == sorted(set(values))


@QUICK
@given(st.lists(st.tuples(st.sampled_from([JUDGE, OTHER]), stamp_like), max_size=30))
def test_any_stamps_sort_per_sender_in_numeric_order(items):
    keys = [Keystroke(sender=sender, key="a", char="a", stamp=stamp, time=None) for sender, stamp in items]
    ordered = sort_per_sender(keys)
    assert sorted(map(id, ordered)) == sorted(map(id, keys))
    for sender in (JUDGE, OTHER):
        mine = [k.stamp for k in ordered if k.sender == sender]
        plain = [int(s) for s in mine if s.isascii() and s.isdigit() and len(s) < 100]
        assert plain == sorted(plain)


line_2012 = st.builds(
    "J{} {} {} {} {}".format,
    st.text(max_size=3),
    stamp_like,
    st.sampled_from([JUDGE, "prog", ""]),
    st.sampled_from(["left", "right", "up"]),
    st.one_of(st.sampled_from(sorted(SPECIAL_NAMES)), any_text),
)
log_lines = st.lists(
    st.one_of(
        line_2012,
        any_text,
        st.sampled_from(
            [
                "Loebner Prize 2012",
                "Transcripts of judge 3 program X round 2",
                "Left = Human",
                "Transcripts of program Y",
                "*Starting round 1 program P human H judge J1 left is P",
                "** sub-round",
                "",
                "\ufeff",
            ]
        ),
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.binary(max_size=2000), log_lines.map(lambda ls: "\r\n".join(ls).encode("utf-8", "surrogatepass"))))
def test_read_log_never_raises_on_any_bytes(tmp_path, data):
    path = tmp_path / "log.txt"
    path.write_bytes(data)
    for transcript in read_log(path):
        assert all(isinstance(p, str) for p in transcript.problems)
        transcript_utterances(transcript)  # what the importer and replay do next
    assert parse_log(data.decode("utf-8", errors="replace")) is not None


whole_lines = st.lists(
    st.one_of(
        any_text,
        st.sampled_from(
            [
                '{"content":"hi","to":"conf0","id":"judge0","secret":""}',
                '{"id":"ai1","content":"yo","to":"judge1"}',
                '{"id":"judge0","to":"judge1","content":"x"}',
                '{"id":["judge0"],"to":{},"content":3}',
                "[1, 2]",
                "Judge: hello~~~~~~~~",
                "[10:02:33] Entry: hi",
                "== t (judge 1, x, round) ==",
                "-- left (human) --",
                "-- link --",
                "Rose:",
                "continued line",
                "%PDF-1.4",
            ]
        ),
    ),
    max_size=25,
)


@settings(max_examples=200, deadline=None, database=None)
@given(st.one_of(st.binary(max_size=2000), whole_lines.map(lambda ls: "\n".join(ls).encode("utf-8", "surrogatepass"))))
def test_the_whole_line_readers_only_ever_refuse_with_a_reason(data):
    """Any bytes: each reader returns sessions with at least one message, or refuses with UnreadableInput."""
    text = data.decode("utf-8", errors="replace")
    for read in (lambda: detect(data), lambda: parse_round_log(text, "Round0"), lambda: parse_text(text)):
        try:
            result = read()
        except UnreadableInput as error:
            assert str(error)
            continue
        if isinstance(result, list):
            assert result and all(any(p.lines for p in s.parties) for s in result)
