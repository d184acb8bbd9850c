"""A rehearsal: a whole session with bot judges and bot foils, through the real services.

Bot judges and foils are ordinary user accounts (created once, with no usable password) whose turns are
typed by this module: a judge asks questions from a small bank (seeded), a foil answers with an engine
through the one engine gateway, the computer answers as in any interview (its entry's reply task). Each
interview is started by its judge, runs on the arena's stored deadline, and the bot judge ends it early
after `turns` exchanges (so a rehearsal of 2-minute interviews does not take 2 minutes each); then it is
sealed as every interview is. After each trial every bot judge gives its verdicts and ranks by alias
(seeded). Interviews of one slot run one after another in this process.
"""

import random
import time

from django.contrib.auth import get_user_model
from django.utils import timezone

from arena.models import Entry, Message, Status
from arena.services.engines import engine_standalone_reply
from arena.services.interrogations import interrogation_end, interrogation_start
from arena.services.messages import message_post
from core.errors import Closed, InvalidInput
from tournaments.wager.models import Committee, CommitteeMember, Interview, Session
from tournaments.wager.services.governance import committee_member_appoint
from tournaments.wager.services.sessions import session_create
from tournaments.wager.services.verdicts import trial_verdicts_submit

QUESTIONS = [
    "Hello! What did you have for breakfast today?",
    "What is the last film you saw, and did you like it?",
    "What is 17 times 23?",
    "Where did you grow up?",
    "What would you do with a free afternoon?",
    "Can you describe the room you are sitting in?",
    "What is your earliest memory?",
    "Which do you prefer, cats or dogs, and why?",
    "What did you think of the weather this week?",
    "Tell me a joke you actually find funny.",
    "What is something you changed your mind about?",
    "How do you usually get to work?",
]
FAST = {"think_s": 0, "per_char_s": 0, "jitter": 0, "max_s": 0}
COMMITTEE = "Rehearsal committee"


def bot_user(username: str):
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def rehearsal_committee() -> Committee:
    committee, created = Committee.objects.get_or_create(name=COMMITTEE)
    if created:
        for role, name in (
            (CommitteeMember.Role.FOR_PASS, "Rehearsal member (for a pass)"),
            (CommitteeMember.Role.AGAINST_PASS, "Rehearsal member (against a pass)"),
            (CommitteeMember.Role.THIRD, "Rehearsal member (third)"),
        ):
            committee_member_appoint(
                committee=committee, name=name, role=role, appointed_by="members" if role == "third" else "party"
            )
    return committee


def rehearsal_computer(*, engine: str) -> Entry:
    entry, _ = Entry.objects.get_or_create(
        display_name=f"Rehearsal computer ({engine})"[:100], defaults={"engine": engine, "settings": dict(FAST)}
    )
    return entry


def _wait_for_reply(conversation, after_seq: int, timeout_s: float) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if conversation.messages.filter(seq__gt=after_seq, sender_role=Message.Role.WITNESS).exists():
            return True
        time.sleep(0.02)
    return False


def interview_bots_run(
    interview: Interview, *, rng: random.Random, turns: int, foil_reply, reply_timeout_s: float, end: bool = True
) -> None:
    """The bot judge starts the interview, asks `turns` questions (a foil answers through `foil_reply`, the
    computer through its reply task) and, with `end`, ends it early."""
    interrogation = interview.interrogation
    judge = interview.judge
    try:
        interrogation_start(interrogation_id=interrogation.pk, by=judge)
    except Closed:
        interrogation.refresh_from_db()
        if interrogation.status != Status.RUNNING:
            raise  # not started on time by the sweep either: over, or aborted
    conversation = interrogation.conversations.get()
    try:
        for _ in range(turns):
            question = message_post(
                conversation_id=conversation.pk,
                sender_role=Message.Role.INTERROGATOR,
                text=rng.choice(QUESTIONS),
                user=judge,
            )
            if conversation.witness_is_machine:
                _wait_for_reply(conversation, question.seq, reply_timeout_s)
            else:
                history = [
                    (m.sender_role, m.text) for m in conversation.messages.filter(seq__lt=question.seq).order_by("seq")
                ]
                answer = foil_reply(conversation.witness_human_id, history, question.text)
                message_post(
                    conversation_id=conversation.pk,
                    sender_role=Message.Role.WITNESS,
                    text=answer or "Hmm.",
                    user=conversation.witness_human,
                )
    except Closed:
        pass  # time ran out (interviews shorter than the bots' turns): the arena has ended it
    if end:
        interrogation_end(interrogation_id=interrogation.pk, reason="judge", by=judge)


def rehearsal_run(
    *,
    trials: int = 3,
    minutes: int = 2,
    seed: str = "rehearsal",
    judges: int = 3,
    foils: int = 3,
    turns: int = 3,
    engine: str = "eliza",
    foil_engine: str = "simple",
    entry: Entry | None = None,
    reply_timeout_s: float = 10.0,
    progress=None,
) -> Session:
    """Create and run a rehearsal session; returns it with every trial's verdicts in."""
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 50:
        raise InvalidInput("turns must be a whole number from 1 to 50.")
    rng = random.Random(seed)
    computer = entry or rehearsal_computer(engine=engine)
    judge_users = [bot_user(f"rehearsal-judge-{i}") for i in range(1, judges + 1)]
    foil_users = [bot_user(f"rehearsal-foil-{i}") for i in range(1, foils + 1)]
    foil_reply = foil_bots(users=foil_users, engine=foil_engine, seed=str(seed))

    session = session_create(
        committee=rehearsal_committee(),
        title=f"Rehearsal {timezone.now():%Y-%m-%d %H:%M:%S} seed {seed}"[:200],
        computer=computer,
        judges=judge_users,
        foils=foil_users,
        starts_at=timezone.now(),
        called_by="wager rehearse",
        called_by_kind=Session.CalledBy.FOUNDATION,
        funded_by="nobody (a rehearsal)",
        trials=trials,
        interview_minutes=minutes,
        rehearsal=True,
        seed=str(seed),
    )
    for trial in session.trials.all():
        for interview in trial.interviews.select_related("interrogation", "judge").order_by("slot", "judge_id"):
            interview_bots_run(interview, rng=rng, turns=turns, foil_reply=foil_reply, reply_timeout_s=reply_timeout_s)
            if progress:
                progress(
                    f"trial {trial.number} slot {interview.slot}: {interview.judge} – Candidate "
                    f"{trial.aliases[interview.candidate]}"
                )
        trial_bots_judge(trial=trial, judges=judge_users, rng=rng)
    return session


def foil_bots(*, users, engine: str, seed: str):
    """`reply(user_id, history, message)`: each bot foil's answers, typed by `engine` through the gateway."""
    engines = {
        u.pk: engine_standalone_reply(engine=engine, engine_settings={}, key=f"{seed}:{u.username}") for u in users
    }
    return lambda user_id, history, message: engines[user_id](history, message)


def trial_bots_judge(*, trial, judges, rng: random.Random) -> None:
    """Each bot judge's verdicts and ranks for the trial, by alias (seeded)."""
    aliases = sorted(trial.aliases.values())
    for judge in judges:
        ranks = list(range(1, len(aliases) + 1))
        rng.shuffle(ranks)
        trial_verdicts_submit(
            trial_id=trial.pk,
            judge=judge,
            verdicts={a: rng.choice(["human", "machine"]) for a in aliases},
            ranks=dict(zip(aliases, ranks)),
        )
