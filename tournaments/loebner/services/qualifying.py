"""Qualifying: every qualified entry is asked the contest's questions through the engine gateway, in
one stateful conversation per entry, all entries at once (one task each), so qualifying takes the time
of its slowest entry. Answers are scored 0/1/2 by the organiser or by audience votes; human control
subjects answer the same questions; the ranking (shared ranks) and the finalists come from the rules."""

from django.db import transaction
from django.utils import timezone

from arena.services.engines import engine_reply, reply_context_build
from core.dispatch import enqueue_on_commit
from core.errors import Closed, InvalidInput, NotAllowed
from tournaments.loebner.models import (
    AudienceVote,
    Contest,
    ContestEntry,
    Participant,
    QualifyingAnswer,
    QualifyingSubject,
)
from tournaments.loebner.selectors import contest_clock, qualifying_scores


def qualifying_start(*, contest_id: int) -> list[QualifyingSubject]:
    """One subject per qualified entry, and one ask task per subject, enqueued on commit."""
    from tournaments.loebner.tasks import qualifying_ask_task

    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status != Contest.Status.QUALIFYING:
            raise Closed(f"The contest is {contest.get_status_display()}, not in qualifying.")
        if contest.question_set_id is None or not contest.question_set.questions.exists():
            raise InvalidInput("Choose a question set with questions for this contest first.")
        subjects = []
        for item in contest.entries.filter(qualified=True).order_by("received_at", "pk"):
            subject, _ = QualifyingSubject.objects.get_or_create(contest=contest, contest_entry=item)
            if subject.status in (QualifyingSubject.Status.WAITING, QualifyingSubject.Status.FAILED):
                subjects.append(subject)
                enqueue_on_commit(qualifying_ask_task, subject.pk)
    return subjects


def _fill(expects: str, clock: dict) -> str:
    try:
        return expects.format(**clock)
    except (KeyError, IndexError, ValueError):
        return expects


def qualifying_ask(*, subject_id: int) -> QualifyingSubject:
    """Ask one entry every question in order, in one conversation (each question sees the earlier
    turns). Claims the subject first (compare-and-set), so a redelivered task asks nothing twice."""
    claimed = QualifyingSubject.objects.filter(
        pk=subject_id,
        status__in=[QualifyingSubject.Status.WAITING, QualifyingSubject.Status.FAILED],
    ).update(status=QualifyingSubject.Status.ASKING, started_at=timezone.now())
    subject = QualifyingSubject.objects.select_related("contest__question_set", "contest_entry__entry").get(
        pk=subject_id
    )
    if not claimed:
        return subject
    contest, entry = subject.contest, subject.contest_entry.entry
    history: list[tuple[str, str]] = []
    failures = 0
    started = subject.started_at
    for question in contest.question_set.questions.order_by("order"):
        asked_at = timezone.now()
        clock = contest_clock(contest=contest, at=asked_at, since=started)
        context = reply_context_build(
            key=f"loebner-{contest.pk}-qualifying-{subject.pk}", history=history, message=question.text
        )
        reply = engine_reply(
            entry=entry, context=context, subject=f"loebner contest {contest.pk} qualifying question {question.order}"
        )
        answered_at = timezone.now()
        text = reply.text if reply else ""
        failures += reply is None
        QualifyingAnswer.objects.update_or_create(
            subject=subject,
            question=question,
            defaults=dict(
                asked_text=question.text,
                text=text,
                ok=reply is not None,
                asked_at=asked_at,
                answered_at=answered_at,
                latency_ms=int((answered_at - asked_at).total_seconds() * 1000),
                clock=clock["at"],
                expected=_fill(question.expects, clock)[:200],
            ),
        )
        history += [("interrogator", question.text)] + ([("witness", text)] if text else [])
    subject.status = QualifyingSubject.Status.DONE
    subject.finished_at = timezone.now()
    subject.save(update_fields=["status", "finished_at"])
    return subject


def control_answers_record(*, contest_id: int, name: str, answers: dict[int, str]) -> QualifyingSubject:
    """A human control subject's answers ({question order: text}), scored like the entries'."""
    contest = Contest.objects.select_related("question_set").get(pk=contest_id)
    name = " ".join(str(name).split())[:100]
    if not name:
        raise InvalidInput("A control subject needs a name.")
    questions = {q.order: q for q in contest.question_set.questions.all()} if contest.question_set_id else {}
    unknown = sorted(set(answers) - set(questions))
    if unknown:
        raise InvalidInput(f"No question numbered {unknown[0]} in the contest's set.")
    now = timezone.now()
    with transaction.atomic():
        subject, _ = QualifyingSubject.objects.get_or_create(contest=contest, control_name=name)
        for order, text in answers.items():
            QualifyingAnswer.objects.update_or_create(
                subject=subject,
                question=questions[order],
                defaults=dict(asked_text=questions[order].text, text=str(text)[:4000], asked_at=now, answered_at=now),
            )
        subject.status, subject.finished_at = QualifyingSubject.Status.DONE, now
        subject.save(update_fields=["status", "finished_at"])
    return subject


def answer_score(*, answer_id: int, score, by) -> QualifyingAnswer:
    if isinstance(score, bool) or score not in (0, 1, 2):
        raise InvalidInput("A qualifying answer scores 0, 1 or 2.")
    answer = QualifyingAnswer.objects.select_related("subject__contest").get(pk=answer_id)
    if answer.subject.contest.qualifying_scoring != Contest.Scoring.ORGANISER:
        raise Closed("This contest's answers are scored by audience votes.")
    answer.score, answer.scored_by = score, by
    answer.save(update_fields=["score", "scored_by"])
    return answer


def audience_vote(*, contest_id: int, question_id: int, answer_id: int, voter) -> AudienceVote:
    """One vote per voter and question, for the answer they find most human-like."""
    if voter is None or not voter.is_authenticated:
        raise NotAllowed("Log in to vote.")
    contest = Contest.objects.get(pk=contest_id)
    if contest.qualifying_scoring != Contest.Scoring.AUDIENCE or contest.status != Contest.Status.QUALIFYING:
        raise Closed("This contest's qualifying is not open to audience votes.")
    answer = QualifyingAnswer.objects.filter(pk=answer_id, question_id=question_id, subject__contest=contest).first()
    if answer is None:
        raise InvalidInput("No such answer to that question.")
    vote, created = AudienceVote.objects.get_or_create(
        contest=contest, question_id=question_id, voter=voter, defaults={"answer": answer}
    )
    if not created:
        raise Closed("You have already voted on this question.")
    return vote


def finalists_pick(*, contest_id: int, order: list[int] | None = None) -> list[ContestEntry]:
    """The top N entries by qualifying score (the rules' ``finalists``) become finalists E1… in rank
    order; the contest moves to its finals. A tie across the cut is the organiser's: ``order`` lists
    the tied contest entries' ids, best first (refused naming them when missing)."""
    from tournaments.loebner.rules.qualifying import QualifyingTie, finalists

    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status != Contest.Status.QUALIFYING:
            raise Closed(f"The contest is {contest.get_status_display()}, not in qualifying.")
        rows = {key: row for key, row in qualifying_scores(contest=contest).items() if row["entry_id"]}
        if not rows:
            raise InvalidInput("No entry has qualifying answers yet.")
        keys = {row["entry_id"]: key for key, row in rows.items()}
        try:
            chosen = finalists(
                {key: row["score"] for key, row in rows.items()},
                contest.finalists,
                order=[keys[i] for i in order if i in keys] if order else None,
            )
        except QualifyingTie as tie:
            names = ", ".join(f"{rows[key]['name']} (id {rows[key]['entry_id']})" for key in tie.tied)
            raise InvalidInput(f"{names} tie for the last finalist place(s): break the tie (order).") from None
        except ValueError as exc:
            message = str(exc)
            for key, row in rows.items():
                message = message.replace(key, f"{row['name']} (id {row['entry_id']})")
            raise InvalidInput(message) from None
        items = {key: row["entry_id"] for key, row in rows.items()}
        picked = [ContestEntry.objects.get(pk=items[key]) for key in chosen]
        contest.entries.update(finalist=False)
        contest.participants.filter(kind=Participant.Kind.ENTRY).delete()
        for number, item in enumerate(picked, 1):
            item.finalist = True
            item.save(update_fields=["finalist"])
            Participant.objects.create(
                contest=contest, label=f"E{number}", kind=Participant.Kind.ENTRY, contest_entry=item
            )
        contest.status = Contest.Status.FINALS
        contest.save(update_fields=["status"])
    return picked
