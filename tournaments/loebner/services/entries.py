"""Entering a contest, the compliance of entries, and closing: who goes to qualifying, roll-over."""

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from arena.models import Entry
from core.errors import Closed, Conflict, InvalidInput, NotAllowed
from tournaments.loebner.models import Contest, ContestEntry, Participant
from tournaments.loebner.selectors import contest_close_no_qualifying, contest_close_warning, entries_compliant

MAX_PEOPLE = 20
MAX_NAME_CHARS = 100
MAX_EMAIL_CHARS = 254
MAX_AFFILIATION_CHARS = 200
PERSON_FIELDS = ("name", "email", "affiliation")


def _text(value, field: str, most: int) -> tuple[str, str]:
    """(cleaned, problem): spaces collapsed; a problem for a value that is not text, too long, or with
    control characters."""
    if not isinstance(value, str):
        return "", f"{field} must be text"
    if any(ord(ch) < 32 for ch in value):
        return "", f"{field} contains control characters"
    cleaned = " ".join(value.split())
    if len(cleaned) > most:
        return "", f"{field} has {len(cleaned)} characters: at most {most}"
    return cleaned, ""


def _person(row) -> tuple[dict, list[tuple[str | None, str]]]:
    """One row, cleaned, and its problems ``(field, message)``."""
    if isinstance(row, str):
        row = {"name": row}
    if not isinstance(row, dict):
        return {}, [(None, "each person is a name, or an object with a name, an email and an affiliation")]
    problems = [(None, f"unknown field {key!r}") for key in row if key not in PERSON_FIELDS]
    person = {}
    for field, most in (("name", MAX_NAME_CHARS), ("email", MAX_EMAIL_CHARS), ("affiliation", MAX_AFFILIATION_CHARS)):
        value, problem = _text(row.get(field) or "", field, most)
        person[field] = value
        if problem:
            problems.append((field, problem))
    if not person["name"] and not any(f == "name" for f, _ in problems):
        problems.append(("name", "a name is required"))
    if person["email"]:
        try:
            validate_email(person["email"])
        except ValidationError:
            problems.append(("email", f"{person['email']} is not an e-mail address"))
    return person, problems


def people_rows(people) -> tuple[list[dict], list[tuple[int | None, str | None, str]]]:
    """An entry's people as rows ``{"name", "email", "affiliation"}`` (a bare string is a name; e-mail and
    affiliation may be empty), spaces collapsed, and the problems as ``(row, field, message)``, row and
    field None for the list as a whole: none or too many people, a row without a name, a value too long
    or with control characters, an e-mail that is not one, a name or e-mail listed twice."""
    if not isinstance(people, list) or not people:
        return [], [(None, None, "list everyone affiliated with the entry: at least one person")]
    problems: list[tuple[int | None, str | None, str]] = []
    if len(people) > MAX_PEOPLE:
        problems.append((None, None, f"at most {MAX_PEOPLE} people"))
    rows, seen = [], {}
    for i, row in enumerate(people):
        person, found = _person(row)
        problems += [(i, field, message) for field, message in found]
        if person:
            for field in ("name", "email"):
                key = (field, person[field].casefold())
                if person[field] and key in seen:
                    problems.append((i, field, f"{person[field]} is listed twice (person {seen[key] + 1})"))
                seen.setdefault(key, i)
            rows.append(person)
    return rows, problems


def _people_clean(people) -> list[dict]:
    rows, problems = people_rows(people)
    if problems:
        row, field, message = problems[0]
        where = "people" if row is None else f"people[{row}]" + (f".{field}" if field else "")
        raise InvalidInput(f"{where}: {message}.")
    return rows


def entry_people_clashes(*, contest_id: int, people: list[dict], exclude_pk=None) -> list[tuple[int, str, str]]:
    """The contest's rule for its entries' people, at entry time and at the compliance check alike: a person
    may be affiliated with one entry of the contest only. For each row of ``people`` (``people_rows``'s)
    whose name or e-mail is already another entry's (case and spacing aside): ``(row, field, that entry)``."""
    taken: dict[tuple[str, str], str] = {}
    others = ContestEntry.objects.filter(contest_id=contest_id).exclude(pk=exclude_pk).select_related("entry")
    for other in others.only("people", "entry__display_name"):
        for person in people_rows(other.people)[0]:
            for field in ("name", "email"):
                if person[field]:
                    taken.setdefault((field, person[field].casefold()), str(other.entry))
    return [
        (i, field, taken[(field, person[field].casefold())])
        for i, person in enumerate(people)
        for field in ("name", "email")
        if person.get(field) and (field, person[field].casefold()) in taken
    ]


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
    """An entrant enters one of their own entries; the receipt time is the server's clock. ``people``: a
    name, or ``{"name", "email", "affiliation"}``, for each person (``people_rows``), stored as rows. The
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
        clash = entry_people_clashes(contest_id=contest.pk, people=people)
        if clash:
            taken = ", ".join(dict.fromkeys(people[row][field] for row, field, _ in clash))
            raise InvalidInput(f"Already affiliated with another entry of this contest: {taken}.")
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
    people = people_rows(item.people)[0]
    if item.contest_id and entry_people_clashes(contest_id=item.contest_id, people=people, exclude_pk=item.pk):
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
    receives the prize without a contest. Entries still unchecked when closing are not compliant. With no
    question set chosen and no more compliant entries than finalist places, qualifying could not change who
    reaches the final: they all become finalists E1… by receipt and the contest moves to its finals."""
    if not isinstance(confirm_rollover, bool):
        raise InvalidInput("confirm_rollover must be true or false.")
    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status not in (Contest.Status.OPEN, Contest.Status.DRAFT):
            raise Closed(f"The contest is {contest.get_status_display()}: entries are closed already.")
        compliant = entries_compliant(contest=contest)
        straight_to_final = bool(contest_close_no_qualifying(contest=contest))
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
        elif straight_to_final:
            for number, item in enumerate(chosen, 1):
                ContestEntry.objects.filter(pk=item.pk).update(finalist=True)
                Participant.objects.create(
                    contest=contest, label=f"E{number}", kind=Participant.Kind.ENTRY, contest_entry=item
                )
            contest.status = Contest.Status.FINALS
        else:
            contest.status = Contest.Status.QUALIFYING
        contest.save(update_fields=["status"])
    return contest
