"""The finals: participants and their labels, the schedule (the rules' ``schedule_build``), and rounds
whose meetings are ordinary arena three-party interrogations; start, pause, resume, restart, and the
sequential halves. Every phase comes from stored timestamps (``selectors.round_clock``)."""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from arena import services as arena
from arena.models import Status
from arena.services.timing import conversations_hold, interrogation_deadline_move
from core.dispatch import enqueue_on_commit
from core.errors import Closed, InvalidInput
from tournaments.loebner.models import Contest, Meeting, Participant, Round
from tournaments.loebner.selectors import contest_format, round_clock, talk_seconds

PAUSED_DEADLINE = dt.timedelta(days=7)  # a paused interrogation's deadline, out of every timer's way


def participants_assign(*, contest_id: int, judges: list, confederates: list) -> list[Participant]:
    """Judges J1… and confederates C1… in the order given (users); replaces earlier assignments."""
    contest = Contest.objects.get(pk=contest_id)
    if contest.rounds.exists():
        raise Closed("The schedule is built: assign people before building it.")
    people = [*judges, *confederates]
    if len({u.pk for u in people}) != len(people):
        raise InvalidInput("A person can be only one judge or confederate of a contest.")
    with transaction.atomic():
        contest.participants.exclude(kind=Participant.Kind.ENTRY).delete()
        made = [
            Participant.objects.create(contest=contest, label=f"J{i}", kind=Participant.Kind.JUDGE, user=u)
            for i, u in enumerate(judges, 1)
        ]
        made += [
            Participant.objects.create(contest=contest, label=f"C{i}", kind=Participant.Kind.CONFEDERATE, user=u)
            for i, u in enumerate(confederates, 1)
        ]
    return made


def _interrogation_for(meeting: Meeting, contest: Contest, fmt):
    entry_witness = meeting.entry.contest_entry.entry
    confederate = meeting.confederate.user
    witnesses = [entry_witness, confederate]
    sides = ("left", "right") if meeting.left == Meeting.Left.ENTRY else ("right", "left")
    return arena.interrogation_create(
        judge=meeting.judge.user,
        witnesses=witnesses,
        sides=sides,
        time_limit_s=int(round(talk_seconds(fmt))),
        title=f"{contest.name}: round {meeting.round.number}, {meeting.judge.label}",
        keystroke_mode=contest.keystroke_mode,
        scheduled_at=contest.contest_day,
    )


def schedule_create(*, contest_id: int) -> list[Round]:
    """Build the schedule from the format (seeded by the contest's seed), check it with the rules'
    ``schedule_problems``, and store its rounds and meetings, each with its scheduled interrogation."""
    from tournaments.loebner.rules.schedule import schedule_build, schedule_problems

    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status != Contest.Status.FINALS:
            raise Closed(f"The contest is {contest.get_status_display()}, not in its finals.")
        if contest.rounds.exists():
            raise Closed("The schedule is built already.")
        fmt = contest_format(contest=contest)
        labels = {p.label: p for p in contest.participants.select_related("user", "contest_entry__entry")}
        meetings = schedule_build(fmt, seed=contest.seed)
        problems = schedule_problems(fmt, meetings)
        if problems:
            raise InvalidInput(f"The schedule is not valid: {problems[0]}")
        needed = {label for m in meetings for label in (m.judge, m.entry, m.confederate)}
        missing = sorted(needed - set(labels))
        if missing:
            raise InvalidInput(f"The format {fmt.name} needs participants {', '.join(missing)}: assign them first.")
        rounds = {}
        for planned in meetings:
            if planned.round not in rounds:
                rounds[planned.round] = Round.objects.create(contest=contest, number=planned.round)
            meeting = Meeting.objects.create(
                round=rounds[planned.round],
                judge=labels[planned.judge],
                entry=labels[planned.entry],
                confederate=labels[planned.confederate],
                left=planned.left,
            )
            meeting.interrogation = _interrogation_for(meeting, contest, fmt)
            meeting.save(update_fields=["interrogation"])
    return [rounds[n] for n in sorted(rounds)]


def _locked_round(round_id: int) -> Round:
    return Round.objects.select_for_update().select_related("contest").get(pk=round_id)


def _open_sides(clock: dict) -> tuple[str, ...]:
    return {"left": ("left",), "right": ("right",)}.get(clock["side"], ("left", "right"))


def _tick_later(round_: Round, fmt) -> None:
    """A timer for the sequential switch at half time (the phase is recomputed from the database then)."""
    from tournaments.loebner.tasks import round_tick_task

    clock = round_clock(round_=round_, fmt=fmt)
    if fmt.mode == "sequential" and clock["side"] == "left":
        enqueue_on_commit(round_tick_task, round_.pk, countdown=clock["talk_s"] / 2 - clock["elapsed_s"] + 0.05)


def round_start(*, round_id: int) -> Round:
    with transaction.atomic():
        round_ = _locked_round(round_id)
        contest = round_.contest
        if round_.status != Round.Status.SCHEDULED:
            raise Closed(f"Round {round_.number} is {round_.status}, not scheduled.")
        fmt = contest_format(contest=contest)
        for other in contest.rounds.filter(status=Round.Status.RUNNING).exclude(pk=round_.pk):
            phase = round_clock(round_=other, fmt=fmt)["phase"]
            judged = not other.meetings.filter(interrogation__verdict__isnull=True).exists()
            if phase in ("break", "over") or (phase == "review" and judged):  # its talk and review are over
                other.status = Round.Status.ENDED
                other.save(update_fields=["status"])
        if contest.rounds.filter(status__in=[Round.Status.RUNNING, Round.Status.PAUSED]).exists():
            raise Closed("Another round is running (talk, or review with verdicts missing): wait for its break.")
        round_.status, round_.started_at = Round.Status.RUNNING, timezone.now()
        round_.save(update_fields=["status", "started_at"])
        for meeting in round_.meetings.select_related("interrogation"):
            arena.interrogation_start(interrogation_id=meeting.interrogation_id)
            if fmt.mode == "sequential":
                conversations_hold(interrogation_id=meeting.interrogation_id, open_sides=("left",))
        _tick_later(round_, fmt)
    return round_


def _running_interrogations(round_: Round) -> list[int]:
    return list(round_.meetings.filter(interrogation__status=Status.RUNNING).values_list("interrogation_id", flat=True))


def round_pause(*, round_id: int) -> Round:
    """The round's clock stops; every conversation is held (refuses messages) until resumed."""
    with transaction.atomic():
        round_ = _locked_round(round_id)
        if round_.status != Round.Status.RUNNING:
            raise Closed(f"Round {round_.number} is {round_.status}, not running.")
        now = timezone.now()
        round_.status, round_.paused_at = Round.Status.PAUSED, now
        round_.save(update_fields=["status", "paused_at"])
        for interrogation_id in _running_interrogations(round_):
            conversations_hold(interrogation_id=interrogation_id, open_sides=())
            interrogation_deadline_move(interrogation_id=interrogation_id, deadline=now + PAUSED_DEADLINE)
    return round_


def round_resume(*, round_id: int) -> Round:
    with transaction.atomic():
        round_ = _locked_round(round_id)
        if round_.status != Round.Status.PAUSED:
            raise Closed(f"Round {round_.number} is {round_.status}, not paused.")
        now = timezone.now()
        fmt = contest_format(contest=round_.contest)
        round_.paused_s += (now - round_.paused_at).total_seconds()
        round_.status, round_.paused_at = Round.Status.RUNNING, None
        round_.save(update_fields=["status", "paused_at", "paused_s"])
        clock = round_clock(round_=round_, fmt=fmt, now=now)
        remaining = max(0.0, clock["talk_s"] - clock["elapsed_s"])
        for interrogation_id in _running_interrogations(round_):
            conversations_hold(interrogation_id=interrogation_id, open_sides=_open_sides(clock))
            interrogation_deadline_move(
                interrogation_id=interrogation_id, deadline=now + dt.timedelta(seconds=remaining)
            )
        _tick_later(round_, fmt)
    return round_


def round_tick(*, round_id: int) -> dict:
    """Apply what the clock says now: the sequential switch to the right witness at half time, and the
    round's end once its talk, review and break are over. Idempotent; run by a timer and by pages."""
    with transaction.atomic():
        round_ = _locked_round(round_id)
        fmt = contest_format(contest=round_.contest)
        clock = round_clock(round_=round_, fmt=fmt)
        if round_.status != Round.Status.RUNNING:
            return clock
        if clock["side"] == "right":
            for meeting in round_.meetings.filter(interrogation__status=Status.RUNNING).select_related("interrogation"):
                if meeting.interrogation.conversations.filter(side="left", status=Status.RUNNING).exists():
                    conversations_hold(interrogation_id=meeting.interrogation_id, open_sides=("right",))
        if clock["phase"] == "over":
            round_.status = Round.Status.ENDED
            round_.save(update_fields=["status"])
    return clock


def rounds_tick_running() -> list[int]:
    """The beat's sweep (every 5 s): apply every running round's clock, so the half-time switch and a round's
    end wait for neither a page nor a timer lost with a restart. Returns the ids of the rounds it ended."""
    ended = []
    for round_id in Round.objects.filter(status=Round.Status.RUNNING).values_list("pk", flat=True):
        if round_tick(round_id=round_id)["phase"] == "over":
            ended.append(round_id)
    return ended


def round_finish(*, round_id: int) -> Round:
    """The organiser ends the talking now (the review period follows): every running meeting ends, and
    the round's clock jumps to the end of its talk."""
    with transaction.atomic():
        round_ = _locked_round(round_id)
        if round_.status not in (Round.Status.RUNNING, Round.Status.PAUSED):
            raise Closed(f"Round {round_.number} is {round_.status}, not running.")
        fmt = contest_format(contest=round_.contest)
        now = timezone.now()
        if round_.paused_at:
            round_.paused_s += (now - round_.paused_at).total_seconds()
            round_.paused_at = None
        round_.started_at = now - dt.timedelta(seconds=talk_seconds(fmt) + round_.paused_s)
        round_.status = Round.Status.RUNNING
        round_.save(update_fields=["started_at", "paused_at", "paused_s", "status"])
        for meeting in round_.meetings.all():
            arena.interrogation_end(interrogation_id=meeting.interrogation_id, reason="organiser")
    return round_


def round_restart(*, round_id: int) -> Round:
    """Start the round over: its interrogations end (kept, with reason "restart") and fresh ones are
    created for the same meetings, same sides; the round is scheduled again, ready to start."""
    with transaction.atomic():
        round_ = _locked_round(round_id)
        contest = round_.contest
        if round_.status == Round.Status.SCHEDULED:
            raise Closed(f"Round {round_.number} has not started.")
        fmt = contest_format(contest=contest)
        for meeting in round_.meetings.select_related(
            "judge__user", "confederate__user", "entry__contest_entry__entry"
        ):
            if meeting.interrogation_id:
                arena.interrogation_end(interrogation_id=meeting.interrogation_id, reason="restart")
                meeting.replaced.add(meeting.interrogation_id)  # still the contest's: its truth waits as well
            if hasattr(meeting, "judgment"):
                meeting.judgment.delete()
            meeting.interrogation = _interrogation_for(meeting, contest, fmt)
            meeting.save(update_fields=["interrogation"])
        round_.status, round_.started_at, round_.paused_at, round_.paused_s = Round.Status.SCHEDULED, None, None, 0
        round_.restarts += 1
        round_.save(update_fields=["status", "started_at", "paused_at", "paused_s", "restarts"])
    return round_
