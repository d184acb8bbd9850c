import os
import sys

import pytest

from arena import services
from arena.models import Entry, Keystroke, Message
from lpp.bridge import Bridge
from lpp.models import BridgeLink, BridgeStatus
from tests.arena.helpers import sides, three_party, wait_for

pytestmark = pytest.mark.django_db(transaction=True)
ECHO = f"{sys.executable} -m lpp.entry {{dir}} --engine echo --fast --idle 1 --watch poll"


@pytest.fixture
def bridged(cast, tmp_path):
    entry = Entry.objects.create(display_name="Legacy", engine="lpp", settings={})
    interrogation = three_party(cast, machine=entry)
    _, machine = sides(interrogation)
    bridges = []

    def make(command=ECHO, **options):
        bridges.append(Bridge(entry, command, tmp_path / "comm", **options))
        return bridges[-1]

    yield entry, machine, make
    for bridge in bridges:
        bridge.close()


def witness_texts(conversation):
    return list(conversation.messages.filter(sender_role="witness").values_list("text", flat=True))


def step_until(bridge, predicate, timeout=10.0):
    return wait_for(lambda: bridge.step() and False or predicate(), timeout=timeout, interval=0.05)


@pytest.mark.slow
def test_a_judge_message_comes_back_from_the_program_as_the_witness(cast, bridged):
    entry, machine, make = bridged
    bridge = make()
    services.message_post(
        conversation_id=machine.pk, sender_role="interrogator", text="Hello, are you there?", user=cast.jude
    )
    step_until(bridge, lambda: witness_texts(machine))
    assert witness_texts(machine) == ["Hello, are you there?"]
    judge_keys = machine.keystrokes.filter(sender_role="interrogator")
    assert "".join(judge_keys.values_list("char", flat=True)) == "Hello, are you there?"
    assert judge_keys.order_by("seq").last().key == "Return"  # stored with no char, like BackSpace
    assert machine.keystrokes.filter(sender_role="witness").count() == len("Hello, are you there?") + 1
    status = BridgeStatus.objects.get(entry=entry)
    assert status.state == "ok" and status.last_output_at and not status.last_error


@pytest.mark.slow
def test_a_new_bridge_neither_resends_nor_loses(cast, bridged):
    entry, machine, make = bridged
    first = make()
    services.message_post(conversation_id=machine.pk, sender_role="interrogator", text="one", user=cast.jude)
    step_until(first, lambda: witness_texts(machine) == ["one"])
    first.close()
    assert BridgeLink.objects.get(conversation=machine).judge_seq == 1
    services.message_post(conversation_id=machine.pk, sender_role="interrogator", text="two", user=cast.jude)
    second = make()
    step_until(second, lambda: witness_texts(machine) == ["one", "two"])
    for _ in range(10):  # a few more rounds: nothing is sent again
        second.step()
    judge_keys = machine.keystrokes.filter(sender_role="interrogator").order_by("seq").values_list("key", flat=True)
    assert list(judge_keys) == ["o", "n", "e", "Return", "t", "w", "o", "Return"]
    assert list(machine.messages.values_list("sender_role", flat=True)) == [
        "interrogator",
        "witness",
        "interrogator",
        "witness",
    ]


def test_program_keys_read_but_not_posted_survive_a_restart(cast, bridged):
    entry, machine, make = bridged
    bridge = make(command=f"{sys.executable} -c pass", restart_s=3600)
    bridge.step()
    comm = bridge.links[machine.pk].comm
    for name in ["h", "i"]:
        (comm.path / f"0000000000{name == 'i' and 2 or 1}.{name}.other").mkdir()
    bridge.step()  # read and stored, the line still open
    assert machine.keystrokes.filter(sender_role="witness").count() == 2 and not witness_texts(machine)
    bridge.close()
    again = make(command=f"{sys.executable} -c pass", restart_s=3600)
    again.step()
    (comm.path / "00000000003.Return.other").mkdir()
    step_until(again, lambda: witness_texts(machine))
    assert witness_texts(machine) == ["hi"]


def test_a_program_that_exits_is_reported_to_the_organiser_not_the_judge(cast, bridged):
    entry, machine, make = bridged
    bridge = make(command=f"{sys.executable} -c \"import sys; print('model file missing'); sys.exit(3)\"")
    step_until(bridge, lambda: BridgeStatus.objects.get(entry=entry).state == "crashed")
    status = BridgeStatus.objects.get(entry=entry)
    assert "exited with code 3" in status.last_error and "model file missing" in status.last_error
    assert not Message.objects.filter(conversation=machine).exists()


def test_a_silent_program_is_reported(cast, bridged):
    entry, machine, make = bridged
    bridge = make(command=f'{sys.executable} -c "import time; time.sleep(60)"', silence_s=0.3)
    services.message_post(conversation_id=machine.pk, sender_role="interrogator", text="hello?", user=cast.jude)
    step_until(bridge, lambda: BridgeStatus.objects.get(entry=entry).state == "silent", timeout=5)
    assert "no answer" in BridgeStatus.objects.get(entry=entry).last_error
    assert not witness_texts(machine)


def test_an_ended_conversation_stops_its_program(cast, bridged):
    entry, machine, make = bridged
    bridge = make()
    bridge.step()
    process = bridge.links[machine.pk].process
    services.interrogation_end(interrogation_id=machine.interrogation_id, reason="judge")
    assert bridge.step() and machine.pk not in bridge.links
    assert process.poll() is not None
    assert Keystroke.objects.count() == 0


def test_keystroke_mode_sends_the_judges_keys_as_they_are_typed(cast, tmp_path):
    from arena.services import keystrokes_record

    entry = Entry.objects.create(display_name="Slow reader", engine="lpp", settings={})
    interrogation = three_party(cast, machine=entry, keystroke_mode=True)
    _, machine = sides(interrogation)
    bridge = Bridge(entry, "sleep 30", tmp_path / "comm")  # a program that reads nothing: keys stay put
    try:
        bridge.step()
        comm = tmp_path / "comm" / str(machine.public_id)

        def sent():
            return [name.split(".")[1] for name in sorted(os.listdir(comm), key=lambda n: int(n.split(".")[0]))]

        keystrokes_record(
            conversation_id=machine.pk, sender_role="interrogator", keys=["H", "i", "é", " "], user=cast.jude
        )
        bridge.step()
        assert sent() == ["H", "i", "space"]  # before any Return; a key with no LPP name is left out
        keystrokes_record(
            conversation_id=machine.pk, sender_role="interrogator", keys=["BackSpace", "?", "Return"], user=cast.jude
        )
        bridge.step()
        bridge.step()  # nothing is sent twice
        assert sent() == ["H", "i", "space", "BackSpace", "question", "Return"]
        # the keys were stored once, by the console, not again by the bridge
        assert machine.keystrokes.filter(sender_role="interrogator").count() == 7
        assert list(machine.messages.values_list("text", flat=True)) == ["Hié?"]
    finally:
        bridge.close()


def test_run_reads_the_programs_keys_as_they_appear_not_at_the_next_full_step(cast, bridged):
    import threading

    from django.db import connections

    entry, machine, make = bridged
    bridge = make(command=f'{sys.executable} -c "import time; time.sleep(60)"')
    stop = threading.Event()

    def run():
        try:
            bridge.run(stop, poll_s=3600, wake="inotify")  # one full step at the start, then none
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    try:
        wait_for(lambda: machine.pk in bridge.links and bridge.links[machine.pk].process)
        comm = bridge.links[machine.pk].comm
        for n, name in enumerate(["O", "K", "Return"], start=1):
            (comm.path / f"{n:018d}.{name}.other").mkdir()
        wait_for(lambda: witness_texts(machine) == ["OK"])
        assert not any(name.endswith(".other") for name in os.listdir(comm.path))
        assert machine.keystrokes.filter(sender_role="witness").count() == 3
    finally:
        stop.set()
        thread.join(30)
    assert BridgeStatus.objects.get(entry=entry).state == "stopped"


def test_keys_stored_just_before_a_crash_are_neither_lost_nor_stored_twice(cast, bridged, monkeypatch):
    entry, machine, make = bridged
    first = make(command=f"{sys.executable} -c pass", restart_s=3600)
    first.step()
    comm = first.links[machine.pk].comm
    for n, name in enumerate(["h", "i", "Return"], start=1):
        (comm.path / f"{n:018d}.{name}.other").mkdir()

    def crash(keys):
        raise KeyboardInterrupt  # the bridge dies after storing the keys, before deleting their directories

    monkeypatch.setattr(comm, "remove", crash)
    with pytest.raises(KeyboardInterrupt):
        first.step()
    assert machine.keystrokes.filter(sender_role="witness").count() == 3 and not witness_texts(machine)
    again = make(command=f"{sys.executable} -c pass", restart_s=3600)
    again.step()
    (comm.path / f"{4:018d}.k.other").mkdir()
    (comm.path / f"{5:018d}.Return.other").mkdir()
    step_until(again, lambda: witness_texts(machine) == ["hi", "k"])
    keys = machine.keystrokes.filter(sender_role="witness").order_by("seq").values_list("key", flat=True)
    assert list(keys) == ["h", "i", "Return", "k", "Return"]
