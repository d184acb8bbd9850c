"""Reads: results per trial and per session, what a judge may see, the report with its signed chain heads."""

from dataclasses import dataclass, field

from django.db.models import Prefetch

from arena import roles, transcript_keys
from arena.models import ConversationSeal, Status
from arena.selectors.interrogations import transcript_export
from tournaments.wager import rules
from tournaments.wager.models import Interview, Session, Trial, TrialVerdict

# a transcript is readable, and linked from the report, once its interview is over
FINISHED = (Status.ENDED, Status.ABORTED)


@dataclass
class TrialResult:
    trial: Trial
    complete: bool
    judges_done: int
    judges: int
    score: rules.TrialScore | None = None


@dataclass
class SessionResult:
    session: Session
    trials: list = field(default_factory=list)
    complete: bool = False
    passed: bool | None = None
    trials_passed: int = 0


def can_manage(user, session: Session | None = None) -> bool:
    """Organisers, staff, and the committee's members (by their accounts)."""
    if not user.is_authenticated:
        return False
    if user.is_staff or roles.is_organiser(user):
        return True
    return session is not None and session.committee.members.filter(user_id=user.pk).exists()


def report_readable(*, session: Session, user, result: SessionResult | None = None) -> bool:
    """The report is public once every trial's verdicts are in; before that, organisers and the committee's
    members only."""
    result = result or session_result(session=session)
    return result.complete or can_manage(user, session)


def interview_transcript_readable(*, interrogation, user) -> bool:
    """Whoever may read a session's report may read the transcript of each of its finished interviews, from
    the report's JSON links, published or not (the arena's rule for the interrogations of a session)."""
    interview = Interview.objects.filter(interrogation_id=interrogation.pk).select_related("trial__session").first()
    return (
        interview is not None
        and interrogation.status in FINISHED
        and report_readable(session=interview.trial.session, user=user)
    )


def session_transcripts(*, session: Session) -> dict:
    """The report's "All transcripts as JSON": every finished interview's transcript in the arena's shape,
    by trial, slot and judge, as ``{"session": title, "transcripts": [...]}`` (a Loebner contest's bundle
    has the same "transcripts" list); the offline verifier checks it whole."""
    rows = (
        Interview.objects.filter(trial__session=session, interrogation__status__in=FINISHED)
        .select_related("interrogation__judge")
        .order_by("trial__number", "slot", "judge_id")
    )
    return {"session": session.title, "transcripts": [transcript_export(interrogation=i.interrogation) for i in rows]}


def sessions_visible(*, user):
    sessions = Session.objects.select_related("committee", "computer").order_by("-starts_at")
    if can_manage(user):
        return sessions
    if not user.is_authenticated:
        return sessions.none()
    return sessions.filter(judges__user=user).distinct() | sessions.filter(committee__members__user=user).distinct()


def trial_result(*, trial: Trial) -> TrialResult:
    judges = list(trial.session.judges.all())
    rows = list(TrialVerdict.objects.filter(trial=trial))
    done = {r.judge_id for r in rows}
    result = TrialResult(
        trial=trial, complete=all(j.user_id in done for j in judges), judges_done=len(done), judges=len(judges)
    )
    if result.complete:
        label = {j.user_id: j.label for j in judges}
        verdicts, ranks = {}, {}
        for r in rows:
            verdicts.setdefault(label[r.judge_id], {})[r.candidate] = r.verdict
            ranks.setdefault(label[r.judge_id], {})[r.candidate] = r.rank
        result.score = rules.trial_score(verdicts, ranks, trial=trial.number, candidates=list(trial.aliases))
    return result


def session_result(*, session: Session) -> SessionResult:
    result = SessionResult(session=session, trials=[trial_result(trial=t) for t in session.trials.all()])
    scored = [t.score for t in result.trials if t.score is not None]
    result.trials_passed = sum(s.passed for s in scored)
    result.complete = bool(result.trials) and all(t.complete for t in result.trials)
    if result.complete:
        result.passed = rules.session_passed([s.passed for s in scored], session.aggregation)
    return result


def session_document(*, session: Session) -> dict:
    """The score JSON of a session (the `wager score` output, from its stored verdicts)."""
    result = session_result(session=session)
    trials = [t.score.as_dict() for t in result.trials if t.score is not None]
    return {"trials": trials, "passed": result.passed if result.complete else None}


@dataclass
class JudgeInterview:
    slot: int
    alias: str
    starts_at: object
    status: str
    public_id: object


def judge_trials(*, session: Session, user) -> list[dict]:
    """What a judge sees of a session: per trial, their own interviews by alias (never who the candidate is),
    whether they may give their verdicts now, and the ones they gave."""
    out = []
    for trial in session.trials.all():
        interviews = [
            JudgeInterview(
                i.slot, trial.aliases[i.candidate], i.starts_at, i.interrogation.status, i.interrogation.public_id
            )
            for i in trial.interviews.filter(judge=user).select_related("interrogation").order_by("slot")
        ]
        given = {trial.aliases[v.candidate]: v for v in TrialVerdict.objects.filter(trial=trial, judge=user)}
        out.append(
            {
                "trial": trial,
                "interviews": interviews,
                "given": dict(sorted(given.items())),
                "aliases": sorted(trial.aliases.values()),
                "can_judge": bool(interviews)
                and not given
                and all(i.status in (Status.ENDED, Status.ABORTED) for i in interviews),
            }
        )
    return out


def calendar(*, session: Session) -> list[Interview]:
    """Every interview with its judge, candidate and status (organisers and the committee only)."""
    return list(
        Interview.objects.filter(trial__session=session)
        .select_related("trial", "judge", "interrogation")
        .order_by("trial__number", "starts_at", "slot", "judge_id")
    )


def report(*, session: Session) -> dict:
    """The printable report: the setting, the results with the committee's aggregation, the amendments and
    votes, and every interview's signed chain head with the procedure to verify it."""
    result = session_result(session=session)
    interviews = []
    rows = (
        Interview.objects.filter(trial__session=session)
        .select_related("trial", "interrogation")
        .prefetch_related(Prefetch("interrogation__conversations__seal", queryset=ConversationSeal.objects.all()))
    )
    labels = {j.user_id: j.label for j in session.judges.all()}
    for interview in rows.order_by("trial__number", "slot", "judge_id"):
        conversation = interview.interrogation.conversations.all()[0]
        seal = getattr(conversation, "seal", None)
        trial_done = next(t.complete for t in result.trials if t.trial.pk == interview.trial_id)
        interviews.append(
            {
                "trial": interview.trial.number,
                "slot": interview.slot,
                "judge": labels.get(interview.judge_id, "?"),
                "candidate": interview.candidate
                if trial_done
                else f"(until the trial's verdicts are in: Candidate {interview.trial.aliases[interview.candidate]})",
                "status": interview.interrogation.status,
                "interrogation": interview.interrogation,
                "transcript": interview.interrogation.status in FINISHED,
                "seal": seal,
            }
        )
    return {
        "result": result,
        "interviews": interviews,
        "amendments": list(session.amendments.all()),
        "committee_amendments": list(session.committee.amendments.filter(session__isnull=True)),
        "votes": list(session.committee.votes.prefetch_related("ballots__member")),
        "members": list(session.committee.members.all()),
        "keys": transcript_keys.public_keys_document()["keys"],
    }


# --- what the judges may know, and what they must do next -----------------------------------------


def results_published(*, session: Session, result: SessionResult | None = None) -> bool:
    """A session's results are published once every trial's verdicts are in: its report is public then. Until
    then its judges are told neither which candidate was the computer nor how any trial scored."""
    return (result or session_result(session=session)).complete


def interrogation_reveal_allowed(interrogation_id: int) -> bool:
    """The arena's reveal rule for the sessions (``arena.services.verdicts.reveal_rule_register``): an
    interview's truth waits for its session's published results. True for an interrogation that is no
    interview."""
    interview = Interview.objects.filter(interrogation_id=interrogation_id).select_related("trial__session").first()
    return interview is None or results_published(session=interview.trial.session)


def judge_next_steps(user):
    """The sessions' source of ``arena.next_steps``: for each session where ``user`` judges and the results
    are not in, their interview on now, their next interview, or a trial's verdicts they may give now; it
    speaks for every interview of theirs."""
    from django.urls import reverse

    from arena.next_steps import RUNNING, SCHEDULED, VERDICT, FormatSteps, NextStep, console_url

    found = FormatSteps()
    interviews = list(
        Interview.objects.filter(judge=user)
        .select_related("trial__session", "interrogation")
        .order_by("trial__session_id", "starts_at", "slot")
    )
    found.claimed = {i.interrogation_id for i in interviews}
    sessions = {i.trial.session_id: i.trial.session for i in interviews}
    for session in sessions.values():
        if results_published(session=session):
            continue
        mine = [i for i in interviews if i.trial.session_id == session.pk]
        upcoming = None
        for i in mine:
            where = f"{session.title}, trial {i.trial.number}: Candidate {i.trial.aliases.get(i.candidate, '?')}"
            url, status = console_url(i.interrogation), i.interrogation.status
            if status == Status.RUNNING:
                found.steps.append(NextStep(f"{where}: on now", url, RUNNING, None, i.interrogation_id))
            elif status == Status.SCHEDULED and upcoming is None:
                upcoming = NextStep(f"{where}: your next interview", url, SCHEDULED, i.starts_at, i.interrogation_id)
        if upcoming is not None:
            found.steps.append(upcoming)
        url = reverse("wager:session", args=[session.pk])
        found.steps += [
            NextStep(f"{session.title}, trial {row['trial'].number}: give your verdicts", url, VERDICT)
            for row in judge_trials(session=session, user=user)
            if row["can_judge"]
        ]
    return found
