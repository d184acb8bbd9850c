from lpp.protocol.model import Keystroke
from lpp.protocol.stamps import StampWriter, format_stamp, sort_per_sender, stamp_time


def test_jcomm_stamp_is_11_digits_of_seconds_and_7_of_microseconds():
    assert stamp_time("013370740830274430") == 1337074083.27443
    assert format_stamp(1337074083274430) == "013370740830274430"
    assert stamp_time("42") is None  # a plain counter has no time


def test_writer_is_fixed_width_and_strictly_increasing_even_when_the_clock_stands_still():
    now = [1337074083.999999]
    writer = StampWriter(clock=lambda: now[0])
    stamps = [writer.next() for _ in range(5)]
    now[0] -= 10  # the clock steps back
    stamps += [writer.next() for _ in range(3)]
    assert all(len(s) == 18 for s in stamps)
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    assert [int(a) < int(b) for a, b in zip(stamps, stamps[1:])] == [True] * 7
    assert all(s[11] == "0" for s in stamps)  # microseconds roll over into seconds, still JComm
    assert stamp_time(stamps[1]) == 1337074084.0


def key(sender, stamp, char):
    return Keystroke(sender=sender, key=char, char=char, stamp=stamp, time=None)


def test_reader_sorts_unpadded_counters_numerically():
    keys = [key("judge", s, c) for s, c in [("10", "k"), ("9", "j"), ("1", "a"), ("2", "b")]]
    assert [k.char for k in sort_per_sender(keys)] == ["a", "b", "j", "k"]


def test_each_writers_order_is_kept_despite_small_disorder_between_writers():
    # from the 2012 logs: the judge's BackSpace stamped a few hundred µs before the other's key
    keys = [
        key("other", "013370845350649898", "a"),
        key("judge", "013370845350649200", "\b"),
        key("judge", "013370845350649100", "x"),
        key("other", "013370845350650000", "b"),
    ]
    ordered = sort_per_sender(keys)
    assert [k.char for k in ordered if k.sender == "judge"] == ["x", "\b"]
    assert [k.char for k in ordered if k.sender == "other"] == ["a", "b"]
    assert [k.stamp for k in ordered] == sorted(k.stamp for k in keys)
