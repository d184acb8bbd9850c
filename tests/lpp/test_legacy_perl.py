"""A legacy entry program written in Perl, as 2009-2016 entries were, on the real directory protocol."""

import os
import shutil
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from lpp.protocol.lines import segment
from lpp.protocol.transport import CommDir

PERL_ENTRY = Path(__file__).parent / "legacy" / "echo_entry.pl"


@contextmanager
def bridging(entry, directory):
    """The Perl entry bridged to `entry`'s running conversations, stepping in a thread."""
    from lpp.bridge import Bridge

    bridge = Bridge(entry, f"perl {PERL_ENTRY} {{dir}} 30", directory)
    stop = threading.Event()
    runner = threading.Thread(target=bridge.run, args=(stop, 0.02), daemon=True)
    runner.start()
    try:
        yield bridge
    finally:
        stop.set()
        runner.join(10)


pytestmark = pytest.mark.skipif(shutil.which("perl") is None, reason="perl is not installed")


@pytest.fixture
def perl_entry(tmp_path):
    process = subprocess.Popen(["perl", str(PERL_ENTRY), str(tmp_path), "20"])
    yield tmp_path
    process.terminate()
    process.wait(5)


def read_reply(judge: CommDir, timeout=10.0):
    keys, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        keys += judge.read()
        if keys and keys[-1].key == "Return":
            return keys
        time.sleep(0.02)
    raise AssertionError(f"no complete reply within {timeout} s, got {[k.key for k in keys]}")


def test_a_perl_entry_answers_our_judge_side(perl_entry):
    judge = CommDir(perl_entry, side="judge")
    judge.send_text("Helo")  # typed with a BackSpace below
    first = read_reply(judge)
    assert [u.text for u in segment(first)] == ["Perl heard: Helo"]
    for name in ["H", "i", "i", "BackSpace", "space", "t", "h", "e", "r", "e", "question", "Return"]:
        judge.send_key(name)
    second = read_reply(judge)
    assert [u.text for u in segment(second)] == ["Perl heard: Hi there?"]
    # the program's unpadded counter stamps (1, 2, ... 10, 11) are read in numeric order
    assert [int(k.stamp) for k in first + second] == sorted(int(k.stamp) for k in first + second)
    assert len(first) > 9
    # we deleted what we read, the program deleted what it read
    assert os.listdir(perl_entry) == []


@pytest.mark.django_db(transaction=True)
def test_the_bridge_runs_the_perl_entry_as_a_live_witness(cast, tmp_path):
    from arena import services
    from arena.models import Entry, Keystroke, Message
    from tests.arena.helpers import sides, three_party, wait_for

    entry = Entry.objects.create(display_name="Perl classic", engine="lpp", settings={})
    interrogation = three_party(cast, machine=entry)
    _, machine = sides(interrogation)
    with bridging(entry, tmp_path / "comm"):
        services.message_post(
            conversation_id=machine.pk, sender_role="interrogator", text="Are you there?", user=cast.jude
        )
        reply = wait_for(
            lambda: Message.objects.filter(conversation=machine, sender_role="witness").first(), timeout=15
        )
        assert reply.text == "Perl heard: Are you there?"
        typed = "".join(
            Keystroke.objects.filter(conversation=machine, sender_role="witness")
            .order_by("seq")
            .values_list("char", flat=True)
        )
        assert typed == "Perl heard: Are you there?"
