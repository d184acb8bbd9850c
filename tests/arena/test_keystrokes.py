"""Keystroke mode: typing is stored key by key, streamed live, and Return turns the line into a message."""

import pytest
from asgiref.sync import sync_to_async

from arena import services
from arena.models import Keystroke, Message
from arena.services.keystrokes import apply_keys
from core import hashchain
from core.errors import Closed, InvalidInput, NotAllowed

from .helpers import in_thread, sides, three_party
from .wsclient import connect


def keys(text):
    return ["BackSpace" if ch == "~" else "Return" if ch == "\n" else ch for ch in text]


def test_apply_keys_handles_backspace_and_return():
    assert apply_keys(keys("helo~lo\nwor~~orld")) == (["hello"], "world")
    assert apply_keys(keys("~~a\n\n")) == (["a", ""], "")


def test_return_turns_the_typed_line_into_a_hash_chained_message(cast):
    interrogation = three_party(cast, keystroke_mode=True)
    human, _ = sides(interrogation)
    assert (
        services.keystrokes_record(
            conversation_id=human.pk, sender_role="interrogator", keys=keys("Hi thr~~here"), user=cast.jude
        )
        == []
    )
    assert services.composing_line(human, "interrogator") == "Hi there"
    [message] = services.keystrokes_record(
        conversation_id=human.pk, sender_role="interrogator", keys=keys("!\n"), user=cast.jude
    )
    assert message.text == "Hi there!" and message.seq == 1
    assert services.composing_line(human, "interrogator") == ""
    stored = list(Keystroke.objects.filter(conversation=human).order_by("seq"))
    assert [k.key for k in stored] == keys("Hi thr~~here!\n") and [k.seq for k in stored] == list(range(1, 15))
    assert stored[2].char == " " and stored[6].char == "" and all(k.time for k in stored)
    # the witness types in the same conversation; each sender's line is their own
    services.keystrokes_record(conversation_id=human.pk, sender_role="witness", keys=keys("hey"), user=cast.connie)
    services.keystrokes_record(conversation_id=human.pk, sender_role="interrogator", keys=keys("ok\n"), user=cast.jude)
    services.keystrokes_record(conversation_id=human.pk, sender_role="witness", keys=keys(" you\n"), user=cast.connie)
    assert list(Message.objects.filter(conversation=human).values_list("text", flat=True)) == [
        "Hi there!",
        "ok",
        "hey you",
    ]
    assert hashchain.chain_verify(human.public_id, Message.objects.filter(conversation=human).order_by("seq")).ok


@pytest.mark.parametrize("bad", [[], "abc", ["ab"], ["\x07"], [None], ["Escape"], ["a"] * 201])
def test_bad_keys_are_refused_and_nothing_stored(cast, bad):
    interrogation = three_party(cast, keystroke_mode=True)
    human, _ = sides(interrogation)
    with pytest.raises(InvalidInput):
        services.keystrokes_record(conversation_id=human.pk, sender_role="interrogator", keys=bad, user=cast.jude)
    assert Keystroke.objects.count() == 0


def test_keys_only_in_keystroke_mode_only_while_running_only_by_the_parties(cast):
    plain = three_party(cast)
    human, _ = sides(plain)
    with pytest.raises(InvalidInput):
        services.keystrokes_record(conversation_id=human.pk, sender_role="interrogator", keys=["a"], user=cast.jude)
    lpp_style = three_party(cast, keystroke_mode=True, judge=cast.june, confederate=cast.carl)
    human, _ = sides(lpp_style)
    with pytest.raises(NotAllowed):
        services.keystrokes_record(conversation_id=human.pk, sender_role="witness", keys=["a"], user=cast.connie)
    services.interrogation_end(interrogation_id=lpp_style.pk, reason="judge")
    with pytest.raises(Closed):
        services.keystrokes_record(conversation_id=human.pk, sender_role="witness", keys=["a"], user=cast.carl)
    assert Keystroke.objects.count() == 0


def test_a_line_refused_at_return_stores_none_of_its_keys_and_can_be_sent_again(cast):
    """Keys and the message they complete are one: a Return whose line is refused (here, a witness out
    of turn under the alternate rule) leaves no Return without its message in the research data."""
    from arena.models import Interrogation

    interrogation = three_party(cast, keystroke_mode=True)
    Interrogation.objects.filter(pk=interrogation.pk).update(turn_rule=Interrogation.TurnRule.ALTERNATE)
    human, _ = sides(interrogation)
    services.keystrokes_record(conversation_id=human.pk, sender_role="witness", keys=keys("hello"), user=cast.connie)
    with pytest.raises(InvalidInput, match="turn|first"):
        services.keystrokes_record(conversation_id=human.pk, sender_role="witness", keys=keys("\n"), user=cast.connie)
    assert [k.key for k in Keystroke.objects.filter(conversation=human).order_by("seq")] == keys("hello")
    assert (
        services.composing_line(human, "witness") == "hello" and not Message.objects.filter(conversation=human).exists()
    )
    services.keystrokes_record(conversation_id=human.pk, sender_role="interrogator", keys=keys("Hi?\n"), user=cast.jude)
    [message] = services.keystrokes_record(
        conversation_id=human.pk, sender_role="witness", keys=keys("\n"), user=cast.connie
    )
    assert message.text == "hello"
    assert hashchain.chain_verify(human.public_id, Message.objects.filter(conversation=human).order_by("seq")).ok


@pytest.mark.django_db(transaction=True)
async def test_each_side_sees_the_others_keys_live_and_after_a_reconnect(cast):
    interrogation = await sync_to_async(three_party)(cast, keystroke_mode=True)
    human, _ = await sync_to_async(sides)(interrogation)
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    witness, _, _ = await connect(f"/ws/witness/{human.public_id}/", cast.connie)
    assert (await judge.expect("state"))["keystroke_mode"] is True
    await witness.expect("state")

    await judge.send({"type": "message", "side": human.side, "text": "whole line"})
    assert (await judge.expect("error"))["code"] == "invalid"  # keystroke mode: type it
    for key in keys("How ar~re"):
        await judge.send({"type": "keys", "side": human.side, "keys": [key]})
    received = [(await witness.expect("keys"))["keys"] for _ in range(9)]
    assert sum(received, []) == keys("How ar~re")

    await witness.send({"type": "keys", "keys": keys("fine")})
    assert (await judge.expect("keys", side=human.side))["keys"] == keys("fine")
    # a judge who reloads sees the witness's unfinished line
    await judge.close()
    judge, _, _ = await connect(f"/ws/judge/{interrogation.public_id}/", cast.jude)
    assert (await judge.expect("state"))["composing"][human.side] == "fine"
    await judge.send({"type": "keys", "side": human.side, "keys": [" ", "y", "o", "u", "?", "Return"]})
    message = await witness.expect("message")
    assert message["text"] == "How are you?" and message["from"] == "judge"
    await judge.close()
    await witness.close()


@pytest.mark.django_db(transaction=True)
def test_keys_stored_while_another_writer_holds_the_conversation_come_after_its_keys(cast):
    """The bridge stores a program's keys while the judge's console stores the judge's: the second
    writer waits for the first one's lock and numbers its keys after the first one's, never the same."""
    import threading

    from django.db import connection, transaction

    from arena.models import Conversation
    from arena.services.keystrokes import Key, keystrokes_store, keystrokes_store_many

    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL (SQLite serialises whole transactions)")
    interrogation = three_party(cast, keystroke_mode=True)
    human, _ = sides(interrogation)
    holding, release = threading.Event(), threading.Event()

    def judge_writer():
        with transaction.atomic():
            conversation = Conversation.objects.select_for_update().get(pk=human.pk)
            keystrokes_store(conversation=conversation, sender_role="interrogator", keys=[Key("a", "a"), Key("b", "b")])
            holding.set()
            release.wait(5)

    thread, errors = in_thread(judge_writer)
    assert holding.wait(5)
    threading.Timer(0.5, release.set).start()  # the judge's transaction commits while we wait for its lock
    with transaction.atomic():
        keystrokes_store_many([(human, "witness", [Key("x", "x")])])
    thread.join(5)
    assert not errors
    stored = list(Keystroke.objects.filter(conversation=human).order_by("seq").values_list("seq", "key"))
    assert stored == [(1, "a"), (2, "b"), (3, "x")]


@pytest.mark.django_db
def test_a_machine_reply_is_typed_once_however_often_its_batches_are_delivered(cast):
    """Tasks are acknowledged late: a batch whose worker died is delivered again, and a re-asked engine
    may start a second chain of batches. The judge still sees each key once and one message."""
    from arena.models import EngineCall
    from arena.services.witnesses import bot_reply_type

    interrogation = three_party(cast, keystroke_mode=True)
    _, machine = sides(interrogation)
    services.message_post(conversation_id=machine.pk, sender_role="interrogator", text="hi", user=cast.jude)
    EngineCall.objects.create(
        entry=cast.simple,
        conversation=machine,
        trigger_seq=1,
        kind=EngineCall.Kind.REPLY,
        outcome=EngineCall.Outcome.OK,
    )
    text = "Hello there, judge"
    typing = dict(conversation_id=machine.pk, trigger_seq=1, text=text, per_char_s=0.0625)  # 4 keys a batch
    first = bot_reply_type(typed=0, **typing)
    assert first == (4, 0.25)
    assert bot_reply_type(typed=0, **{**typing, "text": "Goodbye"}) is None  # a second engine's chain stops
    typed, steps = first, 0
    while typed is not None:
        assert bot_reply_type(typed=typed[0] - 4, **typing) == typed  # the previous batch, delivered again
        typed = bot_reply_type(typed=typed[0], **typing)
        steps += 1
    assert bot_reply_type(typed=16, **typing) is None and bot_reply_type(typed=0, **typing) is None  # after the end
    witness_keys = list(
        Keystroke.objects.filter(conversation=machine, sender_role="witness")
        .order_by("seq")
        .values_list("key", flat=True)
    )
    assert "".join(witness_keys[:-1]) == text and witness_keys[-1] == "Return" and steps == 4
    assert list(machine.messages.filter(sender_role="witness").values_list("text", flat=True)) == [text]
    assert EngineCall.objects.get(conversation=machine).reply_seq == 2
