"""A rehearsal: a whole contest played through the real services by bots (oTree-style bot participants):
entrants enter built-in engines, a bot organiser checks and scores qualifying, bot judges question both
witnesses and give their verdicts and ranks, bot confederates answer. Every step is the service a person's
click calls; only the clock is fast-forwarded, so a contest of hours takes seconds."""

import datetime as dt
import random
import time
import uuid

from django.contrib.auth import get_user_model
from django.db import transaction

from arena import roles
from arena.models import Entry, Message, Status
from arena.services import message_post, verdict_submit
from arena.services.timing import interrogation_deadline_move
from arena.setup import ensure_role_groups
from core.errors import ArenaError
from tournaments.loebner import selectors
from tournaments.loebner.models import (
    Contest,
    Meeting,
    QualifyingAnswer,
    QualifyingSubject,
    Question,
    QuestionSet,
    Round,
)
from tournaments.loebner.questions import question_sets_load
from tournaments.loebner.services import entries, judging, publication, qualifying, rounds

ENGINES = ("simple", "eliza")
FAST = {"think_s": 0, "per_char_s": 0, "jitter": 0}
JUDGE_LINES = (
    "Hello! How are you today?",
    "What did you have for breakfast?",
    "Which is larger, a grape or a grapefruit?",
    "What would I use a hammer for?",
    "Tell me about the place where you grew up.",
)
CONFEDERATE_LINES = (
    "Hi! A bit tired, but fine, thanks.",
    "Toast and far too much coffee.",
    "A grapefruit, obviously.",
    "Nails, mostly. Sometimes my thumb.",
    "A small town by the sea; windy, lots of gulls.",
)
REPLY_WAIT_S = 3.0  # how long a bot judge waits for a machine's reply before its next question


def _user(username: str, role: str):
    from django.contrib.auth.models import Group

    user, _ = get_user_model().objects.get_or_create(username=username)
    user.groups.add(Group.objects.get(name=role))
    return user


def _fast_forward(round_: Round, seconds: float) -> Round:
    """Move the round's clock on by ``seconds`` (and its running interrogations' deadlines)."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        round_.started_at -= dt.timedelta(seconds=seconds)
        round_.save(update_fields=["started_at"])
        for meeting in round_.meetings.filter(interrogation__status=Status.RUNNING).select_related("interrogation"):
            interrogation_deadline_move(
                interrogation_id=meeting.interrogation_id,
                deadline=meeting.interrogation.deadline - dt.timedelta(seconds=seconds),
            )
    rounds.round_tick(round_id=round_.pk)
    return round_


def _await_reply(conversation_id: int, after_seq: int) -> None:
    deadline = time.monotonic() + REPLY_WAIT_S
    while time.monotonic() < deadline:
        if Message.objects.filter(conversation_id=conversation_id, seq__gt=after_seq, sender_role="witness").exists():
            return
        time.sleep(0.05)


def _talk(meeting: Meeting, side: str, rng: random.Random, questions: int) -> None:
    conversation = meeting.interrogation.conversations.get(side=side)
    if conversation.status != Status.RUNNING:
        return
    for line in rng.sample(range(len(JUDGE_LINES)), questions):
        try:
            asked = message_post(
                conversation_id=conversation.pk,
                sender_role=Message.Role.INTERROGATOR,
                text=JUDGE_LINES[line],
                user=meeting.judge.user,
            )
            if conversation.witness_human_id:
                message_post(
                    conversation_id=conversation.pk,
                    sender_role=Message.Role.WITNESS,
                    text=CONFEDERATE_LINES[line],
                    user=conversation.witness_human,
                )
            else:
                _await_reply(conversation.pk, asked.seq)
        except ArenaError:
            return


def _qualify(contest: Contest, rng: random.Random, organiser) -> None:
    for item in contest.entries.filter(qualified=True):
        subject, _ = QualifyingSubject.objects.get_or_create(contest=contest, contest_entry=item)
        qualifying.qualifying_ask(subject_id=subject.pk)
    for answer in QualifyingAnswer.objects.filter(subject__contest=contest):
        qualifying.answer_score(answer_id=answer.pk, score=rng.choice((0, 1, 2)) if answer.ok else 0, by=organiser)
    qualifying.finalists_pick(contest_id=contest.pk)


def contest_rehearse(
    *,
    format_name: str,
    seed: int,
    entries_count: int | None = None,
    questions: int = 2,
    accuracy: float = 0.75,
    name: str | None = None,
    play_rounds: int | None = None,
    tag: str | None = None,
    judges: list | None = None,
    confederates: list | None = None,
) -> dict:
    """Play a whole contest of ``format_name`` with bots; the rules' ``contest_score`` of it, plus where
    it is stored (``contest_id``). Bot judges pick the human right with probability ``accuracy``.
    ``play_rounds`` stops after that many rounds (the rest stay scheduled, nothing is published);
    ``judges`` and ``confederates`` (users) take the first places (J1…, C1…), bots the others; ``tag``
    names the bots' users and entries (default: the seed and a random suffix)."""
    from tournaments.loebner.rules.formats import format_get

    ensure_role_groups()
    rng = random.Random(seed)
    fmt = format_get(format_name, entries=entries_count)
    tag = tag or f"{seed}-{uuid.uuid4().hex[:6]}"
    organiser = _user(f"rehearsal-organiser-{tag}", roles.ORGANISER)
    entrant = _user(f"rehearsal-entrant-{tag}", roles.ENTRANT)
    question_sets_load(QuestionSet, Question)
    question_set = QuestionSet.objects.filter(name__startswith="2009").first()
    contest = Contest.objects.create(
        name=name or f"Rehearsal {format_name} seed {seed} ({tag})",
        format_name=format_name,
        seed=seed,
        status=Contest.Status.OPEN,
        question_set=question_set,
        finalists=fmt.entries,
        qualifying_limit=max(16, fmt.entries),
    )
    for i in range(1, fmt.entries + 1):
        engine = ENGINES[(i - 1) % len(ENGINES)]
        entry = Entry.objects.create(
            owner=entrant, display_name=f"Rehearsal {tag} bot {i} ({engine})", engine=engine, settings=dict(FAST)
        )
        item = entries.contest_enter(
            contest_id=contest.pk,
            entry_id=entry.pk,
            entrant=entrant,
            people=[f"Entrant {tag} {i}"],
            rights_statement=True,
        )
        entries.entry_check(contest_entry_id=item.pk, compliant=True)
    entries.contest_close(contest_id=contest.pk)
    _qualify(contest, rng, organiser)
    judges = [*(judges or []), *(_user(f"rehearsal-judge-{tag}-{i}", roles.JUDGE) for i in range(1, fmt.judges + 1))]
    confederates = [
        *(confederates or []),
        *(_user(f"rehearsal-confederate-{tag}-{i}", roles.CONFEDERATE) for i in range(1, fmt.confederates + 1)),
    ]
    rounds.participants_assign(
        contest_id=contest.pk, judges=judges[: fmt.judges], confederates=confederates[: fmt.confederates]
    )
    fmt = selectors.contest_format(contest=contest)
    talk = selectors.talk_seconds(fmt)
    for round_ in rounds.schedule_create(contest_id=contest.pk)[:play_rounds]:
        rounds.round_start(round_id=round_.pk)
        meetings = list(round_.meetings.select_related("judge__user", "interrogation"))
        for side in ("left", "right") if fmt.mode == "simultaneous" else ("left",):
            for meeting in meetings:
                _talk(meeting, side, rng, questions)
        if fmt.mode == "sequential":
            _fast_forward(round_, talk / 2)
            for meeting in meetings:
                _talk(meeting, "right", rng, questions)
        rounds.round_finish(round_id=round_.pk)  # its meetings end, and the round with them
        for meeting in meetings:
            truth = "left" if meeting.left == Meeting.Left.CONFEDERATE else "right"
            pick = truth if rng.random() < accuracy else ("right" if truth == "left" else "left")
            verdict_submit(
                interrogation_id=meeting.interrogation_id,
                judge=meeting.judge.user,
                choice=pick,
                confidence=rng.randint(50, 100),
                reason="rehearsal bot judge",
            )
    judging.judgments_sync(contest_id=contest.pk)
    if fmt.ranking and play_rounds is None:
        for judge in contest.participants.filter(kind="judge").select_related("user"):
            rankable, _ = selectors.judge_rankable(contest=contest, judge=judge, ranking=fmt.ranking)
            labels = [p.label for p in rankable]
            ranks = rng.sample(range(1, len(labels) + 1), len(labels))
            judging.ranks_submit(contest_id=contest.pk, judge=judge.user, ranks=dict(zip(labels, ranks)))
    if play_rounds is None:
        publication.contest_publish(contest_id=contest.pk)
    score, problem = selectors.contest_scored(contest=Contest.objects.get(pk=contest.pk))
    names = {p.label: p.name for p in contest.participants.filter(kind="entry").select_related("contest_entry__entry")}
    return {
        **(score or {}),
        "problem": problem or None,
        "contest_id": contest.pk,
        "format": format_name,
        "seed": seed,
        "names": names,
    }
