"""Shared set-up for the wager tests: a session of the cast (three judges, three foils, the simple bot)."""

import datetime as dt

from django.utils import timezone

from arena import roles
from arena import services as arena
from arena.models import Message
from tests.conftest import make_user
from tournaments.wager import services
from tournaments.wager.models import Committee, CommitteeMember


def committee_of_three(by=None) -> Committee:
    committee = Committee.objects.create(name="The Turing Test Committee")
    for role, name, how in (
        ("for_pass", "Rae", "party"),
        ("against_pass", "Mitch", "party"),
        ("third", "Tess", "members"),
    ):
        services.committee_member_appoint(committee=committee, name=name, role=role, appointed_by=how, by=by)
    return committee


def people(cast):
    judy = make_user("judy", roles.JUDGE)
    cora = make_user("cora", roles.CONFEDERATE)
    return [cast.jude, cast.june, judy], [cast.connie, cast.carl, cora]


def wager_session(
    cast,
    *,
    minutes=120,
    trials=3,
    aggregation="majority",
    rehearsal=False,
    title="Wager 2029",
    committee=None,
    **options,
):
    """``options``: more of ``session_create``'s keywords (spectator_markets, spectator_delay_s, …);
    ``committee``: a committee of the test's own instead of a full one."""
    judges, foils = people(cast)
    return services.session_create(
        committee=committee or committee_of_three(by=cast.olivia),
        title=title,
        computer=cast.simple,
        judges=judges,
        foils=foils,
        starts_at=timezone.now() + dt.timedelta(hours=1),
        called_by="Rae",
        called_by_kind="member",
        funded_by="Rae",
        trials=trials,
        interview_minutes=minutes,
        aggregation=aggregation,
        rehearsal=rehearsal,
        seed="test",
        by=cast.olivia,
        **options,
    )


def run_trial(trial, *, say: bool = False):
    """Start and end every interview of a trial (a foil's answer typed in each, with `say`)."""
    for interview in trial.interviews.select_related("interrogation"):
        arena.interrogation_start(interrogation_id=interview.interrogation_id)
        if say:
            conversation = interview.interrogation.conversations.get()
            arena.message_post(
                conversation_id=conversation.pk,
                sender_role=Message.Role.INTERROGATOR,
                text="hello?",
                user=interview.judge,
            )
            if conversation.witness_human_id:
                arena.message_post(
                    conversation_id=conversation.pk,
                    sender_role=Message.Role.WITNESS,
                    text="hi, judge",
                    user=conversation.witness_human,
                )
        arena.interrogation_end(interrogation_id=interview.interrogation_id, reason="judge")


def judge_all(trial, table):
    """table: {judge user: ({candidate: verdict}, {candidate: rank})}, given by alias as a judge does."""
    for judge, (verdicts, ranks) in table.items():
        services.trial_verdicts_submit(
            trial_id=trial.pk,
            judge=judge,
            verdicts={trial.aliases[c]: v for c, v in verdicts.items()},
            ranks={trial.aliases[c]: r for c, r in ranks.items()},
        )


def fooled_by(trial, judges, fooled: int, ranks=None):
    """The first `fooled` judges take the computer for a human; everyone ranks as `ranks`."""
    ranks = ranks or {"computer": 4, "F1": 3, "F2": 2, "F3": 1}
    judge_all(
        trial,
        {
            j: (
                {"computer": "human" if i < fooled else "machine", "F1": "human", "F2": "human", "F3": "human"},
                dict(ranks),
            )
            for i, j in enumerate(judges)
        },
    )


__all__ = ["CommitteeMember", "committee_of_three", "fooled_by", "judge_all", "people", "run_trial", "wager_session"]
