"""The finals: participants and their labels, the schedule (the rules' ``schedule_build``), and rounds
whose meetings are ordinary arena three-party interrogations; start, pause, resume, restart, and the
sequential halves. Every phase comes from stored timestamps (``selectors.round_clock``).

A round ends as soon as all its meetings have ended (``_end_if_done``, the one place): the arena tells
``meeting_ended`` of each interrogation's end once it is committed, "End the talking now" ends them all,
and the sweep's ``rounds_tick_running`` finishes a round whose end a crash lost. When the contest's rounds
follow on (``Contest.rounds_follow_on``), the next round starts in the same transaction."""

import datetime as dt

from django.db import transaction
from django.db.models import Max
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


def schedule_create(*, contest_id: int, format_name: str | None = None) -> list[Round]:
    """Build the schedule from the format (seeded by the contest's seed), check it with the rules'
    ``schedule_problems``, and store its rounds and meetings, each with its scheduled interrogation.
    ``format_name``: the format the organiser chose from the preview (``selectors.schedule_previews``),
    which becomes the contest's; by default the contest's own."""
    from tournaments.loebner.rules.formats import FORMATS
    from tournaments.loebner.rules.schedule import schedule_build, schedule_problems

    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status != Contest.Status.FINALS:
            raise Closed(f"The contest is {contest.get_status_display()}, not in its finals.")
        if contest.rounds.exists():
            raise Closed("The schedule is built already.")
        if format_name is not None and format_name != contest.format_name:
            if format_name not in FORMATS:
                raise InvalidInput(f"Unknown format {format_name!r}: choose one of {', '.join(FORMATS)}.")
            contest.format_name = format_name
            contest.save(update_fields=["format_name"])
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
    """The round, locked after its contest. Every path that changes a contest's rounds locks the contest
    first, then rounds, then interrogations: a round's end starting the next round and an organiser's start
    of it wait for each other instead of deadlocking."""
    contest_id = Round.objects.values_list("contest_id", flat=True).get(pk=round_id)
    contest = Contest.objects.select_for_update().get(pk=contest_id)
    round_ = Round.objects.select_for_update().get(pk=round_id)
    round_.contest = contest
    return round_


def _open_sides(clock: dict) -> tuple[str, ...]:
    return {"left": ("left",), "right": ("right",)}.get(clock["side"], ("left", "right"))


def _tick_later(round_: Round, fmt) -> None:
    """A timer for the sequential switch at half time (the phase is recomputed from the database then)."""
    from tournaments.loebner.tasks import round_tick_task

    clock = round_clock(round_=round_, fmt=fmt)
    if fmt.mode == "sequential" and clock["side"] == "left":
        enqueue_on_commit(round_tick_task, round_.pk, countdown=clock["talk_s"] / 2 - clock["elapsed_s"] + 0.05)


LIVE = (Round.Status.RUNNING, Round.Status.PAUSED)


def _start(round_: Round, fmt) -> None:
    """Start the locked, scheduled round: every meeting's interrogation starts (a sequential one with its
    left side open)."""
    round_.status, round_.started_at, round_.ended_at = Round.Status.RUNNING, timezone.now(), None
    round_.save(update_fields=["status", "started_at", "ended_at"])
    for meeting in round_.meetings.select_related("interrogation"):
        arena.interrogation_start(interrogation_id=meeting.interrogation_id)
        if fmt.mode == "sequential":
            conversations_hold(interrogation_id=meeting.interrogation_id, open_sides=("left",))
    _tick_later(round_, fmt)


def _end_if_done(round_: Round, fmt) -> bool:
    """The one place a round ends: the locked round, running or paused, ends once none of its meetings is
    still to talk (each interrogation ended or aborted), at its last meeting's end (``ended_at``; its start
    time stays as it was). When the contest's rounds follow on, the next scheduled round starts at once.
    Whether it ended the round now."""
    if round_.status not in LIVE:
        return False
    if round_.meetings.filter(interrogation__status__in=[Status.SCHEDULED, Status.RUNNING]).exists():
        return False
    now = timezone.now()
    last = round_.meetings.aggregate(last=Max("interrogation__ended_at"))["last"]
    ended = min(now, max(last or now, round_.started_at or now))
    if round_.paused_at:
        round_.paused_s += max(0.0, (ended - round_.paused_at).total_seconds())
        round_.paused_at = None
    round_.status, round_.ended_at = Round.Status.ENDED, ended
    round_.save(update_fields=["status", "ended_at", "paused_at", "paused_s"])
    contest = round_.contest
    if contest.rounds_follow_on and contest.status == Contest.Status.FINALS:
        following = contest.rounds.filter(status=Round.Status.SCHEDULED, number__gt=round_.number).order_by("number")
        following = following.select_for_update().first()
        if following is not None and not contest.rounds.filter(status__in=LIVE).exists():
            following.contest = contest
            _start(following, fmt)
    return True


def _tick(round_: Round, fmt) -> bool:
    """Apply what the clock says now to the locked round: the sequential switch to the right witness at half
    time; once the talk is over, meetings past their deadline close (their timers may have died with a
    restart); and the round ends with its last meeting (``_end_if_done``). Whether it ended the round."""
    if round_.status == Round.Status.RUNNING:
        clock = round_clock(round_=round_, fmt=fmt)
        if clock["side"] == "right":
            for meeting in round_.meetings.filter(interrogation__status=Status.RUNNING).select_related("interrogation"):
                if meeting.interrogation.conversations.filter(side="left", status=Status.RUNNING).exists():
                    conversations_hold(interrogation_id=meeting.interrogation_id, open_sides=("right",))
        if clock["phase"] != "talk":
            for interrogation_id in _running_interrogations(round_):
                arena.interrogation_close_if_due(interrogation_id=interrogation_id)
    return _end_if_done(round_, fmt)


def round_start(*, round_id: int) -> Round:
    """Start a scheduled round. Another round of the contest that is over (its meetings ended, or its time
    up) is ended first; one that still has a meeting to talk refuses the start."""
    with transaction.atomic():
        round_ = _locked_round(round_id)
        contest = round_.contest
        if round_.status != Round.Status.SCHEDULED:
            raise Closed(f"Round {round_.number} is {round_.status}, not scheduled.")
        fmt = contest_format(contest=contest)
        for other in contest.rounds.select_for_update().filter(status__in=LIVE).exclude(pk=round_.pk):
            other.contest = contest
            _tick(other, fmt)
        live = contest.rounds.filter(status__in=LIVE).exclude(pk=round_.pk).order_by("number").first()
        if live is not None:
            raise Closed(
                f"Round {live.number} is still {live.status}: the next round may start once its meetings have "
                "ended (or End the talking now)."
            )
        _start(round_, fmt)
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
    """Apply what the clock says now (``_tick``): the sequential switch at half time, the close of meetings
    past their deadline, and the round's end once its last meeting has ended. Idempotent; run by a timer,
    the sweep and pages. The round's clock, as it stands after."""
    with transaction.atomic():
        round_ = _locked_round(round_id)
        fmt = contest_format(contest=round_.contest)
        _tick(round_, fmt)
        return round_clock(round_=round_, fmt=fmt)


def round_end_if_done(*, round_id: int) -> bool:
    """The round ends once all its meetings have ended, and when its contest's rounds follow on the next
    starts at once (``_end_if_done``). Idempotent. Whether it ended the round now."""
    with transaction.atomic():
        round_ = _locked_round(round_id)
        return _end_if_done(round_, contest_format(contest=round_.contest))


def meeting_ended(*, interrogation_id: int) -> bool:
    """Told by the arena (``interrogation_ended_register``) of every interrogation that has ended: a meeting's
    round ends with its last meeting. Whether it ended a round."""
    round_id = (
        Meeting.objects.filter(interrogation_id=interrogation_id, round__status__in=LIVE)
        .values_list("round_id", flat=True)
        .first()
    )
    return round_id is not None and round_end_if_done(round_id=round_id)


def rounds_tick_running() -> list[int]:
    """The sweep's step (registered with the arena's sweep: at start-up and every 5 s): every running or
    paused round's clock applied, so that the half-time switch, and a round's end whose moment was lost with
    a restart, wait for neither a page nor a timer. The ids of the rounds it ended."""
    ended = []
    for round_id in Round.objects.filter(status__in=LIVE).order_by("contest_id", "number").values_list("pk", flat=True):
        with transaction.atomic():
            round_ = _locked_round(round_id)
            if _tick(round_, contest_format(contest=round_.contest)):
                ended.append(round_id)
    return ended


def round_finish(*, round_id: int) -> Round:
    """The organiser ends the talking now: every meeting still running ends (reason "organiser"), and with
    them the round (``ended_at``; its start time stays). The judges give their verdicts after; the next
    round may start at once, and starts by itself when the contest's rounds follow on."""
    with transaction.atomic():
        round_ = _locked_round(round_id)
        if round_.status not in LIVE:
            raise Closed(f"Round {round_.number} is {round_.status}, not running.")
        for meeting in round_.meetings.exclude(interrogation=None):
            arena.interrogation_end(interrogation_id=meeting.interrogation_id, reason="organiser")
        _end_if_done(round_, contest_format(contest=round_.contest))
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
        round_.status, round_.started_at, round_.ended_at = Round.Status.SCHEDULED, None, None
        round_.paused_at, round_.paused_s = None, 0
        round_.restarts += 1
        round_.save(update_fields=["status", "started_at", "ended_at", "paused_at", "paused_s", "restarts"])
    return round_
