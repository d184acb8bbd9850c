"""Entering a contest, the compliance of entries, and closing: who goes to qualifying, roll-over."""

from django.db import transaction
from django.utils import timezone

from arena.models import Entry
from core.errors import Closed, Conflict, InvalidInput, NotAllowed
from tournaments.loebner.models import Contest, ContestEntry
from tournaments.loebner.selectors import contest_close_warning, entries_compliant

MAX_PEOPLE = 20
MAX_NAME_CHARS = 100


def _people_clean(people) -> list[str]:
    if not isinstance(people, list) or not people:
        raise InvalidInput("people must be a non-empty list of the names of everyone affiliated with the entry.")
    if len(people) > MAX_PEOPLE:
        raise InvalidInput(f"people: at most {MAX_PEOPLE} names.")
    cleaned = []
    for i, name in enumerate(people):
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_CHARS:
            raise InvalidInput(f"people[{i}] must be a name of 1 to {MAX_NAME_CHARS} characters.")
        if any(ord(ch) < 32 for ch in name):
            raise InvalidInput(f"people[{i}] contains control characters.")
        cleaned.append(" ".join(name.split()))
    if len({n.casefold() for n in cleaned}) != len(cleaned):
        raise InvalidInput("people: a name is listed twice.")
    return cleaned


def _affiliated_elsewhere(contest: Contest, people: list[str], *, exclude_pk=None) -> list[str]:
    """Names already affiliated with another entry of the contest ("No person may be affiliated with
    more than one entry")."""
    wanted = {n.casefold() for n in people}
    taken = set()
    for other in ContestEntry.objects.filter(contest=contest).exclude(pk=exclude_pk).only("people"):
        taken |= {n.casefold() for n in other.people if isinstance(n, str)}
    return sorted(n for n in people if n.casefold() in taken & wanted)


def contest_open(*, contest_id: int) -> Contest:
    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status != Contest.Status.DRAFT:
            raise Closed(f"The contest is {contest.get_status_display()}, not a draft.")
        contest.status = Contest.Status.OPEN
        contest.save(update_fields=["status"])
    return contest


def contest_enter(
    *,
    contest_id: int,
    entry_id: int,
    entrant,
    people,
    rights_statement,
    under_18=False,
    guardian_permission=False,
    now=None,
) -> ContestEntry:
    """An entrant enters one of their own entries; the receipt time is the server's clock. The
    statements are stored as given: an entry without them is received but cannot be compliant."""
    now = now or timezone.now()
    for name, value in (
        ("rights_statement", rights_statement),
        ("under_18", under_18),
        ("guardian_permission", guardian_permission),
    ):
        if not isinstance(value, bool):
            raise InvalidInput(f"{name} must be true or false.")
    people = _people_clean(people)
    with transaction.atomic():
        contest = Contest.objects.select_for_update().filter(pk=contest_id).first()
        if contest is None:
            raise NotAllowed("No such contest.")
        if contest.status != Contest.Status.OPEN:
            raise Closed("The contest is not open for entries.")
        if contest.opens_at and now < contest.opens_at:
            raise Closed("The contest is not open for entries yet.")
        if contest.closes_at and now > contest.closes_at:
            raise Closed("The closing date for entries has passed.")
        entry = Entry.objects.filter(pk=entry_id, owner=entrant).first()
        if entry is None:
            raise NotAllowed("No such entry of yours.")
        if ContestEntry.objects.filter(contest=contest, entry=entry).exists():
            raise Conflict("This entry is already entered in the contest.")
        clash = _affiliated_elsewhere(contest, people)
        if clash:
            raise InvalidInput(f"Already affiliated with another entry of this contest: {', '.join(clash)}.")
        return ContestEntry.objects.create(
            contest=contest,
            entry=entry,
            entrant=entrant,
            received_at=now,
            people=people,
            rights_statement=rights_statement,
            under_18=under_18,
            guardian_permission=guardian_permission,
        )


def entry_compliance_refusal(item: ContestEntry) -> str:
    """Why ``item``, as it stands (saved or only edited in a form), cannot be marked compliant, or "":
    a missing statement, or a person affiliated with another entry of the contest."""
    if not item.statements_ok:
        missing = "the rights statement" if not item.rights_statement else "a guardian's permission (under 18)"
        return f"{item.entry} cannot be compliant without {missing}."
    people = [n for n in item.people if isinstance(n, str)] if isinstance(item.people, list) else []
    if item.contest_id and _affiliated_elsewhere(item.contest, people, exclude_pk=item.pk):
        return f"{item.entry}: a person is affiliated with another entry."
    return ""


def entry_check(*, contest_entry_id: int, compliant: bool, note: str = "") -> ContestEntry:
    """The organiser's compliance check. An entry missing a statement cannot be marked compliant."""
    with transaction.atomic():
        item = ContestEntry.objects.select_for_update().get(pk=contest_entry_id)
        refusal = entry_compliance_refusal(item) if compliant else ""
        if refusal:
            raise InvalidInput(refusal)
        item.compliance = ContestEntry.Check.COMPLIANT if compliant else ContestEntry.Check.REFUSED
        item.compliance_note = note[:500]
        item.save(update_fields=["compliance", "compliance_note"])
    return item


def contest_close(*, contest_id: int, confirm_rollover: bool = False) -> Contest:
    """Close entries: the first ``qualifying_limit`` compliant entries by receipt go to qualifying.

    No compliant entry: the prize rolls over (into ``rolls_into`` when set), which ends the contest, so
    it is refused unless ``confirm_rollover`` says the organiser was told. A single compliant entry
    receives the prize without a contest. Entries still unchecked when closing are not compliant."""
    if not isinstance(confirm_rollover, bool):
        raise InvalidInput("confirm_rollover must be true or false.")
    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status not in (Contest.Status.OPEN, Contest.Status.DRAFT):
            raise Closed(f"The contest is {contest.get_status_display()}: entries are closed already.")
        compliant = entries_compliant(contest=contest)
        if not compliant and not confirm_rollover:
            raise Conflict(
                f"Not closed. {contest_close_warning(contest=contest)} Mark the compliant entries first, or "
                "confirm the roll-over.",
                code="confirm_rollover",
            )
        chosen = compliant[: contest.qualifying_limit]
        ContestEntry.objects.filter(pk__in=[e.pk for e in chosen]).update(qualified=True)
        if not chosen:
            contest.status = Contest.Status.ROLLED_OVER
        elif len(chosen) == 1:
            ContestEntry.objects.filter(pk=chosen[0].pk).update(finalist=True)
            contest.status = Contest.Status.SINGLE
        else:
            contest.status = Contest.Status.QUALIFYING
        contest.save(update_fields=["status"])
    return contest
