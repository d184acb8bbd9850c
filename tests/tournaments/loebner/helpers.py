"""Builders shared by the Loebner tests."""
import datetime as dt

from django.utils import timezone

from arena import roles
from arena.models import Entry
from tests.conftest import FAST, make_user


def contest_make(name="Test Prize", *, fmt="2009-rules", status="open", **fields):
    from tournaments.loebner.models import Contest

    return Contest.objects.create(name=name, format_name=fmt, status=status, **fields)


def entrant_make(username):
    return make_user(username, roles.ENTRANT)


def entry_make(owner, name, engine="simple", settings=None):
    return Entry.objects.create(owner=owner, display_name=name, engine=engine, settings=settings or dict(FAST))


def entered(contest, owner, name, *, people=None, compliant=True, minutes=0, **statements):
    """An entry entered at ``contest_day``-independent receipt times (``minutes`` after a fixed start)."""
    from tournaments.loebner import services

    entry = entry_make(owner, name)
    statements.setdefault("rights_statement", True)
    item = services.contest_enter(contest_id=contest.pk, entry_id=entry.pk, entrant=owner, people=people or [name + " author"],
                                  now=timezone.now() - dt.timedelta(hours=1) + dt.timedelta(minutes=minutes), **statements)
    if compliant is not None and item.statements_ok:
        services.entry_check(contest_entry_id=item.pk, compliant=compliant)
    return item
