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
]
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
    return [(u, p, ", ".join(r)) for u, p, r, _ in DEMO_PEOPLE]
