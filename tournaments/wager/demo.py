"""Demo data: a wager session with one finished trial (verdicts, ranks, sealed transcripts) and one in
progress (its first slot running). Idempotent: a second run changes nothing."""

import random

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from arena import roles
from arena.models import Entry
from arena.setup import ensure_role_groups
from tournaments.wager import rules
from tournaments.wager.models import Committee, CommitteeMember, Session
from tournaments.wager.services.governance import amendment_record, committee_member_appoint
from tournaments.wager.services.rehearsal import FAST, foil_bots, interview_bots_run, trial_bots_judge
from tournaments.wager.services.sessions import session_create, trial_span_of

TITLE = "Demo Turing Test Session"
COMMITTEE = "Demo Turing Test Committee"
JUDGES = ["wager-judge1", "wager-judge2", "wager-judge3"]
FOILS = ["wager-foil1", "wager-foil2", "wager-foil3"]
SEED = "demo"

MINUTES = 120  # each interview's length


def _person(username: str, role: str):
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_password(f"{username}-demo")
        user.save(update_fields=["password"])
    user.groups.add(*Group.objects.filter(name=role))
    return user


def demo_wager_seed(*, reply_timeout_s: float = 5.0) -> tuple[Session, list[tuple[str, str, str]]]:
    ensure_role_groups()
    existing = Session.objects.filter(title=TITLE).first()
    logins = [(u, f"{u}-demo", "wager judge") for u in JUDGES] + [(u, f"{u}-demo", "wager foil") for u in FOILS]
    if existing is not None:
        return existing, logins
    judges = [_person(u, roles.JUDGE) for u in JUDGES]
    foils = [_person(u, roles.CONFEDERATE) for u in FOILS]
    computer, _ = Entry.objects.get_or_create(
        display_name="ELIZA (wager demo)", defaults={"engine": "eliza", "settings": dict(FAST)}
    )
    committee, created = Committee.objects.get_or_create(name=COMMITTEE)
    if created:
        committee_member_appoint(
            committee=committee,
            name="Rae (designated by Ray Kurzweil)",
            role=CommitteeMember.Role.FOR_PASS,
            appointed_by="party",
        )
        committee_member_appoint(
            committee=committee,
            name="Mitch (designated by Mitchell Kapor)",
            role=CommitteeMember.Role.AGAINST_PASS,
            appointed_by="party",
        )
        committee_member_appoint(
            committee=committee,
            name="Tess (appointed by the two)",
            role=CommitteeMember.Role.THIRD,
            appointed_by="members",
        )
    session = session_create(
        committee=committee,
        title=TITLE,
        computer=computer,
        judges=judges,
        foils=foils,
        # trial 1 (played below) lies wholly in the past and trial 2 begins now, so the calendar's times
        # agree with what each interview shows: ended, running, scheduled
        starts_at=timezone.now()
        - trial_span_of(plan=rules.slot_plan(judges=len(judges), candidates=len(foils) + 1, hours=2)),
        called_by="Rae (committee member)",
        called_by_kind=Session.CalledBy.MEMBER,
        funded_by="Rae (raised the funds)",
        trials=3,
        interview_minutes=MINUTES,
        seed=SEED,
    )
    amendment_record(
        committee=committee,
        session=session,
        reason="infeasible",
        agreed_by="parties",
        agreed_names="Ray Kurzweil, Mitchell Kapor",
        text="Terminals are the participants' own browsers; 'instant messaging as understood in 2001' is "
        "the platform's plain one-line chat console.",
    )
    rng = random.Random(SEED)
    foil_reply = foil_bots(users=foils, engine="simple", seed=SEED)
    first, second = session.trials.all()[:2]
    for interview in first.interviews.select_related("interrogation", "judge").order_by("slot", "judge_id"):
        interview_bots_run(interview, rng=rng, turns=2, foil_reply=foil_reply, reply_timeout_s=reply_timeout_s)
    trial_bots_judge(trial=first, judges=judges, rng=rng)
    for interview in second.interviews.filter(slot=1).select_related("interrogation", "judge"):
        interview_bots_run(
            interview, rng=rng, turns=1, foil_reply=foil_reply, reply_timeout_s=reply_timeout_s, end=False
        )
    return session, logins
