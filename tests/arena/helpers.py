import time

from arena import services
from arena.models import Conversation


def three_party(cast, *, machine=None, confederate=None, judge=None, time_limit_s=300, start=True, keystroke_mode=False):
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
