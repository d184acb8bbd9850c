"""A machine's reply is stored once per judge message, however often its tasks run (both modes).

Celery acknowledges the reply tasks late: a worker that dies after storing a reply but before
acknowledging the task gets it delivered again, and the sweep may have asked again meanwhile. The
kill itself is tested in test_worker_kill.py (services mode); here the services are called twice.
"""

import pytest

from arena import services
from arena.models import EngineCall, Message
from tests.arena.helpers import sides, three_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def scheduled(monkeypatch):
    """The deliveries bot_reply_compose schedules, captured instead of sent to a worker."""
    calls = []
    monkeypatch.setattr(
        "arena.services.witnesses.enqueue_now", lambda task, *args, countdown=0.0: calls.append((task.name, args))
    )
    return calls


def ask(cast, machine, text):
    return services.message_post(conversation_id=machine.pk, sender_role="interrogator", text=text, user=cast.jude)


def witness_texts(machine):
    return list(
        Message.objects.filter(conversation=machine, sender_role="witness")
        .order_by("seq")
        .values_list("text", flat=True)
    )


def test_a_reply_delivered_again_or_asked_again_is_stored_once(cast, scheduled):
    _, machine = sides(three_party(cast))
    trigger = ask(cast, machine, "Hello?")
    assert services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=trigger.seq)
    [(name, (conversation_id, trigger_seq, text))] = scheduled
    assert name == "arena.tasks.bot_deliver"

    first = services.bot_reply_deliver(conversation_id=conversation_id, trigger_seq=trigger_seq, text=text)
    again = services.bot_reply_deliver(conversation_id=conversation_id, trigger_seq=trigger_seq, text=text)
    assert first is not None and again is None
    assert witness_texts(machine) == [text]
    assert EngineCall.objects.get(conversation=machine, trigger_seq=trigger.seq).reply_seq == first.seq

    # the reply task run again (redelivered, or re-asked by the sweep): no engine call, nothing scheduled
    calls = EngineCall.objects.count()
    assert services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=trigger.seq) is False
    assert EngineCall.objects.count() == calls and len(scheduled) == 1


def test_two_questions_in_a_row_each_get_their_own_reply_in_any_order(cast, scheduled):
    _, machine = sides(three_party(cast))
    one, two = ask(cast, machine, "One?"), ask(cast, machine, "Two?")
    assert services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=one.seq)
    assert services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=two.seq)
    (_, first), (_, second) = scheduled
    # the second reply is shorter, so typed sooner: it arrives first
    assert services.bot_reply_deliver(conversation_id=second[0], trigger_seq=second[1], text="Second.")
    assert services.bot_reply_deliver(conversation_id=first[0], trigger_seq=first[1], text="First.")
    assert services.bot_reply_deliver(conversation_id=first[0], trigger_seq=first[1], text="First.") is None
    assert witness_texts(machine) == ["Second.", "First."]
