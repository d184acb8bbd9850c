"""An interrogation's message policy (turn rule, length cap: a study's rules), checked by the append
under the conversation's lock for people's messages, on both databases; on PostgreSQL two appends
racing for the same turn store one message and refuse the other."""

import pytest
from django.db import connection, transaction

from arena import services
from arena.models import Interrogation, Message
from arena.services.appends import turn_refusal
from core.errors import InvalidInput

from .test_append_sql import chain, in_thread, lock_waiters

ALTERNATE, FIRST, FREE = (
    Interrogation.TurnRule.ALTERNATE,
    Interrogation.TurnRule.INTERROGATOR_FIRST,
    Interrogation.TurnRule.FREE,
)


def test_turn_rules():
    assert turn_refusal(rule=FIRST, sender_role="witness", last_role=None)  # never unprompted
    assert turn_refusal(rule=ALTERNATE, sender_role="witness", last_role=None)
    assert turn_refusal(rule=ALTERNATE, sender_role="interrogator", last_role="interrogator")
    assert turn_refusal(rule=ALTERNATE, sender_role="witness", last_role="witness")
    assert turn_refusal(rule=ALTERNATE, sender_role="witness", last_role="interrogator") is None
    assert turn_refusal(rule=FIRST, sender_role="interrogator", last_role="interrogator") is None
    assert turn_refusal(rule=FIRST, sender_role="witness", last_role="witness") is None
    assert turn_refusal(rule=FREE, sender_role="witness", last_role=None) is None


def game(cast, *, rule, cap=None, witness=None):
    interrogation = services.interrogation_create(
        judge=cast.jude, witnesses=[witness or cast.connie], title="game", turn_rule=rule, max_message_chars=cap
    )
    services.interrogation_start(interrogation_id=interrogation.pk)
    return interrogation.conversations.get()


def post(conversation, role, user, text="hello"):
    return services.message_post(conversation_id=conversation.pk, sender_role=role, text=text, user=user)


def refused(code, conversation, role, user, text="hello"):
    with pytest.raises(InvalidInput) as caught:
        post(conversation, role, user, text)
    assert caught.value.code == code
    return str(caught.value)


@pytest.mark.django_db
def test_the_policy_is_validated_when_the_interrogation_is_made(cast):
    with pytest.raises(InvalidInput, match="turn_rule"):
        services.interrogation_create(judge=cast.jude, witnesses=[cast.connie], turn_rule="whenever")
    with pytest.raises(InvalidInput, match="max_message_chars"):
        services.interrogation_create(judge=cast.jude, witnesses=[cast.connie], max_message_chars=0)


@pytest.mark.django_db(transaction=True)
def test_strict_alternation_and_the_cap_refuse_with_clear_errors(cast):
    conversation = game(cast, rule=ALTERNATE, cap=12)
    assert "speaks first" in refused("not_your_turn", conversation, "witness", cast.connie)
    post(conversation, "interrogator", cast.jude)
    assert "Wait for the witness" in refused("not_your_turn", conversation, "interrogator", cast.jude)
    assert "at most 12 characters" in refused("too_long", conversation, "witness", cast.connie, "x" * 13)
    post(conversation, "witness", cast.connie, "  " + "y" * 12 + "\n")  # the cap counts the text as stored
    assert "Wait for the interrogator" in refused("not_your_turn", conversation, "witness", cast.connie)
    assert [(m.sender_role, m.text) for m in chain(conversation)] == [("interrogator", "hello"), ("witness", "y" * 12)]


@pytest.mark.django_db(transaction=True)
def test_interrogator_first_then_free(cast):
    conversation = game(cast, rule=FIRST)
    refused("not_your_turn", conversation, "witness", cast.connie)
    post(conversation, "interrogator", cast.jude)
    post(conversation, "interrogator", cast.jude)
    post(conversation, "witness", cast.connie)
    post(conversation, "witness", cast.connie)
    assert [m.seq for m in chain(conversation)] == [1, 2, 3, 4]


@pytest.mark.django_db(transaction=True)
def test_machine_witnesses_are_not_held_to_the_policy(cast):
    """A machine's reply answers a question once (the gateway's rule), whatever its length."""
    conversation = game(cast, rule=ALTERNATE, cap=5, witness=cast.simple)
    post(conversation, "interrogator", cast.jude, "hi")
    reply = post(conversation, "witness", None, "a reply longer than five")
    assert reply.seq == len(chain(conversation))


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("row locks under concurrency need PostgreSQL (set DATABASE_URL)")


def race(conversation, writers) -> dict:
    """Start the writers while another transaction holds the conversation's row lock, wait until all of
    them wait for it, then let go: they append one after another, each deciding under the lock."""
    results = {}
    with transaction.atomic():
        list(type(conversation).objects.select_for_update().filter(pk=conversation.pk))
        threads = [
            in_thread(
                results,
                key,
                services.message_post,
                conversation_id=conversation.pk,
                sender_role=role,
                text=text,
                user=user,
            )
            for key, role, user, text in writers
        ]
        lock_waiters(len(writers))
    for thread in threads:
        thread.join(10)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_racing_questions_under_strict_alternation_store_one(cast, postgresql):
    conversation = game(cast, rule=ALTERNATE)
    for turn in range(3):
        results = race(
            conversation, [("a", "interrogator", cast.jude, f"q{turn}a"), ("b", "interrogator", cast.jude, f"q{turn}b")]
        )
        stored = [r for r in results.values() if isinstance(r, Message)]
        errors = [r for r in results.values() if not isinstance(r, Message)]
        assert len(stored) == 1 and len(errors) == 1, results
        assert isinstance(errors[0], InvalidInput) and errors[0].code == "not_your_turn"
        post(conversation, "witness", cast.connie, f"a{turn}")
    roles = [m.sender_role for m in chain(conversation)]
    assert roles == ["interrogator", "witness"] * 3


@pytest.mark.django_db(transaction=True)
def test_a_witness_racing_the_first_question_lands_only_after_it(cast, postgresql):
    """Witness and interrogator at once into an empty conversation: whoever gets the lock first, the
    witness's message is stored only if the question is already there."""
    for _ in range(4):
        conversation = game(cast, rule=FIRST)
        results = race(conversation, [("w", "witness", cast.connie, "hi?"), ("q", "interrogator", cast.jude, "hello")])
        assert isinstance(results["q"], Message), results
        messages = chain(conversation)
        if isinstance(results["w"], Message):
            assert [m.sender_role for m in messages] == ["interrogator", "witness"]
        else:
            assert results["w"].code == "not_your_turn" and [m.text for m in messages] == ["hello"]


LONG_ANSWER = "I grew up by the sea in a small town where the fishing boats came in every morning at six."


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("cap", [40, None])
def test_a_machine_witness_is_held_to_the_interrogations_cap_as_people_are(cast, task_worker, settings, cap):
    """A study caps messages at 40 characters: a machine writing longer answers would give itself away, so
    its reply (a webhook entry's, from a local stub) is cut to the cap at a word boundary before it is shown."""
    from arena.models import Entry
    from tests.conftest import FAST
    from tests.stubserver import LoopbackServer

    from .helpers import wait_for

    settings.ARENA_OUTBOUND_ALLOW = ["127.0.0.1/32"]
    with LoopbackServer(lambda path, headers, body: (200, {"reply": LONG_ANSWER}, 0)) as stub:
        entry = Entry.objects.create(
            display_name="Talker",
            engine="webhook",
            settings={"url": stub.root + "/", "secret": "s" * 16, "persona": {}, **FAST},
        )
        conversation = game(cast, rule=FIRST, cap=cap, witness=entry)
        post(conversation, "interrogator", cast.jude, "Where did you grow up?")
        reply = wait_for(
            lambda: Message.objects.filter(conversation=conversation, sender_role="witness").first(), timeout=20
        )
    if cap is None:
        assert reply.text == LONG_ANSWER
    else:
        assert reply.text == "I grew up by the sea in a small town"
