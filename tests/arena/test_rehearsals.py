"""Rehearsals: a practice interrogation that starts at once, answered through the real machinery, with the
scripted test judge or the entrant as judge; kept out of results and never published."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from arena import roles, services
from arena.models import EngineCall, Entry, Interrogation, Message, Status
from arena.services.apikeys import apikey_create
from arena.services.rehearsals import BOT_JUDGE, QUESTIONS
from core.errors import Closed
from tests.conftest import make_user

from .helpers import wait_for

THINK_S = 0.3


@pytest.fixture
def ada(cast):
    return make_user("ada", roles.ENTRANT)


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_test_judge_asks_waits_for_each_answer_and_ends_the_rehearsal(ada, settings, task_worker):
    settings.ARENA_REHEARSAL_PAUSE_S = 0.05
    entry = Entry.objects.create(
        owner=ada,
        display_name="Ada's bot",
        engine="simple",
        settings={"think_s": THINK_S, "per_char_s": 0, "jitter": 0},
    )
    client = logged_in(ada)
    started = client.post(f"/entrant/entries/{entry.pk}/rehearse/", {"judge": "bot"})
    rehearsal = Interrogation.objects.get(rehearsal=True)
    assert started["Location"] == f"/entrant/rehearsals/{rehearsal.public_id}/"
    assert rehearsal.status == Status.RUNNING and rehearsal.judge.username == BOT_JUDGE  # at once, no organiser

    wait_for(lambda: Interrogation.objects.get(pk=rehearsal.pk).status == Status.ENDED, timeout=30)
    messages = list(Message.objects.filter(conversation__interrogation=rehearsal).order_by("seq"))
    assert [m.sender_role for m in messages] == ["interrogator", "witness"] * len(QUESTIONS)
    assert [m.text for m in messages[::2]] == list(QUESTIONS)
    assert {m.text for m in messages[1::2]} == {"Hmmm...That's an interesting question."}
    for question, answer in zip(messages[::2], messages[1::2]):  # the entry's own typing delay, as in a contest
        assert (answer.created_at - question.created_at).total_seconds() >= THINK_S - 0.01
    assert EngineCall.objects.filter(entry=entry, kind="reply", outcome="ok").count() == len(QUESTIONS)  # the gateway
    assert Interrogation.objects.get(pk=rehearsal.pk).end_reason == "rehearsal done"

    page = client.get(f"/entrant/rehearsals/{rehearsal.public_id}/").content.decode()
    assert QUESTIONS[2] in page and "interesting question" in page
    assert "data-refresh=" not in page  # an ended rehearsal stops reloading itself
    assert str(rehearsal.public_id) not in Client().get("/transcripts/").content.decode()
    with pytest.raises(Closed):
        services.interrogation_publish(interrogation_id=rehearsal.pk)


def test_the_entrant_judges_their_own_rehearsal_and_it_stays_out_of_results(cast, ada):
    entry = Entry.objects.create(owner=ada, display_name="Ada's bot", engine="simple", settings={"think_s": 0})
    client = logged_in(ada)
    started = client.post(f"/entrant/entries/{entry.pk}/rehearse/", {"judge": "self"})
    rehearsal = Interrogation.objects.get(rehearsal=True)
    assert started["Location"] == f"/judge/{rehearsal.public_id}/"
    assert rehearsal.judge == ada and rehearsal.status == Status.RUNNING
    assert client.get(started["Location"]).status_code == 200  # the ordinary judge console

    services.interrogation_end(interrogation_id=rehearsal.pk, reason="judge", by=ada)
    services.verdict_submit(interrogation_id=rehearsal.pk, judge=ada, choice="machine", confidence=90)
    from arena.results.sources import ResultsQuery, results_collect

    collected = results_collect(ResultsQuery())
    assert collected.outcomes == [] and collected.battles == []  # no pass rate, no rating, no judge accuracy


def test_one_rehearsal_at_a_time_and_only_the_owner_rehearses(cast, ada):
    bob = make_user("bob", roles.ENTRANT)
    entry = Entry.objects.create(owner=ada, display_name="Ada's bot", engine="pull")
    api = APIClient(HTTP_AUTHORIZATION=f"Token {apikey_create(user=ada, name='k').key}")
    first = api.post(f"/api/v1/entries/{entry.pk}/rehearse/", {"judge": "self"}, format="json")
    assert first.status_code == 201 and first.json()["page"].endswith(f"/judge/{first.json()['interrogation']}/")
    again = api.post(f"/api/v1/entries/{entry.pk}/rehearse/", {"judge": "bot"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "rehearsal_running"
    bad = api.post(f"/api/v1/entries/{entry.pk}/rehearse/", {"judge": "robot"}, format="json")
    assert bad.status_code == 400 and "judge" in bad.json()["fields"]

    assert logged_in(bob).post(f"/entrant/entries/{entry.pk}/rehearse/").status_code == 404
    bob_api = APIClient(HTTP_AUTHORIZATION=f"Token {apikey_create(user=bob, name='k').key}")
    assert bob_api.post(f"/api/v1/entries/{entry.pk}/rehearse/", {}, format="json").status_code == 404
    rehearsal = Interrogation.objects.get(rehearsal=True)
    assert logged_in(bob).get(f"/entrant/rehearsals/{rehearsal.public_id}/").status_code == 404
    assert logged_in(cast.olivia).get(f"/entrant/rehearsals/{rehearsal.public_id}/").status_code == 200
    assert Interrogation.objects.filter(rehearsal=True).count() == 1


def test_the_sweep_wakes_a_test_judge_whose_next_look_a_restart_lost(cast, ada, settings, monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    from arena import tasks
    from arena.services.rehearsals import rehearsal_start

    woken = []
    monkeypatch.setattr("core.dispatch.enqueue_now", lambda task, *args, **kw: woken.append((task.name, args)))
    entry = Entry.objects.create(owner=ada, display_name="Ada's bot", engine="pull")
    rehearsal = rehearsal_start(entry=entry, user=ada, judge="bot")  # its first look was never run
    assert services.interrogations_sweep() == 0 and woken == []  # too recent: its timer may yet fire
    Interrogation.objects.filter(pk=rehearsal.pk).update(started_at=timezone.now() - timedelta(seconds=60))
    services.interrogations_sweep()
    assert woken == [(tasks.rehearsal_judge.name, (rehearsal.pk,))]
    conversation = rehearsal.conversations.get()
    services.message_post(
        conversation_id=conversation.pk, sender_role=Message.Role.INTERROGATOR, text=QUESTIONS[0], user=rehearsal.judge
    )
    Message.objects.filter(conversation=conversation).update(created_at=timezone.now() - timedelta(seconds=60))
    woken.clear()
    services.interrogations_sweep()
    assert woken == []  # the entry's turn: nothing for the judge to do
