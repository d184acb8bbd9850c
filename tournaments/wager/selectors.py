"""Reads: results per trial and per session, what a judge may see, the report with its signed chain heads."""

from dataclasses import dataclass, field

from django.db.models import Prefetch

from arena import roles, transcript_keys
from arena.models import ConversationSeal, Status
from tournaments.wager import rules
from tournaments.wager.models import Interview, Session, Trial, TrialVerdict

VERIFY_STEPS = [
    "Download the transcript of each interview listed below (its JSON link, once the session is published) and "
    "the platform's public keys from /transcripts/keys.json; check that the key id printed here is among them.",
    "Run `python -m core.hashchain verify transcript.json --key keys.json` (core/hashchain.py of the platform's "
    "source: it needs only Python and the cryptography package). It recomputes every message's SHA-256 link "
    "from the first to the last and checks the Ed25519 signature over the message count and head hash.",
    "Compare the message count and head hash it prints with those printed in this report. A message edited, "
    "inserted or removed (the last one included) changes the head or the count, and breaks the signature.",
    "On the platform itself: `python manage.py verify_transcript <interview id>` does all of this.",
]


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
                "published": interview.interrogation.published_at is not None,
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
        "verify_steps": VERIFY_STEPS,
    }
