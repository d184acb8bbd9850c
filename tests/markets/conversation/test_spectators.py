"""The delayed spectator stream: no spectator receives a message earlier than the organiser's delay
after its stored time, on any path: the scheduled push, the websocket's (re)connect state, the JSON
read and the page."""

import datetime as dt
import json

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from arena import services as arena_services
from arena.models import Message
from arena.selectors.spectators import spectator_state
from arena.services import spectators
from tests.arena.wsclient import connect
from tests.markets.conversation.helpers import xmarket


def _say(market, text, side="left"):
    conversation = market.interrogation.conversations.get(side=side)
    return arena_services.message_post(
        conversation_id=conversation.pk, sender_role="interrogator", text=text, user=market.interrogation.judge
    )


def _age(message, seconds):
    Message.objects.filter(pk=message.pk).update(created_at=timezone.now() - dt.timedelta(seconds=seconds))


def test_the_state_read_shows_a_message_only_once_the_delay_has_passed(cast):
    market = xmarket(cast, delay_s=60)
    message = _say(market, "Where did you grow up?")
    at = message.created_at
    early = spectator_state(interrogation=market.interrogation, now=at + dt.timedelta(seconds=59.9))
    assert early["messages"] == []
    due = spectator_state(interrogation=market.interrogation, now=at + dt.timedelta(seconds=60))
    assert [(m["side"], m["from"], m["text"]) for m in due["messages"]] == [("left", "judge", "Where did you grow up?")]


def test_the_json_read_and_the_page_follow_the_stored_time(client, cast):
    market = xmarket(cast, delay_s=60)
    message = _say(market, "What is your favourite smell?")
    url = f"/markets/conversations/{market.game.public_id}/"
    assert client.get(url + "state.json").json()["transcript"]["messages"] == []
    assert "favourite smell" not in client.get(url).content.decode()
    _age(message, 59)
    assert client.get(url + "state.json").json()["transcript"]["messages"] == []
    _age(message, 61)
    assert [m["text"] for m in client.get(url + "state.json").json()["transcript"]["messages"]] == [
        "What is your favourite smell?"
    ]
    assert "favourite smell" in client.get(url).content.decode()


def test_the_release_task_pushes_nothing_before_its_time(cast, monkeypatch, django_capture_on_commit_callbacks):
    pushed, scheduled = [], []
    monkeypatch.setattr(spectators, "push", lambda group, payload: pushed.append(payload))
    monkeypatch.setattr(spectators, "enqueue_now", lambda task, *args, countdown: scheduled.append(countdown))
    market = xmarket(cast, delay_s=60)
    with django_capture_on_commit_callbacks(execute=True):
        message = _say(market, "Tell me a joke")
    assert scheduled == [60]  # the store scheduled its release, the delay as countdown
    assert not spectators.spectator_release(message_id=message.pk, now=message.created_at + dt.timedelta(seconds=20))
    assert pushed == [] and scheduled[-1] == pytest.approx(40)  # too early: nothing, and again in 40 s
    assert spectators.spectator_release(message_id=message.pk, now=message.created_at + dt.timedelta(seconds=60))
    assert [p["text"] for p in pushed] == ["Tell me a joke"]


def test_a_spectator_feed_never_shortens_its_delay(cast):
    market = xmarket(cast, delay_s=60)
    assert spectators.spectator_feed_open(interrogation_id=market.interrogation_id, delay_s=5).delay_s == 60
    assert spectators.spectator_feed_open(interrogation_id=market.interrogation_id, delay_s=90).delay_s == 90


@pytest.mark.django_db(transaction=True)
async def test_the_websocket_push_comes_no_earlier_than_the_delay(cast, task_worker):
    delay = 0.8
    market = await sync_to_async(xmarket)(cast, delay_s=delay)
    socket, connected, _ = await connect(f"/ws/markets/conversations/{market.game.public_id}/")
    assert connected
    state = await socket.expect("state")
    assert state["transcript"]["messages"] == [] and state["transcript"]["delay_s"] == delay
    message = await sync_to_async(_say)(market, "Are you a machine?")
    assert await socket.silent(timeout=delay * 0.6)  # nothing while the delay runs
    pushed = await socket.expect("message", timeout=5)
    received = timezone.now()
    assert pushed["text"] == "Are you a machine?" and pushed["side"] == "left"
    assert (received - message.created_at).total_seconds() >= delay
    assert "connie" not in json.dumps(socket.received) and "Simple Bot" not in json.dumps(socket.received)
    await socket.send({"type": "state"})  # a reconnect's state read now has it too
    again = await socket.expect("state")
    assert [m["text"] for m in again["transcript"]["messages"]] == ["Are you a machine?"]
    await socket.close()


@pytest.mark.parametrize("opened_by", ["this process", "another process"])
def test_a_feed_opened_anywhere_schedules_the_very_next_message(
    cast, monkeypatch, django_capture_on_commit_callbacks, opened_by
):
    """The append itself reads whether the interrogation's spectators wait: no process remembers "no
    feed" after one is opened (another process's feed is a row this process never heard of)."""
    from arena.models import SpectatorFeed

    scheduled = []
    monkeypatch.setattr(spectators, "enqueue_now", lambda task, message_id, countdown: scheduled.append(countdown))
    interrogation = arena_services.interrogation_create(
        judge=cast.jude, witnesses=[cast.connie, cast.simple], time_limit_s=300, title="later watched"
    )
    arena_services.interrogation_start(interrogation_id=interrogation.pk)
    human = interrogation.conversations.get(witness_human=cast.connie)
    with django_capture_on_commit_callbacks(execute=True):
        arena_services.message_post(conversation_id=human.pk, sender_role="interrogator", text="one", user=cast.jude)
    assert scheduled == []  # no feed: nothing to release
    if opened_by == "this process":
        spectators.spectator_feed_open(interrogation_id=interrogation.pk, delay_s=45)
    else:
        SpectatorFeed.objects.create(interrogation=interrogation, delay_s=45)
    with django_capture_on_commit_callbacks(execute=True):
        arena_services.message_post(conversation_id=human.pk, sender_role="interrogator", text="two", user=cast.jude)
    assert scheduled == [45]


def test_a_release_whose_task_was_lost_is_pushed_once_by_the_sweep(cast, monkeypatch):
    """Redis came back empty: the message's release task is gone. The sweep (every 5 s) pushes it once
    its time has come, never before, never twice; the task, should it come after all, pushes nothing."""
    pushed = []
    monkeypatch.setattr(spectators, "push", lambda group, payload: pushed.append(payload["text"]))
    monkeypatch.setattr(spectators, "enqueue_now", lambda *args, **kwargs: None)  # the broker lost it
    market = xmarket(cast, delay_s=60)
    first = _say(market, "First question?")
    second = _say(market, "And the second?", side="right")
    at = second.created_at
    assert spectators.spectator_releases_resume(now=at + dt.timedelta(seconds=30)) == 0
    assert pushed == []
    assert spectators.spectator_releases_resume(now=at + dt.timedelta(seconds=61)) == 2
    assert sorted(pushed) == ["And the second?", "First question?"]
    assert spectators.spectator_releases_resume(now=at + dt.timedelta(seconds=70)) == 0
    assert not spectators.spectator_release(message_id=first.pk, now=at + dt.timedelta(seconds=75))
    assert sorted(pushed) == ["And the second?", "First question?"]


def test_a_release_task_and_the_sweep_push_each_message_once_in_order(cast, monkeypatch):
    pushed = []
    monkeypatch.setattr(spectators, "push", lambda group, payload: pushed.append(payload["text"]))
    monkeypatch.setattr(spectators, "enqueue_now", lambda *args, **kwargs: None)
    market = xmarket(cast, delay_s=60)
    one, two = _say(market, "one"), _say(market, "two")
    later = two.created_at + dt.timedelta(seconds=61)
    assert spectators.spectator_release(message_id=two.pk, now=later)  # "one" had lost its task: it goes first
    assert pushed == ["one", "two"]
    assert not spectators.spectator_release(message_id=one.pk, now=later)
    assert spectators.spectator_releases_resume(now=later) == 0
    assert pushed == ["one", "two"]
