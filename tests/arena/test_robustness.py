"""The reply path survives failing engines: retries, circuit breaker, call log, bad replies, admin."""

import pytest

from arena import services
from arena.models import EngineCall, Entry, EntryHealth, Message
from arena.services.engines import entry_probe
from bots.base import EngineError

from ..conftest import FAST
from .flaky import SCRIPT
from .helpers import sides, three_party, wait_for


@pytest.fixture
def delivered(monkeypatch):
    """Direct compose calls: capture deliveries instead of scheduling them."""
    sent = []
    monkeypatch.setattr("arena.services.witnesses.enqueue_now", lambda task, *args, countdown=0: sent.append(args))
    return sent


def ask(cast, entry, text="hello?"):
    interrogation = three_party(cast, machine=entry)
    _, machine = sides(interrogation)
    services.message_post(conversation_id=machine.pk, sender_role="interrogator", text=text, user=cast.jude)
    return machine


def test_a_transient_failure_is_retried_by_the_task_and_the_judge_gets_the_reply(cast, flaky, task_worker):
    SCRIPT.extend([EngineError("remote 503", transient=True), "sorry, I was away"])
    machine = ask(cast, flaky)
    reply = wait_for(lambda: machine.messages.filter(sender_role=Message.Role.WITNESS).first(), timeout=15)
    assert reply.text == "sorry, I was away"
    calls = list(EngineCall.objects.filter(entry=flaky).order_by("pk").values_list("attempt", "outcome"))
    assert calls == [(0, "error"), (1, "ok")]


def test_a_permanent_failure_is_not_retried_and_never_reaches_the_judge(cast, flaky, delivered):
    SCRIPT.append(EngineError("bad configuration", transient=False))
    machine = ask(cast, flaky)
    retries = []
    assert services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=1, retry=retries.append) is False
    assert retries == [] and delivered == []
    call = EngineCall.objects.get(entry=flaky)
    assert (call.outcome, call.error, call.conversation_id) == ("error", "bad configuration", machine.pk)
    assert not machine.messages.filter(sender_role="witness").exists()


def test_retries_back_off_and_stop(cast, flaky, delivered):
    machine = ask(cast, flaky)
    countdowns = []
    for attempt in range(3):
        SCRIPT.append(EngineError("webhook timed out", transient=True))
        services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=1, attempt=attempt, retry=countdowns.append)
    assert len(countdowns) == 2 and countdowns[1] > countdowns[0]  # 2 retries, exponential
    assert set(EngineCall.objects.values_list("outcome", flat=True)) == {"timeout"}


def test_an_engine_bug_is_contained(cast, flaky, delivered):
    SCRIPT.append(ZeroDivisionError("oops"))
    machine = ask(cast, flaky)
    assert services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=1) is False
    assert EngineCall.objects.get().error == "ZeroDivisionError: oops"


def test_circuit_breaker_opens_then_half_opens(cast, flaky, delivered):
    import time

    machine = ask(cast, flaky)
    for _ in range(3):
        SCRIPT.append(EngineError("down", transient=False))
        services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=1)
    health = EntryHealth.objects.get(entry=flaky)
    assert not health.healthy and health.last_error == "error: down" and health.consecutive_failures == 3
    SCRIPT.append("should not be asked")
    assert services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=1) is False
    assert EngineCall.objects.filter(outcome="skipped").count() == 1 and SCRIPT == ["should not be asked"]
    time.sleep(0.35)  # cool-down over: one trial call goes through and closes the breaker
    assert services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=1) is True
    assert EntryHealth.objects.get(entry=flaky).healthy and delivered


@pytest.mark.parametrize(
    "raw, expected, outcome",
    [
        ("<script>alert(1)</script><b>hi</b> there", "hi there", "ok"),
        ("x" * 5000, "x" * 1000, "ok"),
        ("   ", None, "error"),
        (12345, None, "error"),
        (None, None, "error"),
    ],
)
def test_bad_replies_go_through_one_rule_set(cast, flaky, delivered, raw, expected, outcome):
    SCRIPT.append(raw)
    machine = ask(cast, flaky)
    services.bot_reply_compose(conversation_id=machine.pk, trigger_seq=1)
    call = EngineCall.objects.get()
    assert call.outcome == outcome
    if expected is None:
        assert delivered == []
    else:
        assert delivered[0][2] == expected and "reply cleaned" in call.detail


def test_probe_reports_latency_and_outcome_without_a_conversation(cast, flaky):
    assert entry_probe(entry_id=flaky.pk)["outcome"] == "ok"
    SCRIPT.append(EngineError("webhook timed out", transient=True))
    report = entry_probe(entry_id=flaky.pk)
    assert report["outcome"] == "timeout" and report["latency_ms"] >= 0 and report["reply"] == ""
    assert EngineCall.objects.filter(kind="probe", conversation=None).count() == 2


def test_admin_shows_health_calls_and_probes(cast, flaky, client):
    SCRIPT.extend([EngineError("down", transient=False)] * 3)
    for _ in range(3):
        entry_probe(entry_id=flaky.pk)
    client.force_login(cast.olivia)
    page = client.get("/admin/arena/entry/").content.decode()
    assert "unhealthy" in page and "error: down" in page
    assert client.get("/admin/arena/enginecall/").status_code == 200
    assert "error: down" in client.get(f"/admin/arena/entry/{flaky.pk}/change/").content.decode()
    response = client.post("/admin/arena/entry/", {"action": "probe", "_selected_action": [flaky.pk]}, follow=True)
    assert "Flaky: ok" in response.content.decode()
    assert EntryHealth.objects.get(entry=flaky).healthy


def test_secret_settings_are_masked_in_the_admin_and_kept(cast, client):
    entry = Entry.objects.create(
        display_name="GPT",
        engine="llm",
        settings={"base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key": "sk-very-secret-key"},
    )
    client.force_login(cast.olivia)
    page = client.get(f"/admin/arena/entry/{entry.pk}/change/").content.decode()
    assert "sk-very-secret-key" not in page and "********" in page
    import json
    import re

    shown = re.search(r'<textarea name="settings"[^>]*>(.*?)</textarea>', page, re.S).group(1)
    settings = json.loads(shown.replace("&quot;", '"'))
    settings["temperature"] = 0.5
    response = client.post(
        f"/admin/arena/entry/{entry.pk}/change/",
        {
            "display_name": "GPT",
            "engine": "llm",
            "settings": json.dumps(settings),
            "active": "on",
            "calls-TOTAL_FORMS": 0,
            "calls-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    entry.refresh_from_db()
    assert entry.settings["api_key"] == "sk-very-secret-key" and entry.settings["temperature"] == 0.5


def test_keystroke_mode_machine_types_its_reply_key_by_key(cast, task_worker):
    from arena.models import Keystroke
    from arena.services.keystrokes import composing_line
    from bots.engines.simple import SIMPLE_REPLY

    cast.simple.settings = {**FAST, "per_char_s": 0.01}  # 38 characters: two batches of keys
    cast.simple.save()
    interrogation = three_party(cast, keystroke_mode=True)
    _, machine = sides(interrogation)
    services.message_post(conversation_id=machine.pk, sender_role="interrogator", text="hi", user=cast.jude)
    reply = wait_for(lambda: machine.messages.filter(sender_role="witness").first(), timeout=15)
    assert reply.text == SIMPLE_REPLY
    keys = list(
        Keystroke.objects.filter(conversation=machine, sender_role="witness")
        .order_by("seq")
        .values_list("key", flat=True)
    )
    assert "".join(keys[:-1]) == SIMPLE_REPLY and keys[-1] == "Return"
    assert composing_line(machine, "witness") == ""


def test_heavy_engines_are_answered_on_the_bots_queue(cast, services_mode, settings, transactional_db):
    if not services_mode:
        pytest.skip("queues exist only with a broker (services mode)")
    import celery.contrib.testing.tasks  # noqa: F401  registers celery.ping for the ping check
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_prerun

    from config.celery_app import app

    settings.ARENA_BOTS_QUEUE = "bots"
    learner = Entry.objects.create(display_name="Learner", engine="learner", settings={**FAST, "fallback": "stock"})
    seen = []

    def record(task=None, **kwargs):
        seen.append((task.name, (task.request.delivery_info or {}).get("routing_key")))

    task_prerun.connect(record, weak=False)
    app.control.purge()
    try:
        with start_worker(app, pool="solo", perform_ping_check=True, shutdown_timeout=10, queues=["celery", "bots"]):
            for entry in (learner, cast.eliza):
                machine = ask(cast, entry)
                wait_for(lambda machine=machine: machine.messages.filter(sender_role="witness").exists(), timeout=15)
    finally:
        task_prerun.disconnect(record)
    replies = [queue for name, queue in seen if name == "arena.tasks.bot_reply"]
    assert replies == ["celery", "bots", "celery"]  # learner: hopped to "bots"; eliza: stayed


def test_entry_add_page_loads(cast, client):
    client.force_login(cast.olivia)
    assert client.get("/admin/arena/entry/add/").status_code == 200
