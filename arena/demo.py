"""Demo data for a first look: idempotent, so `make run` can seed on every start."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from arena import roles, services
from arena.models import Entry, Interrogation, Status
from arena.setup import ensure_role_groups

DEMO_PEOPLE = [
    # username, password, roles, staff/superuser
    ("organiser", "organiser-demo", [roles.ORGANISER], True),
    ("judge1", "judge1-demo", [roles.JUDGE], False),
    ("judge2", "judge2-demo", [roles.JUDGE], False),
    ("confederate1", "confederate1-demo", [roles.CONFEDERATE], False),
    ("confederate2", "confederate2-demo", [roles.CONFEDERATE], False),
    ("entrant", "entrant-demo", [roles.ENTRANT], False),
]
# The demo entrant's API key (stored hashed, like every key; printed by seed_demo) and pull-mode entry,
# which examples/pull_client.py answers for.
DEMO_API_KEY = "arena_demo-entrant-key-for-local-use-only"
DEMO_PULL_ENTRY = "Demo Pull Entry"
DEMO_ENTRIES = [
    ("Simple Bot", "simple", {}),
    ("ELIZA", "eliza", {}),
]


@transaction.atomic
def demo_seed(*, time_limit_s: int = 300) -> list[tuple[str, str, str]]:
    """Create what is missing; returns (username, password, roles) for the logins."""
    ensure_role_groups()
    User = get_user_model()
    people = {}
    for username, password, role_names, is_admin in DEMO_PEOPLE:
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_password(password)
            user.is_staff = user.is_superuser = is_admin
            user.save()
        user.groups.add(*Group.objects.filter(name__in=role_names))
        people[username] = user
    entries = {}
    for name, engine, settings in DEMO_ENTRIES:
        entry, _ = Entry.objects.get_or_create(display_name=name, defaults={"engine": engine, "settings": settings})
        entries[engine] = entry
    pairs = [("judge1", "confederate1", "eliza"), ("judge2", "confederate2", "simple")]
    for judge, confederate, engine in pairs:
        if not Interrogation.objects.filter(judge=people[judge], status=Status.SCHEDULED).exists():
            services.interrogation_create(
                judge=people[judge],
                witnesses=[people[confederate], entries[engine]],
                time_limit_s=time_limit_s,
                title=f"Three-party test: {judge}",
            )
    demo_history_seed(people=people, entries=entries)
    demo_entrant_seed(entrant=people["entrant"])
    return [(u, p, ", ".join(r)) for u, p, r, _ in DEMO_PEOPLE]


HISTORY_TITLE = "Demo history"
# (judge, confederate, engine, who the judge took for the human, confidence): some judges are fooled
HISTORY = [
    ("judge1", "confederate1", "eliza", "confederate1", 80),
    ("judge2", "confederate2", "simple", "confederate2", 95),
    ("judge1", "confederate2", "eliza", "eliza", 55),
    ("judge2", "confederate1", "eliza", "confederate1", 70),
    ("judge1", "confederate1", "simple", "confederate1", 90),
    ("judge2", "confederate2", "eliza", "eliza", 60),
]
QUESTIONS = ["Hi! Where are you writing from today?", "What did you have for breakfast?"]
ANSWERS = ["Hello! From my kitchen table, with a cold coffee.", "Toast and jam, as every morning."]


def demo_history_seed(*, people: dict, entries: dict) -> None:
    """Six ended, judged and published three-party interrogations (the machines' answers are their
    engines' own, through the gateway), so that /transcripts/ and /results/ have something to show."""
    from arena.models import Message
    from arena.services.engines import engine_ask, reply_context_build

    if Interrogation.objects.filter(title__startswith=HISTORY_TITLE).exists():
        return
    for number, (judge, confederate, engine, picked, confidence) in enumerate(HISTORY, start=1):
        interrogation = services.interrogation_create(
            judge=people[judge],
            witnesses=[people[confederate], entries[engine]],
            time_limit_s=300,
            title=f"{HISTORY_TITLE} {number}: {judge}",
        )
        services.interrogation_start(interrogation_id=interrogation.pk, by=None)
        for conversation in interrogation.conversations.select_related("witness_entry"):
            history = []
            for question, answer in zip(QUESTIONS, ANSWERS):
                services.message_post(
                    conversation_id=conversation.pk,
                    sender_role=Message.Role.INTERROGATOR,
                    text=question,
                    user=people[judge],
                )
                if conversation.witness_entry_id:
                    context = reply_context_build(key=str(conversation.public_id), history=history, message=question)
                    answer = engine_ask(entry=conversation.witness_entry, context=context).text or "Sorry?"
                services.message_post(
                    conversation_id=conversation.pk,
                    sender_role=Message.Role.WITNESS,
                    text=answer,
                    user=None if conversation.witness_entry_id else people[confederate],
                )
                history += [("interrogator", question), ("witness", answer)]
        services.interrogation_end(interrogation_id=interrogation.pk, reason="judge", by=people[judge])
        sides = {
            c.witness_entry.engine if c.witness_entry_id else c.witness_human.username: c.side
            for c in interrogation.conversations.select_related("witness_entry", "witness_human")
        }
        services.verdict_submit(
            interrogation_id=interrogation.pk,
            judge=people[judge],
            choice=sides[picked],
            confidence=confidence,
            reason="demo",
        )
        services.interrogation_publish(interrogation_id=interrogation.pk)


def demo_entrant_seed(*, entrant) -> None:
    """The demo entrant's API key (DEMO_API_KEY) and pull-mode entry."""
    from arena.models import ApiKey
    from arena.services.apikeys import apikey_create, key_digest

    if not ApiKey.objects.filter(key_hash=key_digest(DEMO_API_KEY)).exists():  # a revoked demo key stays revoked
        apikey_create(user=entrant, name=f"demo {ApiKey.objects.filter(user=entrant).count() + 1}", key=DEMO_API_KEY)
    Entry.objects.get_or_create(
        display_name=DEMO_PULL_ENTRY, defaults={"owner": entrant, "engine": "pull", "settings": {}}
    )
