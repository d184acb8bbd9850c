"""A wager session's control room (a selector: reads only, no HTTP): committee → trials → interviews →
verdicts → report, where it stands (the first step not complete), what is missing, and the next action.
The interviews start at their times by themselves and the judges give the verdicts, so those steps wait;
the report's step is publishing the transcripts (the session admin's list action, ``session_publish``),
which cannot be undone and is asked first."""

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from arena.control import Action, Item, Room, first_missing, timeline
from arena.models import Status
from tournaments.wager import selectors
from tournaments.wager.models import CommitteeMember, Interview, Session

STEPS = [
    ("committee", "Committee"),
    ("trials", "Trials"),
    ("interviews", "Interviews"),
    ("verdicts", "Verdicts"),
    ("report", "Report"),
]
SHOWN = 12
PUBLISH_CONSEQUENCE = (
    "Every finished interview's transcript becomes public (the witnesses anonymised), so that anyone can check "
    "the report's signed chain heads against them."
)


def _items(texts: list[str], url: str = "", label: str = "") -> list[Item]:
    texts = texts[:SHOWN] + ([f"… and {len(texts) - SHOWN} more"] if len(texts) > SHOWN else [])
    link = (Action("link", label, url=url),) if url else ()
    return [Item(text, "missing", link) for text in texts]


def _interviews(session: Session) -> list[Interview]:
    return list(
        Interview.objects.filter(trial__session=session)
        .select_related("trial", "judge", "interrogation")
        .order_by("trial__number", "starts_at", "slot", "judge_id")
    )


def session_control(*, session: Session, now: dt.datetime | None = None) -> Room:
    """The session's control room (``arena.control.Room``)."""
    now = now or timezone.now()
    seated = set(session.committee.members.values_list("role", flat=True))
    unseated = [role for role in CommitteeMember.Role if role.value not in seated]
    interviews = _interviews(session)
    unfinished = [i for i in interviews if i.interrogation.status not in selectors.FINISHED]
    result = selectors.session_result(session=session)
    unpublished = [i for i in interviews if i.interrogation.status in selectors.FINISHED]
    unpublished = [i for i in unpublished if not i.interrogation.is_published]
    trials = session.trials.count()
    stage = first_missing(
        [
            ("committee", "", not unseated),
            ("trials", "", trials >= session.trials_planned),
            ("interviews", "", bool(interviews) and not unfinished),
            ("verdicts", "", result.complete),
            ("report", "", not unpublished),
        ]
    )
    room = Room(title=str(session), steps=timeline(STEPS, stage))
    page = reverse("wager:session", args=[session.pk])
    room.links = [Action("page", "Session page (calendar)", url=page)]
    room.links.append(Action("report", "Report", url=reverse("wager:report", args=[session.pk])))
    if stage == "committee":
        add = reverse("admin:wager_committeemember_add") + f"?committee={session.committee_id}"
        room.missing += _items([f"{session.committee}: not seated: {_member(role.label)}" for role in unseated])
        room.next = Action("appoint", "Appoint a committee member", url=add)
    elif stage == "trials":
        room.missing += _items([f"{trials} of {session.trials_planned} trials laid out"])
        room.waiting = "The trials are laid out when the session is created."
    elif stage == "interviews":
        missed = [i for i in unfinished if i.interrogation.status == Status.SCHEDULED and _missed(i, now)]
        room.missing += _items(
            [f"{_name(i)}: {i.interrogation.status}, {i.starts_at:%Y-%m-%d %H:%M}" for i in unfinished]
        )
        if missed:
            first = reverse("admin:wager_interview_change", args=[missed[0].pk])
            room.notes.append(f"{len(missed)} interview(s) missed their slot and wait to be moved.")
            room.next = Action("move", f"Move {_name(missed[0])}", url=first)
        else:
            room.waiting = "The interviews start at their times by themselves; the judges and foils take part."
    elif stage == "verdicts":
        labels = {j.user_id: j for j in session.judges.select_related("user")}
        for trial_result in result.trials:
            if not trial_result.complete:
                given = set(trial_result.trial.verdicts.values_list("judge_id", flat=True))
                waiting = [f"{j.label} {j.user}" for uid, j in labels.items() if uid not in given]
                room.missing += _items([f"trial {trial_result.trial.number}: no verdicts from {', '.join(waiting)}"])
        room.waiting = "The judges give their verdicts on the session page, trial by trial."
    elif stage == "report":
        room.next = Action("publish", "Publish the transcripts (anonymised)", consequence=PUBLISH_CONSEQUENCE)
        room.notes.append(f"{len(unpublished)} finished interview(s) not published yet.")
    return room


def _member(label: str) -> str:
    return label if label.startswith("the ") else f"the member {label}"


def _missed(interview: Interview, now: dt.datetime) -> bool:
    return now >= interview.starts_at + dt.timedelta(seconds=interview.interrogation.time_limit_s)


def _name(interview: Interview) -> str:
    return f"trial {interview.trial.number} · slot {interview.slot} · {interview.judge} with {interview.candidate}"


def sessions_not_started():
    """The sessions none of whose interviews has begun: organisers see them listed apart."""
    begun = Interview.objects.exclude(interrogation__status=Status.SCHEDULED).values("trial__session_id")
    return Session.objects.exclude(pk__in=begun).select_related("committee", "computer").order_by("starts_at")
