import os
import random
import threading
import time

import pytest

import lpp.protocol.transport
from bots.typing_delay import TypingModel
from lpp.protocol.transport import CommDir, Waker, Watcher, parse_name


def make_keys(path, names, ext="judge"):
    for name in names:
        (path / f"{name}.{ext}").mkdir()


def test_directory_names_parse_leniently():
    assert parse_name("013370740830274430.bracketleft.other") == ("013370740830274430", "bracketleft", "other")
    assert parse_name("12...judge") == ("12", ".", "judge")  # a literal "."
    assert parse_name("12..judge") == ("12", "", "judge")  # empty name: reported by the reader
    assert parse_name("notes.txt") is None and parse_name("12.a.log") is None


@pytest.mark.parametrize("mode", ["inotify", "poll"])
def test_keys_present_at_start_up_are_read_in_numeric_order_and_deleted(tmp_path, mode):
    # an unpadded counter (the jhudsy bridge): lexical order would put 10 before 2
    make_keys(tmp_path, ["2.e", "1.H", "10.Return", "3.y", "9.exclam"])
    make_keys(tmp_path, ["5.x"], ext="other")  # our own key: left for the judge program
    (tmp_path / "README.txt").write_text("not a key")
    with Watcher(CommDir(tmp_path, side="other"), mode=mode) as watcher:
        assert watcher.mode_used == mode
        keys = watcher.get(timeout=2)
    assert "".join(k.char for k in keys) == "Hey!\n"
    assert sorted(os.listdir(tmp_path)) == ["5.x.other", "README.txt"]


@pytest.mark.parametrize("mode", ["inotify", "poll"])
def test_watcher_wakes_on_new_keys_from_the_other_side(tmp_path, mode):
    judge = CommDir(tmp_path, side="judge")
    entry = CommDir(tmp_path, side="other")
    with Watcher(entry, mode=mode, poll_interval=0.05) as watcher:
        assert watcher.get(timeout=0.2) == []
        threading.Timer(0.2, judge.send_text, args=("Hi there",)).start()
        started = time.monotonic()
        received = []
        while "".join(received) != "Hi there\n" and time.monotonic() - started < 5:
            received += [k.char for k in watcher.get(timeout=5)]
        assert "".join(received) == "Hi there\n"
        assert time.monotonic() - started < 2  # woken by the watcher, not by the 5 s timeout
    assert os.listdir(tmp_path) == []


def test_auto_mode_falls_back_to_polling_when_inotify_cannot_start(tmp_path, monkeypatch):
    def broken():
        raise OSError(28, "inotify watch limit reached")

    monkeypatch.setattr(lpp.protocol.transport, "_inotify_observer", broken)
    make_keys(tmp_path, ["1.o", "2.k"])
    with Watcher(CommDir(tmp_path), mode="auto", poll_interval=0.05) as watcher:
        assert watcher.mode_used == "poll"
        assert [k.char for k in watcher.get(timeout=2)] == ["o", "k"]
    with pytest.raises(OSError):
        Watcher(CommDir(tmp_path), mode="inotify").start()


def test_unknown_and_empty_key_names_are_reported_deleted_and_skipped(tmp_path):
    make_keys(tmp_path, ["1.a", "2.frobnicate", "3.", "4.tab", "5.quotedble", "6. "])
    comm = CommDir(tmp_path)
    assert [k.char for k in comm.read()] == ["a", "\t", '"', " "]
    assert len(comm.problems) == 2 and "frobnicate" in comm.problems[0]
    assert os.listdir(tmp_path) == []


def test_sending_types_canonical_names_with_the_typing_rhythm(tmp_path):
    waits = []
    comm = CommDir(
        tmp_path, side="other", sleep=waits.append, rng=random.Random(1), clock=lambda: 1337074083.0
    )  # a frozen clock: stamps must still increase
    model = TypingModel(think_s=2.0, per_char_s=0.1, word_pause_s=0.05, jitter=0.2)
    sent = comm.send_text("Hi, you.", model)
    names = sorted(os.listdir(tmp_path))
    assert [n.split(".", 1)[1] for n in names] == [
        "H.other",
        "i.other",
        "comma.other",
        "space.other",
        "y.other",
        "o.other",
        "u.other",
        "period.other",
        "Return.other",
    ]
    assert [k.stamp for k in sent] == [n.split(".")[0] for n in names]
    assert len(waits) == 9 and 1.6 <= waits[0] <= 2.5  # thinking time first
    assert all(0.08 <= w <= 0.18 for w in waits[1:])
    assert [k.char for k in CommDir(tmp_path, side="judge").read()] == list("Hi, you.\n")


def test_sending_pauses_after_spaces_and_punctuation(tmp_path):
    waits = []
    comm = CommDir(tmp_path, side="other", sleep=waits.append, rng=random.Random(1))
    comm.send_text("Hi, you.", TypingModel(think_s=1.0, per_char_s=0.1, word_pause_s=0.05, jitter=0.0))
    # keys: H i , space y o u . Return: the key after "," and after " " (and after ".") waits longer
    assert waits == pytest.approx([1.1, 0.1, 0.1, 0.15, 0.15, 0.1, 0.1, 0.1, 0.15])


def test_missing_directory_is_a_clear_error(tmp_path):
    with pytest.raises(NotADirectoryError):
        CommDir(tmp_path / "nope")


def test_typing_model_thinks_first_and_pauses_after_words():
    model = TypingModel(think_s=2.0, per_char_s=0.1, word_pause_s=0.05, jitter=0.0)
    assert model.delays(list("a, b")) == pytest.approx([2.1, 0.1, 0.15, 0.15])
    assert sum(TypingModel.fast().delays(list("x" * 100))) < 0.5
    with pytest.raises(ValueError):
        TypingModel(jitter=1.5)


def test_one_waker_says_which_directories_have_new_keys(tmp_path):
    left, right = tmp_path / "left", tmp_path / "right"
    left.mkdir(), right.mkdir()
    make_keys(left, ["1.a"], ext="other")
    waker = Waker(".other", mode="inotify").start()
    try:
        waker.watch(left)
        waker.watch(right)
        assert waker.wait(timeout=2) == {left, right}  # keys already there count as new
        make_keys(right, ["2.b"], ext="judge")  # our own kind of key: no wake-up
        make_keys(right, ["3.c"], ext="other")
        assert wait_for_change(waker) == {right}
        waker.unwatch(right)
        make_keys(right, ["4.d"], ext="other")
        make_keys(left, ["5.e"], ext="other")
        assert wait_for_change(waker) == {left}
    finally:
        waker.stop()


def test_a_directory_inotify_cannot_watch_is_polled(tmp_path, monkeypatch):
    waker = Waker(".judge", mode="auto", poll_interval=0.05).start()
    try:

        def out_of_watches(*args, **kwargs):
            raise OSError(28, "inotify watch limit reached")

        monkeypatch.setattr(waker._observer, "schedule", out_of_watches)
        waker.watch(tmp_path)
        assert waker.wait(timeout=2) == {tmp_path}
        make_keys(tmp_path, ["1.x"])
        assert wait_for_change(waker) == {tmp_path}
    finally:
        waker.stop()


def wait_for_change(waker, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        changed = waker.wait(timeout=deadline - time.monotonic())
        if changed:
            return changed
    return set()
