"""The contest's steps that may be taken back, while nothing has come of them yet: opening for entries (no
entry received) and closing entries (no qualifying question asked). Publishing, picking the finalists,
building the schedule, and a closing that rolled the prize over or gave it to a single entry are never
taken back."""

from django.db import transaction

from core.errors import Closed
from tournaments.loebner.models import Contest, ContestEntry, QualifyingSubject


def contest_unopen(*, contest_id: int) -> Contest:
    """Open for entries → draft again, while no entry has been received."""
    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status != Contest.Status.OPEN:
            raise Closed(f"The contest is {contest.get_status_display()}, not open for entries.")
        received = contest.entries.count()
        if received:
            raise Closed(f"{received} entr{'ies' if received > 1 else 'y'} received: the contest stays open.")
        contest.status = Contest.Status.DRAFT
        contest.save(update_fields=["status"])
    return contest


def contest_reopen(*, contest_id: int) -> Contest:
    """Entries closed → open again, while no qualifying has started (no entry or control asked a question):
    the entries sent to qualifying are no longer marked, and closing again chooses afresh."""
    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status != Contest.Status.QUALIFYING:
            raise Closed(
                f"The contest is {contest.get_status_display()}: only entries closed for qualifying can reopen."
            )
        if QualifyingSubject.objects.filter(contest=contest).exists():
            raise Closed("Qualifying has started (questions were asked): entries stay closed.")
        ContestEntry.objects.filter(contest=contest).update(qualified=False, finalist=False)
        contest.status = Contest.Status.OPEN
        contest.save(update_fields=["status"])
    return contest
