"""The one engine gateway (arena.services.engines): the only door to the bots registry, the guarded
reply path's task helpers, and the learner's corpus and harvest without signals."""

import pathlib
import re
from types import SimpleNamespace

import pytest

from arena import services
from arena.models import EngineCall, Entry, LearnedPair
from arena.services import engines

from ..conftest import FAST
from .helpers import sides, three_party

ROOT = pathlib.Path(__file__).resolve().parents[2]
# lpp reaches the engines through arena.services.engines.engine_standalone_reply
APPS = ("core", "arena", "markets", "lambdastar", "tournaments", "studies", "tables", "lpp")


def test_only_the_gateway_imports_the_bots_registry():
    importers = sorted(
        str(path.relative_to(ROOT))
        for app in APPS
        if (ROOT / app).is_dir()
        for path in (ROOT / app).rglob("*.py")
        if re.search(
            r"^\s*(from\s+bots\.registry\s+import|from\s+bots\s+import\s+.*\bregistry\b|import\s+bots\.registry)",
            path.read_text(encoding="utf-8"),
            re.M,
        )
    )
    assert importers == ["arena/services/engines.py"]


def test_the_learner_has_no_global_corpus_and_arena_connects_no_signal():
    from django.db.models.signals import post_save

    from arena.models import Interrogation
    from bots.engines import learner

    assert not hasattr(learner, "set_corpus_provider") and not hasattr(learner, "_provider")
    sync_receivers, async_receivers = post_save._live_receivers(Interrogation)
    assert not [r for r in (*sync_receivers, *async_receivers) if r.__module__.startswith("arena")]


def test_registry_helpers_for_forms_and_validation():
    names = [name for name, _ in engines.engine_choices_list()]
    assert {"simple", "eliza", "learner", "webhook"} <= set(names)
    assert (
        engines.engine_secret_keys(engine="webhook") == ("secret",) and engines.engine_secret_keys(engine="nope") == ()
    )
    assert engines.engine_settings_validate(engine="simple", settings={})["think_s"] >= 0
    with pytest.raises(KeyError):
        engines.engine_settings_validate(engine="nope", settings={})
    with pytest.raises(ValueError):
        engines.engine_settings_validate(engine="webhook", settings={"url": "ftp://x"})


def test_heavy_engines_pick_the_bots_queue(settings):
    settings.ARENA_BOTS_QUEUE = "bots"
    assert [engines.reply_queue_pick(engine=e) for e in ("aiml", "learner", "eliza", None)] == ["bots", "bots", "", ""]
    settings.ARENA_BOTS_QUEUE = ""
    assert engines.reply_queue_pick(engine="aiml") == ""


class FakeTask:
    """A bound Celery task's surface as reply_task_run uses it."""

    class Retry(Exception):
        pass

    def __init__(self, *, eager, routing_key="celery", retries=0):
        self.request = SimpleNamespace(is_eager=eager, retries=retries, delivery_info={"routing_key": routing_key})
        self.sent, self.retried = [], []

    def apply_async(self, *, args, queue):
        self.sent.append((args, queue))

    def retry(self, *, countdown):
        self.retried.append(countdown)
        return self.Retry()


def test_a_reply_task_hops_to_the_heavy_queue_once():
    task = FakeTask(eager=False, routing_key="celery", retries=1)
    composed = []
    assert (
        engines.reply_task_run(
            task=task, args=(7, 3), attempt=0, queue="bots", compose=lambda **kw: composed.append(kw)
        )
        is False
    )
    assert task.sent == [((7, 3, 1), "bots")] and composed == []  # carries the attempt number over
    there = FakeTask(eager=False, routing_key="bots")
    engines.reply_task_run(
        task=there, args=(7, 3), attempt=0, queue="bots", compose=lambda **kw: composed.append(kw) or True
    )
    assert there.sent == [] and composed[0]["attempt"] == 0


def test_a_reply_task_retries_through_celery_on_a_worker_and_a_timer_in_process(monkeypatch):
    worker = FakeTask(eager=False)
    with pytest.raises(FakeTask.Retry):
        engines.reply_task_run(
            task=worker, args=(1, 2), attempt=0, queue="", compose=lambda *, attempt, retry: retry(1.5)
        )
    assert worker.retried == [1.5]
    queued = []
    monkeypatch.setattr(engines, "enqueue_now", lambda task, *args, countdown=0: queued.append((task, args, countdown)))
    embedded = FakeTask(eager=True)
    engines.reply_task_run(
        task=embedded, args=(1, 2), attempt=1, queue="bots", compose=lambda *, attempt, retry: retry(0.5)
    )
    assert queued == [(embedded, (1, 2, 2), 0.5)] and embedded.sent == []


def test_witness_calls_say_what_they_were_for(cast, flaky, monkeypatch):
    monkeypatch.setattr("arena.services.witnesses.enqueue_now", lambda task, *args, countdown=0: None)
    machine = sides(three_party(cast, machine=flaky))[1]
    services.message_post(conversation_id=machine.pk, sender_role="interrogator", text="hi", user=cast.jude)
    assert services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=1) is True
    call = EngineCall.objects.get()
    assert (call.subject, call.conversation_id, call.trigger_seq) == (
        f"conversation {machine.pk} message 1",
        machine.pk,
        1,
    )


# --- the learner: harvested when the service ends an interrogation, read through the gateway ------


@pytest.fixture
def run_tasks_now(monkeypatch):
    """Tasks enqueued on commit run at once, in this thread (no timers)."""
    ran = []

    def run(task, *args, countdown=0):
        ran.append(task.name)
        task.apply(args=args, throw=True)

    monkeypatch.setattr("core.dispatch.enqueue_now", run)
    return ran


def chat(cast, interrogation, lines):
    human, _ = sides(interrogation)
    for role, text in lines:
        user = cast.jude if role == "interrogator" else cast.connie
        services.message_post(conversation_id=human.pk, sender_role=role, text=text, user=user)


def test_ending_an_interrogation_harvests_it_through_the_service(
    cast, run_tasks_now, django_capture_on_commit_callbacks
):
    from arena.learning import learner_consent_give

    learner_consent_give(user=cast.jude)
    learner_consent_give(user=cast.connie)
    interrogation = three_party(cast)
    chat(cast, interrogation, [("interrogator", "what is your favourite colour?"), ("witness", "teal, since school")])
    with django_capture_on_commit_callbacks(execute=True):
        services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
    assert "arena.tasks.learner_harvest" in run_tasks_now
    assert list(LearnedPair.objects.values_list("prompt", "reply")) == [
        ("what is your favourite colour?", "teal, since school")
    ]

    # the learner entry answers from that corpus, through the gateway, in a later interrogation
    learner = Entry.objects.create(display_name="Learner", engine="learner", settings={**FAST, "fallback": "stock"})
    _, machine = sides(three_party(cast, machine=learner))
    services.message_post(
        conversation_id=machine.pk, sender_role="interrogator", text="What's your favourite colour?", user=cast.jude
    )
    delivered = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("arena.services.witnesses.enqueue_now", lambda task, *args, countdown=0: delivered.append(args))
        assert services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=1) is True
    assert delivered[0][2] == "teal, since school"
    assert EngineCall.objects.get(entry=learner).detail.startswith("learner pair")


def test_closing_by_time_and_the_sweep_harvest_too(cast, run_tasks_now, django_capture_on_commit_callbacks):
    import datetime as dt

    from django.utils import timezone

    from arena.learning import learner_consent_give
    from arena.models import Interrogation

    learner_consent_give(user=cast.connie)
    due, swept = three_party(cast), three_party(cast)
    Interrogation.objects.filter(pk__in=[due.pk, swept.pk]).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.interrogation_close_if_due(interrogation_id=due.pk) is True
    assert run_tasks_now.count("arena.tasks.learner_harvest") == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert services.interrogations_sweep() == 1
    assert run_tasks_now.count("arena.tasks.learner_harvest") == 2


def test_no_harvest_is_enqueued_without_any_consent_or_for_an_aborted_interrogation(
    cast, run_tasks_now, django_capture_on_commit_callbacks
):
    from arena.learning import learner_consent_give

    with django_capture_on_commit_callbacks(execute=True):
        services.interrogation_end(interrogation_id=three_party(cast).pk, reason="judge")
    learner_consent_give(user=cast.connie)
    with django_capture_on_commit_callbacks(execute=True):
        services.interrogation_end(interrogation_id=three_party(cast, start=False).pk, reason="organiser")
    assert "arena.tasks.learner_harvest" not in run_tasks_now
