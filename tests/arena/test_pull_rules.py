"""Pull mode's reply rules: a reply answers a pending judge message, once, and is shown no sooner than the
entry's typing model allows, counted from the judge's message (no instant, unprompted or repeated
replies for the judge to fingerprint)."""

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from arena import roles, services
from arena.models import Entry

from ..conftest import make_user
from .helpers import sides, three_party, wait_for
from .test_api import client_for

pytestmark = pytest.mark.django_db(transaction=True)
SLOW = {"think_s": 1.0, "per_char_s": 0.05, "jitter": 0}  # "hello there": 1 + 11 * 0.05 = 1.55 s


@pytest.fixture
def pull(cast, task_worker):
    ada = make_user("ada", roles.ENTRANT)
    entry = Entry.objects.create(display_name="Ada pull", engine="pull", owner=ada, settings=dict(SLOW))
    conversation = sides(three_party(cast, machine=entry))[1]
    api = client_for(ada)
    key = api._credentials["HTTP_AUTHORIZATION"]

    def reply(text="hello there"):
        client = APIClient()  # one per call: replies may race from several threads
        client.credentials(HTTP_AUTHORIZATION=key)
        return client.post(
            f"/api/v1/entries/{entry.pk}/replies/",
            {"conversation": str(conversation.public_id), "text": text},
            format="json",
        )

    return entry, conversation, api, reply


def witness_replies(conversation):
    return list(conversation.messages.filter(sender_role="witness").order_by("seq"))


@pytest.mark.slow
def test_a_reply_is_held_for_the_typing_delay_from_the_judge_message(cast, pull):
    entry, conversation, api, reply = pull
    question = services.message_post(
        conversation_id=conversation.pk, sender_role="interrogator", text="hi there?", user=cast.jude
    )
    answer = reply()
    assert answer.status_code == 202
    assert answer.json()["reply_to"] == 1 and answer.json()["text"] == "hello there" and answer.json()["deliver_at"]
    assert witness_replies(conversation) == []  # not stored at once
    assert api.get(f"/api/v1/entries/{entry.pk}/pending/").json() == {"pending": []}  # answered: no longer pending

    shown = wait_for(lambda: witness_replies(conversation), timeout=10)
    assert [m.text for m in shown] == ["hello there"]
    assert (shown[0].created_at - question.created_at).total_seconds() >= 1.55 - 0.01


def test_an_unprompted_or_second_reply_is_refused(cast, pull):
    _, conversation, _, reply = pull
    unprompted = reply()  # nobody has written yet
    assert unprompted.status_code == 409 and unprompted.json()["code"] == "not_pending"
    assert "judge" in unprompted.json()["error"]

    services.message_post(conversation_id=conversation.pk, sender_role="interrogator", text="hi", user=cast.jude)
    assert reply("first").status_code == 202
    second = reply("second")
    assert second.status_code == 409 and second.json()["code"] == "already_answered"
    wait_for(lambda: witness_replies(conversation), timeout=10)
    again = reply("third, after the first was shown")  # the last message is now the witness's own
    assert again.status_code == 409 and again.json()["code"] == "not_pending"
    assert [m.text for m in witness_replies(conversation)] == ["first"]


def test_racing_replies_to_one_message_get_one_answer(cast, pull):
    _, conversation, _, reply = pull
    services.message_post(conversation_id=conversation.pk, sender_role="interrogator", text="quick!", user=cast.jude)
    codes = []

    def race(i):
        try:
            codes.append(reply(f"answer {i}").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=race, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [202, 409, 409, 409]
    shown = wait_for(lambda: witness_replies(conversation), timeout=10)
    assert len(shown) == 1


def test_a_pull_reply_is_cut_to_the_interrogations_cap(cast, pull):
    """The interrogation's message cap (a study's) binds a pull entry's replies as it binds people."""
    from arena.models import Interrogation

    entry, conversation, api, reply = pull
    Interrogation.objects.filter(pk=conversation.interrogation_id).update(max_message_chars=20)
    services.message_post(conversation_id=conversation.pk, sender_role="interrogator", text="hi?", user=cast.jude)
    answer = reply("hello there, from a very long way away")
    assert answer.status_code == 202 and answer.json()["text"] == "hello there, from a"
