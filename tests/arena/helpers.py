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


def decided(cast, *, witnesses, judged_human=None, judge=None, confidence=80):
    """An interrogation of `witnesses` (one or two Entry objects or confederates) run to its verdict:
    three-party, the judge picks the side of `judged_human`; one-to-one, the verdict is "human" when
    `judged_human` is the sole witness, else "machine".  Returns the Verdict."""
    judge = judge or cast.jude
    interrogation = services.interrogation_create(judge=judge, witnesses=list(witnesses), title="decided")
    services.interrogation_start(interrogation_id=interrogation.pk)
    services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
    conversations = list(Conversation.objects.filter(interrogation=interrogation).select_related("witness_entry", "witness_human"))
    def is_picked(c):
        return judged_human is not None and (c.witness_entry == judged_human if c.witness_entry_id else c.witness_human == judged_human)
    if len(conversations) == 2:
        choice = next(c.side for c in conversations if is_picked(c))
    else:
        choice = "human" if is_picked(conversations[0]) else "machine"
    return services.verdict_submit(interrogation_id=interrogation.pk, judge=judge, choice=choice, confidence=confidence)
