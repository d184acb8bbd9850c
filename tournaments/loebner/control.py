"""A contest's control room (a selector: reads only, no HTTP): its steps as a timeline, where it stands,
what is missing for the next step (each item named), the one next action, the undos the rules allow, and
its entries with their compliance. The admin shows it and runs its buttons (``arena.control_admin``):
each is the contest admin's list action of the same name, or the entries' or rounds' one, so the same
service; the undos are ``services.contest_unopen`` and ``services.contest_reopen``."""

from dataclasses import replace

from django.urls import reverse

from arena.control import SKIPPED, Action, Item, Room, timeline
from tournaments.loebner import selectors
from tournaments.loebner.models import Contest, ContestEntry, QualifyingSubject, Round

STEPS = [
    ("draft", "Draft"),
    ("open", "Entries open"),
    ("closed", "Entries closed"),
    ("qualifying", "Qualifying"),
    ("finalists", "Finalists"),
    ("schedule", "Schedule"),
    ("rounds", "Rounds"),
    ("ranking", "Ranking"),
    ("published", "Results published"),
]
SHOWN = 12  # of a long list of missing things, the first ones, then how many more

S = Contest.Status


def contest_stage(*, contest: Contest, rounds: list[Round] | None = None) -> str:
    """Where the contest stands: a key of STEPS."""
    simple = {S.DRAFT: "draft", S.OPEN: "open", S.ROLLED_OVER: "closed", S.SINGLE: "closed"}
    if contest.status in simple:
        return simple[contest.status]
    if contest.status == S.QUALIFYING:
        return "qualifying"
    if contest.status == S.DONE:
        return "published"
    rounds = list(contest.rounds.order_by("number")) if rounds is None else rounds
    if not rounds:
        return "finalists"
    if all(r.status == Round.Status.SCHEDULED for r in rounds):
        return "schedule"
    fmt = selectors.contest_format(contest=contest)
    return "ranking" if all(selectors.round_finished(round_=r, fmt=fmt) for r in rounds) else "rounds"


def _listed(items: list[str]) -> list[str]:
    return items[:SHOWN] + ([f"… and {len(items) - SHOWN} more"] if len(items) > SHOWN else [])


def _missing(texts, url: str = "", label: str = "") -> list[Item]:
    link = (Action("link", label, url=url),) if url else ()
    return [Item(text, "missing", link) for text in _listed(list(texts))]


def _admin(contest: Contest, view: str = "change") -> str:
    return reverse(f"admin:loebner_contest_{view}", args=[contest.pk])


# --- the entries and their compliance ------------------------------------------------------------


def entries_compliance(*, contest: Contest, decide: bool) -> list[Item]:
    """Every entry by receipt, its compliance and what it lacks; ``decide``: with compliant / not compliant
    buttons (the entries' list actions, ``services.entry_check``)."""
    from tournaments.loebner.services.entries import entry_compliance_refusal

    rows = []
    for item in contest.entries.select_related("entry", "contest").order_by("received_at", "pk"):
        actions = []
        if decide and item.compliance != ContestEntry.Check.COMPLIANT:
            actions.append(Action("mark_compliant", "compliant", model="loebner.ContestEntry", target=item.pk))
        if decide and item.compliance != ContestEntry.Check.REFUSED:
            actions.append(Action("mark_refused", "not compliant", model="loebner.ContestEntry", target=item.pk))
        lacks = entry_compliance_refusal(item) if item.compliance != ContestEntry.Check.REFUSED else ""
        note = " · ".join(x for x in (item.compliance_note, lacks) if x)
        marks = [m for m, on in (("sent to qualifying", item.qualified), ("finalist", item.finalist)) if on]
        state = item.get_compliance_display() + (f" ({', '.join(marks)})" if marks else "")
        rows.append(Item(f"{item.entry} (received {item.received_at:%Y-%m-%d %H:%M})", state, tuple(actions), note))
    return rows


def _unchecked(contest: Contest) -> list[str]:
    pending = contest.entries.filter(compliance=ContestEntry.Check.PENDING).select_related("entry")
    return [f"{item.entry}: no compliance decision" for item in pending.order_by("received_at", "pk")]


# --- each step -----------------------------------------------------------------------------------


def _draft(contest: Contest, room: Room) -> None:
    room.next = Action("open_for_entries", "Open for entries")
    if contest.question_set_id is None:
        room.notes.append("No question set is chosen yet: qualifying will need one.")
    if not contest.closes_at:
        room.notes.append("No closing date for entries is set: entries are received until you close them.")


def _open(contest: Contest, room: Room) -> None:
    room.missing += _missing(_unchecked(contest))
    if not contest.entries.exists():
        room.missing += _missing(["no entry received yet"])
        room.undo.append(Action("back_to_draft", "Back to draft (no entry received yet)"))
    warning = selectors.contest_close_warning(contest=contest) or selectors.contest_close_no_qualifying(contest=contest)
    if warning:
        room.notes.append(warning)
    elif room.missing:
        room.notes.append("Entries without a compliance decision when entries close do not go to qualifying.")
    room.next = Action("close_entries", "Close entries")


def _closed(contest: Contest, room: Room) -> None:
    if contest.status == S.ROLLED_OVER:
        into = f" into {contest.rolls_into}" if contest.rolls_into_id else ""
        room.waiting = f"No entry was compliant: the prize rolled over{into}. The contest ends here."
    else:
        single = contest.entries.filter(finalist=True).select_related("entry").first()
        room.waiting = (
            f"A single compliant entry{f' ({single.entry})' if single else ''} receives the prize without a "
            "contest. The contest ends here."
        )


def _qualifying(contest: Contest, room: Room) -> None:
    subjects = list(QualifyingSubject.objects.filter(contest=contest).select_related("contest_entry__entry"))
    scoring = reverse("loebner:qualifying", args=[contest.pk])
    if not subjects:
        room.undo.append(Action("reopen_entries", "Reopen entries (no qualifying question asked yet)"))
    if contest.question_set_id is None or not contest.question_set.questions.exists():
        room.missing += _missing(["no question set with questions is chosen"], _admin(contest), "choose one")
    asked = {s.contest_entry_id for s in subjects if s.contest_entry_id}
    unasked = contest.entries.filter(qualified=True).exclude(pk__in=asked).select_related("entry")
    again = [s for s in subjects if s.status in (QualifyingSubject.Status.WAITING, QualifyingSubject.Status.FAILED)]
    if unasked.exists() or again or room.missing:
        room.missing += _missing(
            [f"{item.entry}: not asked yet" for item in unasked] + [f"{s}: {s.get_status_display()}" for s in again]
        )
        room.next = Action("ask_qualifying", "Ask the qualifying questions")
        return
    asking = [str(s) for s in subjects if s.status == QualifyingSubject.Status.ASKING]
    if asking:
        room.waiting = f"Being asked the questions: {', '.join(asking)}."
        return
    if contest.qualifying_scoring == Contest.Scoring.ORGANISER:
        unscored = [
            f"{row['name']}: {row['answered'] - row['scored']} of {row['answered']} answers not scored"
            for row in selectors.qualifying_scores(contest=contest).values()
            if row["scored"] < row["answered"]
        ]
        if unscored:
            room.missing += _missing(unscored, scoring, "score them")
            room.next = Action("score", "Score the qualifying answers", url=scoring)
            return
    tie = selectors.finalists_tie(contest=contest)
    if tie:
        names = ", ".join(f"{row['name']} ({row['score']:g})" for row in tie["tied"])
        room.missing += _missing(
            [f"undecided tie-break: {names} tie for the last {tie['places']} finalist place(s)"], scoring, "order them"
        )
        room.next = Action("order_tie", "Order the tied entries, then pick the finalists", url=scoring)
        return
    room.next = Action("pick_finalists", "Pick the finalists")


def _finalists(contest: Contest, room: Room) -> None:
    fmt = selectors.contest_format(contest=contest)
    have = set(contest.participants.values_list("label", flat=True))
    needed = [f"J{k}" for k in range(1, fmt.judges + 1)] + [f"C{k}" for k in range(1, fmt.confederates + 1)]
    absent = [label for label in needed if label not in have]
    if absent:
        room.missing += _missing(
            [f"format {fmt.name}: no {'judge' if a[0] == 'J' else 'confederate'} {a} assigned" for a in absent],
            _admin(contest),
            "assign in Participants",
        )
    room.next = Action("build_schedule", "Build the schedule")


def _rounds(contest: Contest, room: Room, rounds: list[Round]) -> None:
    board = reverse("loebner:board", args=[contest.pk])
    problems = selectors.contest_publish_problems(contest=contest)
    room.missing += _missing(problems)
    live = next((r for r in rounds if r.status in (Round.Status.RUNNING, Round.Status.PAUSED)), None)
    fmt = selectors.contest_format(contest=contest)
    if live is not None and not selectors.round_finished(round_=live, fmt=fmt):
        state = "is paused" if live.status == Round.Status.PAUSED else "is talking"
        room.waiting = f"Round {live.number} {state}: follow it on the live board."
        room.links.insert(0, Action("board", "Live board", url=board))
        return
    following = next((r for r in rounds if r.status == Round.Status.SCHEDULED), None)
    if following is not None:
        room.next = Action("start", f"Start round {following.number}", model="loebner.Round", target=following.pk)
    else:
        room.waiting = "The last round's talk is over: its judges give their verdicts."


def _ranking(contest: Contest, room: Room) -> None:
    room.missing += _missing(selectors.contest_publish_problems(contest=contest))
    results = reverse("loebner:results", args=[contest.pk])
    score, _problem = selectors.contest_scored(contest=contest)
    tied = (score or {}).get("tied", []) if score and score.get("winner") is None else []
    if tied and score.get("tie_break") == "organiser" and contest.tie_winner not in tied:
        room.missing += _missing(
            [f"undecided tie-break: {', '.join(tied)} tie, and the organiser names the winner"], results, "name it"
        )
        if not selectors.contest_publish_problems(contest=contest):
            room.next = Action("name_winner", "Name the winner on the results page", url=results)
            return
    room.next = Action("publish", "Publish the results and every transcript")


def _past_qualifying(stage: str) -> bool:
    """The contest reached its final (a contest that went there without qualifying shows the step skipped)."""
    keys = [key for key, _ in STEPS]
    return stage != "closed" and keys.index(stage) > keys.index("qualifying")


def contest_control(*, contest: Contest) -> Room:
    """The contest's control room (``arena.control.Room``)."""
    rounds = list(contest.rounds.order_by("number"))
    stage = contest_stage(contest=contest, rounds=rounds)
    room = Room(
        title=str(contest),
        steps=timeline(STEPS, None if stage == "published" else stage, ended=stage == "closed"),
        items_title="Entries and their compliance",
        items=entries_compliance(contest=contest, decide=stage in ("draft", "open")),
    )
    if _past_qualifying(stage) and not QualifyingSubject.objects.filter(contest=contest).exists():
        room.steps = [replace(s, state=SKIPPED) if s.key == "qualifying" else s for s in room.steps]
    if stage == "closed":
        _closed(contest, room)
    elif stage == "rounds":
        _rounds(contest, room, rounds)
    elif stage == "schedule":
        room.next = Action("start", "Start round 1", model="loebner.Round", target=rounds[0].pk)
    elif stage != "published":
        {"draft": _draft, "open": _open, "qualifying": _qualifying, "finalists": _finalists, "ranking": _ranking}[
            stage
        ](contest, room)
    if contest.status != S.DRAFT:
        room.links.append(Action("results", "Results page", url=reverse("loebner:results", args=[contest.pk])))
    if stage in ("qualifying", "finalists"):
        room.links.append(Action("qualifying", "Qualifying", url=reverse("loebner:qualifying", args=[contest.pk])))
    if rounds and stage != "rounds":
        room.links.append(Action("board", "Live board", url=reverse("loebner:board", args=[contest.pk])))
    return room


def contests_draft():
    """The contests still in draft (their organisers see them listed, with a way to their control rooms)."""
    return Contest.objects.filter(status=S.DRAFT)
