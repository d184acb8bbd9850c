import threading
import time

from django.core.management import call_command

from arena import services
from arena.models import Conversation


def three_party(
    cast, *, machine=None, confederate=None, judge=None, time_limit_s=300, start=True, keystroke_mode=False
):
    interrogation = services.interrogation_create(
        judge=judge or cast.jude,
        witnesses=[confederate or cast.connie, machine or cast.simple],
        time_limit_s=time_limit_s,
        title="test",
        keystroke_mode=keystroke_mode,
    )
    if start:
        services.interrogation_start(interrogation_id=interrogation.pk)
    interrogation.refresh_from_db()
    return interrogation


def sides(interrogation):
    """(human conversation, machine conversation)."""
    conversations = list(Conversation.objects.filter(interrogation=interrogation))
    human = next(c for c in conversations if c.witness_human_id)
    machine = next(c for c in conversations if c.witness_entry_id)
    return human, machine


def wait_for(predicate, timeout=10.0, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout} s")


def finished_chat(cast):
    interrogation = three_party(cast)
    human, machine = sides(interrogation)
    for i in range(3):
        services.message_post(
            conversation_id=human.pk, sender_role="interrogator", text=f"question {i}", user=cast.jude
        )
        services.message_post(conversation_id=human.pk, sender_role="witness", text=f"answer {i}", user=cast.connie)
    services.message_post(conversation_id=machine.pk, sender_role="interrogator", text="<b>bold?</b>", user=cast.jude)
    services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
    services.verdict_submit(
        interrogation_id=interrogation.pk, judge=cast.jude, choice=human.side, confidence=77, reason="r"
    )
    return interrogation, human, machine


def verify(what, capsys):
    """verify_transcript on a conversation (its id) or any reference the command takes; (exit code, output)."""
    try:
        call_command("verify_transcript", str(getattr(what, "pk", what)))
        code = 0
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out + out.err


def in_thread(work) -> tuple[threading.Thread, list]:
    """Start `work()` on a thread of its own (its own database connection, closed after); the thread and
    the list of what it raised."""
    from django.db import connection

    errors = []

    def run():
        try:
            work()
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, errors


def decided(cast, *, witnesses, judged_human=None, judge=None, confidence=80):
    """An interrogation of `witnesses` (one or two Entry objects or confederates) run to its verdict:
    three-party, the judge picks the side of `judged_human`; one-to-one, the verdict is "human" when
    `judged_human` is the sole witness, else "machine".  Returns the Verdict."""
    judge = judge or cast.jude
    interrogation = services.interrogation_create(judge=judge, witnesses=list(witnesses), title="decided")
    services.interrogation_start(interrogation_id=interrogation.pk)
    services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
    conversations = list(
        Conversation.objects.filter(interrogation=interrogation).select_related("witness_entry", "witness_human")
    )

    def is_picked(c):
        return judged_human is not None and (
            c.witness_entry == judged_human if c.witness_entry_id else c.witness_human == judged_human
        )

    if len(conversations) == 2:
        choice = next(c.side for c in conversations if is_picked(c))
    else:
        choice = "human" if is_picked(conversations[0]) else "machine"
    return services.verdict_submit(interrogation_id=interrogation.pk, judge=judge, choice=choice, confidence=confidence)
