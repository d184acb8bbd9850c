"""A (re)connecting console is sent a conversation's most recent ARENA_STATE_MESSAGES messages only, in
order, and how many earlier ones there are: a long conversation's page reload stays small."""

import pytest

from arena import services
from arena.selectors import interrogations
from tests.arena.helpers import sides, three_party

pytestmark = pytest.mark.django_db

N = 5


def _talk(cast, conversation, count):
    for i in range(count):
        role, user = ("interrogator", cast.jude) if i % 2 == 0 else ("witness", cast.connie)
        services.message_post(conversation_id=conversation.pk, sender_role=role, text=f"line {i}", user=user)


def test_states_carry_the_last_n_messages_and_count_the_earlier_ones(cast, settings):
    settings.ARENA_STATE_MESSAGES = N
    interrogation = three_party(cast)
    human, machine = sides(interrogation)
    _talk(cast, human, N + 50)
    services.message_post(conversation_id=machine.pk, sender_role="interrogator", text="hello?", user=cast.jude)

    judge = interrogations.judge_state(interrogation=interrogation)
    shown = judge["messages"][human.side]
    assert [m["text"] for m in shown] == [f"line {i}" for i in range(50, N + 50)]
    assert [m["seq"] for m in shown] == sorted(m["seq"] for m in shown)
    assert [m["from"] for m in shown] == ["you" if i % 2 == 0 else "witness" for i in range(50, N + 50)]
    assert judge["earlier"] == {human.side: 50, machine.side: 0}
    assert [m["text"] for m in judge["messages"][machine.side]] == ["hello?"]

    witness = interrogations.witness_state(conversation=human)
    assert [m["text"] for m in witness["messages"]] == [f"line {i}" for i in range(50, N + 50)]
    assert [m["from"] for m in witness["messages"]] == ["judge" if i % 2 == 0 else "you" for i in range(50, N + 50)]
    assert witness["earlier"] == 50


def test_the_default_cap_is_500():
    from django.conf import settings

    assert settings.ARENA_STATE_MESSAGES == 500


def test_a_conversation_within_the_cap_is_sent_whole(cast, settings):
    settings.ARENA_STATE_MESSAGES = N
    interrogation = three_party(cast)
    human, _ = sides(interrogation)
    _talk(cast, human, N)
    assert [m["text"] for m in interrogations.witness_state(conversation=human)["messages"]] == [
        f"line {i}" for i in range(N)
    ]
    assert interrogations.witness_state(conversation=human)["earlier"] == 0
    assert interrogations.judge_state(interrogation=interrogation)["earlier"][human.side] == 0


def test_the_monitor_gets_each_conversations_last_messages_and_the_earlier_count(cast):
    interrogation = three_party(cast)
    human, _ = sides(interrogation)
    _talk(cast, human, interrogations.MONITOR_MESSAGES + 7)
    monitored = next(i for i in interrogations.monitor_state()["interrogations"] if i["id"] == interrogation.pk)
    conversation = next(c for c in monitored["conversations"] if c["side"] == human.side)
    assert [m["text"] for m in conversation["messages"]] == [
        f"line {i}" for i in range(7, interrogations.MONITOR_MESSAGES + 7)
    ]
    assert conversation["earlier"] == 7
