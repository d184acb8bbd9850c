"""The example clients of examples/ answer live interrogations on a running platform (a daphne process)."""

import subprocess
import sys
from pathlib import Path

import pytest

from arena import roles, services
from arena.models import Entry, Interrogation, Message, Status
from arena.services.apikeys import apikey_create
from tests.conftest import FAST, make_user

from .helpers import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def fast_rehearsals(monkeypatch, settings):
    """The scripted judge's pause, for the daphne process (its environment) and a worker in this one."""
    monkeypatch.setenv("ARENA_REHEARSAL_PAUSE_S", "0.05")
    settings.ARENA_REHEARSAL_PAUSE_S = 0.05


def run_example(name, *args, timeout=60):
    return subprocess.Popen(
        [sys.executable, str(EXAMPLES / name), *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def finish(process, timeout=30):
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        raise AssertionError(f"the example did not finish:\n{output}") from None
    assert process.returncode == 0, output
    return output


def test_the_pull_client_answers_a_judge(cast, fast_rehearsals, live_daphne, task_worker):
    ada = make_user("ada", roles.ENTRANT)
    entry = Entry.objects.create(owner=ada, display_name="Ada's pull bot", engine="pull", settings=dict(FAST))
    key = apikey_create(user=ada, name="example").key
    interrogation = services.interrogation_create(judge=cast.jude, witnesses=[entry], title="live")
    services.interrogation_start(interrogation_id=interrogation.pk)
    conversation = interrogation.conversations.get()
    services.message_post(
        conversation_id=conversation.pk,
        sender_role=Message.Role.INTERROGATOR,
        text="What is 17 plus 25?",
        user=cast.jude,
    )

    client = run_example("pull_client.py", "--base", live_daphne, "--token", key, "--wait", "5", "--max-replies", "1")
    output = finish(client)
    assert f"answering for entry {entry.pk}" in output
    reply = wait_for(lambda: conversation.messages.filter(sender_role=Message.Role.WITNESS).first(), timeout=15)
    assert reply.text == "That would be 42, unless I'm very tired."


def test_the_webhook_client_registers_rehearses_and_answers_the_test_judge(
    cast, fast_rehearsals, live_daphne, task_worker
):
    ada = make_user("ada", roles.ENTRANT)
    key = apikey_create(user=ada, name="example").key
    client = run_example(
        "webhook_client.py",
        "--port",
        "0",
        "--secret",
        "a-shared-secret-16+",
        "--base",
        live_daphne,
        "--token",
        key,
        "--register",
        "Ada's webhook bot",
        "--rehearse",
        "--settings",
        '{"think_s": 0, "per_char_s": 0, "jitter": 0}',
    )
    output = finish(client, timeout=60)  # no --max-replies: it stops when the rehearsal ends
    entry = Entry.objects.get(display_name="Ada's webhook bot")
    assert entry.owner == ada and entry.engine == "webhook" and entry.settings["url"].startswith("http://127.0.0.1:")
    rehearsal = Interrogation.objects.get(rehearsal=True)
    assert f"/entrant/rehearsals/{rehearsal.public_id}/" in output
    wait_for(lambda: Interrogation.objects.get(pk=rehearsal.pk).status == Status.ENDED, timeout=20)
    answers = list(Message.objects.filter(conversation__interrogation=rehearsal, sender_role="witness"))
    assert len(answers) == 4 and answers[0].text.startswith("Hmm, hello! who am i talking to today")
    assert "rehearsal ended (rehearsal done): the judge asked 4 question(s), the entry answered 4" in output


def test_the_pull_client_rehearses_to_the_end_and_sums_it_up(cast, fast_rehearsals, live_daphne, task_worker):
    ada = make_user("ada", roles.ENTRANT)
    Entry.objects.create(owner=ada, display_name="Ada's pull bot", engine="pull", settings=dict(FAST))
    key = apikey_create(user=ada, name="example").key
    client = run_example("pull_client.py", "--base", live_daphne, "--token", key, "--wait", "5", "--rehearse")
    output = finish(client, timeout=60)  # no --max-replies: it stops when the rehearsal ends
    rehearsal = Interrogation.objects.get(rehearsal=True)
    assert rehearsal.status == Status.ENDED and rehearsal.end_reason == "rehearsal done"
    assert "rehearsal ended (rehearsal done): the judge asked 4 question(s), the entry answered 4" in output
    assert "this client sent 4 replies, 0 refused" in output and str(rehearsal.public_id) in output
