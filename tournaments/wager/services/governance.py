"""The committee: its members, rules amendments (only for the four reasons the rules list) and votes on
its deadlocks."""

from django.db import transaction
from django.utils import timezone

from arena.services.messages import clean_text
from core.errors import Closed, InvalidInput, NotAllowed
from tournaments.wager.models import Amendment, Ballot, Committee, CommitteeMember, DeadlockVote, Session
from tournaments.wager.services.audit import audit_record

TEXT_MAX_CHARS = 20_000
NAME_MAX_CHARS = 500


def _name(value, what: str, cap: int = 200) -> str:
    return clean_text(value, max_chars=cap, what=what)


def committee_member_appoint(
    *, committee: Committee, name: str, role: str, appointed_by: str, user=None, by=None
) -> CommitteeMember:
    """Seat a member. The rules: one member designated by each party (or, a party not available, appointed
    by the Foundation); the third appointed by those two, or by the Foundation if they cannot agree."""
    if role not in CommitteeMember.Role.values:
        raise InvalidInput(f"role must be one of {', '.join(CommitteeMember.Role.values)}.")
    allowed = ["members", "foundation"] if role == CommitteeMember.Role.THIRD else ["party", "foundation"]
    if appointed_by not in allowed:
        raise InvalidInput(f"The {role} member is appointed by {' or '.join(allowed)}, not {appointed_by!r}.")
    if (
        role == CommitteeMember.Role.THIRD
        and appointed_by == "members"
        and committee.members.exclude(role=CommitteeMember.Role.THIRD).count() < 2
    ):
        raise InvalidInput("The third member is appointed by the other two: seat them first.")
    if committee.members.filter(role=role).exists():
        raise InvalidInput(f"The committee already has its {role} member.")
    member = CommitteeMember.objects.create(
        committee=committee,
        name=_name(name, "member's name"),
        role=role,
        appointed_by=appointed_by,
        user=user,
        appointed_at=timezone.now().date(),
    )
    audit_record(
        actor=by,
        action="committee.member_appoint",
        detail={"committee": committee.name, "member": member.name, "role": role, "appointed_by": appointed_by},
    )
    return member


def amendment_record(
    *,
    committee: Committee,
    reason: str,
    agreed_by: str,
    agreed_names: str,
    text: str,
    session: Session | None = None,
    by=None,
) -> Amendment:
    """Record a change of the General Rules: who agreed, why (one of the four reasons), and the new text."""
    if reason not in Amendment.Reason.values:
        raise InvalidInput(
            "The rules may be changed only if they (i) are inconsistent, (ii) are inconsistent with "
            "Turing's intent, (iii) are unfair or (iv) are infeasible: reason must be one of "
            f"{', '.join(Amendment.Reason.values)}."
        )
    if agreed_by not in Amendment.AgreedBy.values:
        raise InvalidInput(f"agreed_by must be one of {', '.join(Amendment.AgreedBy.values)}.")
    if session is not None and session.committee_id != committee.pk:
        raise InvalidInput("That session belongs to another committee.")
    amendment = Amendment.objects.create(
        committee=committee,
        session=session,
        reason=reason,
        agreed_by=agreed_by,
        agreed_names=_name(agreed_names, "list of who agreed", NAME_MAX_CHARS),
        text=clean_text(text, max_chars=TEXT_MAX_CHARS, what="amendment"),
        agreed_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action="rules.amend",
        session=session,
        detail={
            "amendment": amendment.pk,
            "reason": reason,
            "agreed_by": agreed_by,
            "agreed_names": amendment.agreed_names,
        },
    )
    return amendment


def deadlock_vote_open(*, committee: Committee, question: str, session: Session | None = None, by=None) -> DeadlockVote:
    vote = DeadlockVote.objects.create(
        committee=committee,
        session=session,
        opened_at=timezone.now(),
        question=clean_text(question, max_chars=TEXT_MAX_CHARS, what="question"),
    )
    audit_record(
        actor=by, action="committee.vote_open", session=session, detail={"vote": vote.pk, "question": vote.question}
    )
    return vote


def ballot_cast(*, vote_id: int, member: CommitteeMember, choice: str, by=None) -> DeadlockVote:
    """One member's ballot; the vote is decided by a majority of the three members (yes, no), or tied."""
    if choice not in Ballot.Choice.values:
        raise InvalidInput("choice must be yes, no or abstain.")
    with transaction.atomic():
        vote = DeadlockVote.objects.select_for_update().get(pk=vote_id)
        if member.committee_id != vote.committee_id:
            raise NotAllowed("Only the committee's members vote on its deadlocks.")
        if vote.decided_at is not None:
            raise Closed("This vote is decided.")
        if vote.ballots.filter(member=member).exists():
            raise Closed(f"{member.name} has voted already.")
        Ballot.objects.create(vote=vote, member=member, choice=choice, cast_at=timezone.now())
        choices = list(vote.ballots.values_list("choice", flat=True))
        seats = max(3, vote.committee.members.count())
        for side in ("yes", "no"):
            if choices.count(side) * 2 > seats:
                vote.outcome = side
        if not vote.outcome and len(choices) >= seats:
            vote.outcome = "tied"
        if vote.outcome:
            vote.decided_at = timezone.now()
            vote.save(update_fields=["outcome", "decided_at"])
        audit_record(
            actor=by,
            action="committee.ballot",
            session=vote.session,
            detail={"vote": vote.pk, "member": member.name, "choice": choice, "outcome": vote.outcome},
        )
    return vote
