"""Reads: the contest's effective format, its clock, qualifying scores and ranking, a round's clock,
the results (scored by the rules' ``contest_score``) and the organiser's live board."""

import dataclasses
import datetime as dt
import random

from django.db.models import Count, Max, Q, Sum
from django.utils import timezone

from arena.models import Conversation, Interrogation, Message, Status
from tournaments.loebner.models import (
    Contest,
    JudgeRank,
    Judgment,
    Meeting,
    Participant,
    PrizeRow,
    QualifyingAnswer,
    QualifyingSubject,
    Round,
)

ACTIVE_S = 120  # a judge or confederate who typed within this is "active" on the board
ANSWER_WAIT_S = 30  # a witness that leaves a judge's message unanswered longer is "not answering"


# --- the format and the clocks -------------------------------------------------------------------


def contest_format(*, contest: Contest):
    """The rules' Format for the contest, with the contest's round lengths overriding the format's."""
    from tournaments.loebner.rules.formats import SIZED, format_get

    entries = contest.participants.filter(kind=Participant.Kind.ENTRY).count() or contest.finalists
    fmt = format_get(contest.format_name, entries=entries if contest.format_name in SIZED else None)
    overrides = {
        name: getattr(contest, name)
        for name in ("round_minutes", "review_minutes", "break_minutes")
        if getattr(contest, name) is not None
    }
    return dataclasses.replace(fmt, **overrides) if overrides else fmt


def talk_seconds(fmt) -> float:
    """The talking part of a round: both witnesses in turn when sequential, at once when simultaneous."""
    return fmt.round_minutes * 60 * (2 if fmt.mode == "sequential" else 1)


def contest_clock(*, contest: Contest, at: dt.datetime, since: dt.datetime | None = None) -> dict:
    """The contest clock at ``at``: the contest day's start plus the time since ``since`` (qualifying is
    asked as if on the day, as the 2009 rules set the system clock), and which round it falls in."""
    start = contest.contest_day
    clock = start + (at - (since or at)) if start else at
    fmt = None
    try:
        fmt = contest_format(contest=contest)
    except (ValueError, ImportError):
        pass
    number = 1
    if fmt is not None and start is not None:
        length = talk_seconds(fmt) + (fmt.review_minutes + fmt.break_minutes) * 60
        number = min(max(1, int((clock - start).total_seconds() // length) + 1), fmt.rounds) if length > 0 else 1
    hour = clock.hour
    part = "morning" if hour < 12 else ("noon" if hour == 12 else ("afternoon" if hour < 18 else "night"))
    return {
        "at": clock,
        "time": clock.strftime("%H:%M"),
        "date": clock.strftime("%d %B %Y"),
        "weekday": clock.strftime("%A"),
        "round": number,
        "part_of_day": part,
    }


def round_clock(*, round_: Round, fmt, now: dt.datetime | None = None) -> dict:
    """Phase of a round from its stored timestamps: talk (and, sequential, which side), review, break,
    over; seconds left in the phase. A paused round's clock stands still; an ended round is over, its
    elapsed time the time it ran (to ``ended_at``)."""
    now = now or timezone.now()
    talk, review, pause = talk_seconds(fmt), fmt.review_minutes * 60, fmt.break_minutes * 60
    if round_.started_at is None:
        return {"phase": "scheduled", "elapsed_s": 0.0, "left_s": talk, "side": None, "talk_s": talk}
    end = round_.ended_at or round_.paused_at or now
    elapsed = max(0.0, (end - round_.started_at).total_seconds() - round_.paused_s)
    if round_.status == Round.Status.ENDED:
        return {"phase": "over", "elapsed_s": elapsed, "left_s": 0.0, "side": None, "talk_s": talk, "paused": False}
    phases = (("talk", talk), ("review", talk + review), ("break", talk + review + pause))
    phase, until = next(((name, end) for name, end in phases if elapsed < end), ("over", elapsed))
    side = None
    if phase == "talk":
        side = ("left" if elapsed < talk / 2 else "right") if fmt.mode == "sequential" else "both"
    return {
        "phase": phase,
        "elapsed_s": elapsed,
        "left_s": max(0.0, until - elapsed),
        "side": side,
        "talk_s": talk,
        "paused": round_.paused_at is not None,
    }


def round_finished(*, round_: Round, fmt, now: dt.datetime | None = None) -> bool:
    """Whether the round's talk is over: ended, or running in its review or break. A scheduled or paused
    round is not finished."""
    if round_.status == Round.Status.ENDED:
        return True
    return round_.status == Round.Status.RUNNING and round_clock(round_=round_, fmt=fmt, now=now)["phase"] in (
        "review",
        "break",
        "over",
    )


def schedule_people(*, contest: Contest) -> dict:
    """The numbers a schedule is built for: the finalists (the entries seated as E…, else the contest's
    number of finalists), and the judges and confederates seated."""
    rows = contest.participants.order_by().values("kind").annotate(n=Count("pk"))
    kinds = {row["kind"]: row["n"] for row in rows}
    return {
        "finalists": kinds.get(Participant.Kind.ENTRY) or contest.finalists,
        "judges": kinds.get(Participant.Kind.JUDGE, 0),
        "confederates": kinds.get(Participant.Kind.CONFEDERATE, 0),
    }


def schedule_previews(*, contest: Contest, people: dict | None = None) -> list:
    """What each format becomes for the contest's people (``schedule_people``, or ``people``; judges or
    confederates None: as many as each format needs) (``rules.preview.formats_preview``), with the
    contest's own round lengths: the busiest first."""
    from tournaments.loebner.rules.preview import formats_preview

    lengths = {name: getattr(contest, name) for name in ("round_minutes", "review_minutes", "break_minutes")}
    return formats_preview(**(people or schedule_people(contest=contest)), lengths=lengths)


def schedule_build_problems(*, contest: Contest) -> list[str]:
    """What stops the schedule from being built now (``services.schedule_create`` refuses it), or []."""
    if contest.status != Contest.Status.FINALS:
        return [f"the contest is {contest.get_status_display()}, not in its finals"]
    if contest.rounds.exists():
        return ["the schedule is built already"]
    return []


def _idle_said(preview) -> str:
    return "; ".join(f"round {r.number}: {', '.join(r.idle)}" for r in preview.idle_rounds)


def _people_said(people: dict) -> str:
    nouns = {"finalists": "finalist", "judges": "judge", "confederates": "confederate"}
    said = [f"{people[k]} {noun}{'s' if people[k] != 1 else ''}" for k, noun in nouns.items() if people[k] is not None]
    return ", ".join(said[:-1]) + f" and {said[-1]}" if len(said) > 1 else said[0]


def schedule_choice(*, contest: Contest, people: dict | None = None) -> dict:
    """The page that builds the schedule, for one contest: its people, what its format becomes
    (``chosen``), every format's preview best first (``previews``), a format that keeps everyone busy
    (``busy``, None when none does) and the ``notes`` to read first: the chosen format cannot be
    built, or leaves people idle (who, round by round), and what keeps everyone busy instead."""
    people = people or schedule_people(contest=contest)
    previews = schedule_previews(contest=contest, people=people)
    chosen = next(p for p in previews if p.format == contest.format_name)
    busy = next((p for p in previews if p.busy), None)
    notes = []
    if not chosen.buildable:
        why = "; ".join(chosen.problems)
        notes.append(f"Format {chosen.format} cannot be built for {_people_said(people)}: {why}.")
    elif chosen.idle_rounds:
        notes.append(
            f"With format {chosen.format}, someone sits idle in {len(chosen.idle_rounds)} of {len(chosen.rounds)} "
            f"rounds ({_idle_said(chosen)})."
        )
    if notes and busy is not None:
        notes.append(f"Format {busy.format} keeps everyone busy: {busy.summary}.")
    elif notes:
        notes.append(f"No format keeps everyone busy with {_people_said(people)}.")
    return {
        "obj": contest,
        "people": _people_said(people),
        "chosen": chosen,
        "previews": previews,
        "busy": busy,
        "notes": notes,
    }


def schedule_preview_text(*, contest: Contest) -> str:
    """One paragraph for the contest's page: what its format becomes for its people, and, when someone
    would sit idle, a format that keeps everyone busy."""
    rounds = contest.rounds.count()
    if rounds:
        return f"The schedule is built: {rounds} round{'s' if rounds != 1 else ''}."
    people = schedule_people(contest=contest)
    if not people["judges"] and not people["confederates"]:  # none seated yet: as many as each format needs
        people = {**people, "judges": None, "confederates": None}
    choice = schedule_choice(contest=contest, people=people)
    chosen = choice["chosen"]
    said = f"For {choice['people']}: {chosen.summary}."
    return " ".join([said, *choice["notes"][1:]]) if chosen.idle_rounds or not chosen.buildable else said


# --- prizes --------------------------------------------------------------------------------------


def prize_ladder(*, contest: Contest) -> list[dict]:
    """The contest's ladder; place 1 grows by every earlier contest's whole ladder that rolled into it
    (no compliant entry: "the prize will be added to the next Competition")."""
    rows = [
        {"place": p.place, "amount": p.amount, "currency": p.currency, "medal": p.medal, "rolled_over": 0}
        for p in contest.prizes.all()
    ]
    rolled = PrizeRow.objects.filter(contest__rolls_into=contest, contest__status=Contest.Status.ROLLED_OVER)
    extra = rolled.aggregate(total=Sum("amount"))["total"] or 0
    if extra:
        if not rows:
            rows.append({"place": 1, "amount": 0, "currency": "USD", "medal": "", "rolled_over": 0})
        rows[0]["amount"] += extra
        rows[0]["rolled_over"] = extra
    return rows


def entries_compliant(*, contest: Contest) -> list:
    """The contest's compliant entries, first received first (an unchecked entry is not compliant)."""
    return [e for e in contest.entries.select_related("entry").order_by("received_at", "pk") if e.compliant]


def contest_close_warning(*, contest: Contest) -> str:
    """What closing entries now would do that the organiser may not expect, or "": with no compliant entry
    the prize rolls over and the contest ends."""
    if entries_compliant(contest=contest):
        return ""
    into = f" into {contest.rolls_into}" if contest.rolls_into_id else ""
    return (
        f"No entry is marked compliant: closing now rolls the prize over{into} and ends this contest's entry "
        "period; this cannot be undone."
    )


def contest_close_no_qualifying(*, contest: Contest) -> str:
    """When closing entries now makes every compliant entry a finalist at once, the reason (or ""): no
    question set is chosen and there are at least two, and no more than the finalist places, so qualifying
    could not change who reaches the final."""
    if contest.question_set_id is not None:
        return ""
    count = len(entries_compliant(contest=contest)[: contest.qualifying_limit])
    if count < 2 or count > contest.finalists:
        return ""
    return (
        f"No question set is chosen and the {count} compliant entries fit the {contest.finalists} finalist "
        "places: closing makes them all finalists (E1… by receipt) and the contest moves to its final, "
        "without qualifying."
    )


# --- qualifying ----------------------------------------------------------------------------------


def qualifying_scores(*, contest: Contest) -> dict[str, dict]:
    """``{"S<subject id>": {subject_id, entry_id, name, control, score, answered, scored}}``: the sum of
    the 0/1/2 scores, or of the audience's votes."""
    rows = {}
    subjects = QualifyingSubject.objects.filter(contest=contest).select_related("contest_entry__entry")
    audience = contest.qualifying_scoring == Contest.Scoring.AUDIENCE
    for subject in subjects.annotate(
        total=Sum("answers__score"), answered=Count("answers"), votes=Count("answers__votes")
    ):
        scored = subject.answers.exclude(score=None).count()
        rows[f"S{subject.pk}"] = {
            "subject_id": subject.pk,
            "entry_id": subject.contest_entry_id,
            "name": str(subject),
            "control": subject.is_control,
            "status": subject.status,
            "answered": subject.answered,
            "scored": scored,
            "score": float(subject.votes if audience else (subject.total or 0)),
        }
    return rows


def qualifying_table(*, contest: Contest) -> list[dict]:
    """The ranking with shared ranks (the rules' ``qualifying_rank``), controls included."""
    rows = qualifying_scores(contest=contest)
    if not rows:
        return []
    from tournaments.loebner.rules.qualifying import qualifying_rank

    return [
        {"rank": rank, **rows[key]} for rank, key, _score in qualifying_rank({k: r["score"] for k, r in rows.items()})
    ]


def finalists_tie(*, contest: Contest) -> dict | None:
    """While in qualifying: the entries tied across the finalists' cut, which the organiser orders
    (``{"places": how many of them go through, "tied": [{"entry_id", "name", "score"}]}``); None when
    nothing ties across it."""
    from tournaments.loebner.rules.qualifying import QualifyingTie, finalists

    if contest.status != Contest.Status.QUALIFYING:
        return None
    rows = {key: row for key, row in qualifying_scores(contest=contest).items() if row["entry_id"]}
    try:
        finalists({key: row["score"] for key, row in rows.items()}, contest.finalists)
    except QualifyingTie as tie:
        return {
            "places": tie.places,
            "tied": [
                {"entry_id": rows[key]["entry_id"], "name": rows[key]["name"], "score": rows[key]["score"]}
                for key in tie.tied
            ],
        }
    except ValueError:
        return None
    return None


def audience_ballot(*, contest: Contest, question_id: int, voter_id: int) -> list[QualifyingAnswer]:
    """One question's answers, anonymised, in an order random per voter (stable across reloads)."""
    answers = list(
        QualifyingAnswer.objects.filter(subject__contest=contest, question_id=question_id, ok=True)
        .exclude(text="")
        .order_by("pk")
    )
    random.Random(f"{contest.pk}-{question_id}-{voter_id}").shuffle(answers)
    return answers


# --- results -------------------------------------------------------------------------------------


def contest_meetings(*, contest: Contest):
    return (
        Meeting.objects.filter(round__contest=contest)
        .select_related(
            "round", "judge__user", "entry__contest_entry__entry", "confederate__user", "judgment", "interrogation"
        )
        .order_by("round__number", "judge__label")
    )


def meeting_pseudonyms(interrogation: Interrogation, conversations) -> dict | None:
    """A contest meeting's people as its published transcript names them: the judge by label (J1…), the
    confederate by label (C1…), the entry by label (E1…), as the results page and the JComm logs do. None
    for an interrogation that is no meeting."""
    meeting = (
        Meeting.objects.filter(interrogation_id=interrogation.pk)
        .select_related("judge", "entry", "confederate")
        .first()
    )
    if meeting is None:
        return None
    sides = {
        conversation.side: meeting.entry.label if conversation.witness_is_machine else meeting.confederate.label
        for conversation in conversations
    }
    return {"judge": meeting.judge.label, "sides": sides}


def _rules_input(contest: Contest, meetings):
    from tournaments.loebner.rules.schedule import Meeting as RMeeting
    from tournaments.loebner.rules.scoring import Judgment as RJudgment

    planned = [
        RMeeting(
            round=m.round.number, judge=m.judge.label, entry=m.entry.label, confederate=m.confederate.label, left=m.left
        )
        for m in meetings
    ]
    judged = [
        RJudgment(
            round=m.round.number,
            judge=m.judge.label,
            entry=m.entry.label,
            confederate=m.confederate.label,
            human=m.judgment.human,
        )
        for m in meetings
        if hasattr(m, "judgment")
    ]
    ranks: dict[str, dict[str, int]] = {}
    for r in JudgeRank.objects.filter(contest=contest).select_related("judge", "ranked"):
        ranks.setdefault(r.judge.label, {})[r.ranked.label] = r.rank
    return planned, judged, ranks or None


def contest_scored(*, contest: Contest) -> tuple[dict | None, str]:
    """The rules' ``contest_score`` of what is stored: (result, "") or (None, the refusal with its place)."""
    meetings = list(contest_meetings(contest=contest))
    if not meetings:
        return None, ""
    from tournaments.loebner.rules.scoring import ScoringError, contest_score

    planned, judged, ranks = _rules_input(contest, meetings)
    try:
        return contest_score(contest_format(contest=contest), planned, judged, ranks), ""
    except ScoringError as exc:
        return None, str(exc)  # "where: what", e.g. "judgments: 8 meeting(s) not judged, …"


def contest_results(*, contest: Contest) -> dict:
    from arena.stats import proportion_estimate

    meetings = list(contest_meetings(contest=contest))
    score, problem = contest_scored(contest=contest)
    entries = {
        p.label: p
        for p in contest.participants.filter(kind=Participant.Kind.ENTRY).select_related("contest_entry__entry")
    }
    scored = {row["entry"]: row for row in (score or {}).get("entries", [])}
    rows = []
    for label, participant in entries.items():
        judged = [m for m in meetings if m.entry_id == participant.pk and hasattr(m, "judgment")]
        k = sum(m.judgment.human == "entry" for m in judged)
        estimate = proportion_estimate(k, len(judged))
        rows.append(
            {
                "rank": scored.get(label, {}).get("place"),  # shared when tied; None until scored
                "label": label,
                "name": participant.name,
                "judged_human": k,
                "n": len(judged),
                "rate": estimate.rate,
                "ci_low": estimate.ci_low,
                "ci_high": estimate.ci_high,
                "mean_rank": scored.get(label, {}).get("mean_rank"),
                "points": scored.get(label, {}).get("points"),
            }
        )
    ranks = {(r.judge_id, r.ranked_id): r.rank for r in JudgeRank.objects.filter(contest=contest)}
    judges = {}
    for m in meetings:
        judges.setdefault(m.judge.label, {"label": m.judge.label, "rows": []})["rows"].append(
            {
                "round": m.round.number,
                "entry": m.entry.label,
                "confederate": m.confederate.label,
                "left": m.left,
                "human": m.judgment.human if hasattr(m, "judgment") else None,
                "rank": ranks.get((m.judge_id, m.entry_id)),
                "interrogation": m.interrogation,
            }
        )
    winner = (score or {}).get("winner")
    tied = (score or {}).get("tied", []) if winner is None and (score or {}).get("tie_break") == "organiser" else []
    by_organiser = bool(tied) and contest.tie_winner in tied  # a decision for a tie that still stands
    if by_organiser:
        winner = contest.tie_winner
    return {
        "contest": contest,
        "score": score,
        "problem": problem,
        "entries": rows,
        "judges": list(judges.values()),
        "winner": entries[winner].name if winner in entries else None,
        "winner_label": winner,
        "tied": [{"label": label, "name": entries[label].name if label in entries else label} for label in tied],
        "by_organiser": by_organiser,
        "prizes": prize_ladder(contest=contest),
        "single": next((str(e.entry) for e in contest.entries.filter(finalist=True).select_related("entry")), None)
        if contest.status == Contest.Status.SINGLE
        else None,
        "transcripts": [m.interrogation for m in meetings if m.interrogation and m.interrogation.is_published],
    }


def _label_order(participant: Participant) -> tuple[str, int]:
    return participant.label[0], int(participant.label[1:] or 0)


def _joined(parts) -> str:
    return ", ".join(parts)


def _rounds_unfinished(rounds: list[Round], fmt) -> str:
    states: dict[str, list[str]] = {}
    for round_ in rounds:
        if not round_finished(round_=round_, fmt=fmt):
            state = {Round.Status.SCHEDULED: "not started", Round.Status.PAUSED: "paused"}.get(
                round_.status, "talk under way"
            )
            states.setdefault(state, []).append(str(round_.number))
    return "; ".join(
        f"round{'s' if len(numbers) > 1 else ''} {_joined(numbers)} ({state})" for state, numbers in states.items()
    )


def _meetings_unjudged(rounds: list[Round]) -> str:
    """The meetings of the rounds played so far with neither a judgment nor a verdict, by round and judge."""
    started = [r.pk for r in rounds if r.status != Round.Status.SCHEDULED]
    meetings = Meeting.objects.filter(round_id__in=started).select_related(
        "round", "judge__user", "judgment", "interrogation__verdict"
    )
    by_round: dict[int, list] = {}
    totals: dict[int, int] = {}
    for m in meetings:
        totals[m.round.number] = totals.get(m.round.number, 0) + 1
        if not (hasattr(m, "judgment") or (m.interrogation is not None and hasattr(m.interrogation, "verdict"))):
            by_round.setdefault(m.round.number, []).append(m.judge)
    return "; ".join(
        f"round {number}: {len(judges)} of {totals[number]} "
        f"({_joined(f'{j.label} {j.name}' for j in sorted(judges, key=_label_order))})"
        for number, judges in sorted(by_round.items())
    )


def _ranks_missing(contest: Contest, ranking: str) -> str:
    ranked: dict[int, set[str]] = {}
    for r in JudgeRank.objects.filter(contest=contest).select_related("ranked"):
        ranked.setdefault(r.judge_id, set()).add(r.ranked.label)
    missing = []
    judges = contest.participants.filter(kind=Participant.Kind.JUDGE).select_related("user")
    for judge in sorted(judges, key=_label_order):
        rankable, _ = judge_rankable(contest=contest, judge=judge, ranking=ranking)
        given = ranked.get(judge.pk, set())
        left = [p.label for p in rankable if p.label not in given]
        if rankable and not given:
            missing.append(f"{judge.label} {judge.name} (none given)")
        elif left:
            missing.append(f"{judge.label} {judge.name} (not {_joined(left)})")
    return _joined(missing)


def contest_publish_problems(*, contest: Contest) -> list[str]:
    """What stops the contest's results and transcripts from being published, each naming its place: the
    contest's state, the rounds not finished, the meetings without a verdict (by round and judge), and,
    for a format that takes ranks, the judges whose ranks are missing. Empty: it may be published."""
    if contest.status not in (Contest.Status.FINALS, Contest.Status.DONE):
        return [f"the contest is {contest.get_status_display()}, not in its finals"]
    rounds = list(contest.rounds.order_by("number"))
    if not rounds:
        return ["no schedule is built"]
    fmt = contest_format(contest=contest)
    found = [
        ("rounds not finished", _rounds_unfinished(rounds, fmt)),
        ("meetings without a verdict", _meetings_unjudged(rounds)),
        ("judges' ranks missing", _ranks_missing(contest, fmt.ranking) if fmt.ranking else ""),
    ]
    return [f"{what}: {detail}" for what, detail in found if detail]


# --- the organiser's board -----------------------------------------------------------------------


def round_current(*, contest: Contest) -> Round | None:
    live = contest.rounds.filter(status__in=[Round.Status.RUNNING, Round.Status.PAUSED]).order_by("number").first()
    return (
        live
        or contest.rounds.exclude(status=Round.Status.ENDED).order_by("number").first()
        or contest.rounds.order_by("-number").first()
    )


def _last_messages(interrogation: Interrogation) -> dict[tuple[int, str], dt.datetime]:
    rows = (
        Message.objects.filter(conversation__interrogation=interrogation)
        .values("conversation_id", "sender_role")
        .annotate(last=Max("created_at"))
    )
    return {(r["conversation_id"], r["sender_role"]): r["last"] for r in rows}


def _answering(conversation, last: dict, now: dt.datetime) -> bool:
    """Whether a witness keeps up: no question waits for it, or the last has waited under ANSWER_WAIT_S."""
    if conversation is None:
        return False
    asked, answered = last.get((conversation.pk, "interrogator")), last.get((conversation.pk, "witness"))
    return (
        asked is None or (answered is not None and answered >= asked) or (now - asked).total_seconds() < ANSWER_WAIT_S
    )


def board_state(*, contest: Contest, now: dt.datetime | None = None) -> dict:
    """Every judge, confederate and entry of the current round: green or not, and the entry's breaker."""
    from arena.models import EntryHealth

    now = now or timezone.now()
    round_ = round_current(contest=contest)
    if round_ is None:
        return {"round": None, "clock": None, "meetings": []}
    fmt = contest_format(contest=contest)
    rows = []
    for m in round_.meetings.select_related(
        "judge__user", "confederate__user", "entry__contest_entry__entry", "interrogation"
    ):
        interrogation = m.interrogation
        running = interrogation is not None and interrogation.status == Status.RUNNING
        last = _last_messages(interrogation) if interrogation else {}
        conversations = {c.side: c for c in interrogation.conversations.all()} if interrogation else {}
        by_witness = {("entry" if c.witness_entry_id else "confederate"): c for c in conversations.values()}

        judge_last = max([t for (cid, role), t in last.items() if role == "interrogator"], default=None)
        conf = by_witness.get("confederate")
        conf_last = last.get((conf.pk, "witness")) if conf else None
        entry = m.entry.contest_entry.entry
        health = EntryHealth.objects.filter(entry=entry).first()
        rows.append(
            {
                "meeting": m,
                "status": interrogation.status if interrogation else "none",
                "judge": {
                    "label": m.judge.label,
                    "name": m.judge.name,
                    "green": running and judge_last is not None and (now - judge_last).total_seconds() < ACTIVE_S,
                },
                "confederate": {
                    "label": m.confederate.label,
                    "name": m.confederate.name,
                    "green": running
                    and _answering(conf, last, now)
                    and (
                        conf_last is None or (now - conf_last).total_seconds() < ACTIVE_S or _answering(conf, last, now)
                    ),
                },
                "entry": {
                    "label": m.entry.label,
                    "name": entry.display_name,
                    "green": (health is None or health.healthy)
                    and (not running or _answering(by_witness.get("entry"), last, now)),
                    "breaker": "open" if health and not health.healthy else "closed",
                    "failures": health.consecutive_failures if health else 0,
                    "last_error": health.last_error if health else "",
                },
            }
        )
    return {"round": round_, "clock": round_clock(round_=round_, fmt=fmt, now=now), "meetings": rows, "format": fmt}


def judge_rankable(*, contest: Contest, judge: Participant, ranking: str | None) -> tuple[list[Participant], int]:
    """Whom the judge ranks under the format's ranking (see tournaments.loebner.rules.formats), by label,
    and how many of the judge's meetings still lack a judgment (the 2009 ranking needs them: a judge ranks
    the entities it called non-human)."""
    if ranking is None:
        return [], 0
    meetings = list(
        Meeting.objects.filter(round__contest=contest, judge=judge).select_related("judgment", "entry", "confederate")
    )
    chosen, unjudged = {}, 0
    for m in meetings:
        if ranking == "2009":
            if not hasattr(m, "judgment"):
                unjudged += 1
                continue
            other = m.confederate if m.judgment.human == "entry" else m.entry
            chosen[other.pk] = other
        elif ranking == "all-entities":
            chosen.update({m.entry_id: m.entry, m.confederate_id: m.confederate})
        else:
            chosen[m.entry_id] = m.entry
    return sorted(chosen.values(), key=lambda p: (p.label[0], int(p.label[1:]))), unjudged


def judge_entries(*, contest: Contest, judge: Participant) -> list[Participant]:
    """The entries a judge met, by label (E1…), never which side they were on."""
    ids = Meeting.objects.filter(round__contest=contest, judge=judge).values_list("entry_id", flat=True)
    return list(Participant.objects.filter(pk__in=list(ids)).order_by("label"))


def judge_ranks(*, contest: Contest, judge: Participant) -> dict[str, int]:
    return {
        r.ranked.label: r.rank for r in JudgeRank.objects.filter(contest=contest, judge=judge).select_related("ranked")
    }


# --- what the judges may know, and what they must do next -----------------------------------------


def results_published(*, contest: Contest) -> bool:
    """A contest's results are published once the organiser publishes them (status "done"): until then its
    judges are told neither which witness was which nor whether they were right, anywhere."""
    return contest.status == Contest.Status.DONE


def interrogation_reveal_allowed(interrogation_id: int) -> bool:
    """The arena's reveal rule for the contests (``arena.services.verdicts.reveal_rule_register``): a
    meeting's truth, or that of an interrogation a round's restart replaced, waits for the contest's
    published results. True for an interrogation that is no contest's."""
    status = (
        Meeting.objects.filter(Q(interrogation_id=interrogation_id) | Q(replaced=interrogation_id))
        .values_list("round__contest__status", flat=True)
        .first()
    )
    return status is None or status == Contest.Status.DONE


def meeting_start_estimate(*, contest: Contest, number: int, fmt) -> dt.datetime | None:
    """When round ``number`` is due to start: the contest day's start plus the rounds before it."""
    if contest.contest_day is None:
        return None
    return contest.contest_day + dt.timedelta(minutes=fmt.slot_minutes * (number - 1))


def _ranks_due(contest: Contest, judge: Participant, fmt) -> bool:
    rankable, unjudged = judge_rankable(contest=contest, judge=judge, ranking=fmt.ranking)
    return bool(unjudged) or set(judge_ranks(contest=contest, judge=judge)) != {p.label for p in rankable}


def _contest_steps(judge: Participant, meetings: list[Meeting]) -> list:
    """One contest's steps for one of its judges: the meeting on now, a verdict still due, the next meeting
    (the lowest round not played yet), or, with none left to play, the ranks the format asks for."""
    from django.urls import reverse

    from arena.next_steps import RUNNING, SCHEDULED, TASK, VERDICT, NextStep, console_url

    contest, steps, pending = judge.contest, [], False
    fmt = contest_format(contest=contest)
    for m in meetings:
        interrogation, where = m.interrogation, f"{contest.name}, round {m.round.number}"
        if interrogation is None or interrogation.status == Status.ABORTED:
            continue
        url, pk = console_url(interrogation), interrogation.pk
        if interrogation.status == Status.RUNNING:
            steps.append(NextStep(f"{where}: your meeting is on now", url, RUNNING, None, pk))
        elif interrogation.status == Status.ENDED and not hasattr(interrogation, "verdict"):
            steps.append(NextStep(f"{where}: give your verdict", url, VERDICT, interrogation.ended_at, pk))
        elif interrogation.status == Status.SCHEDULED and not pending:
            at = meeting_start_estimate(contest=contest, number=m.round.number, fmt=fmt)
            steps.append(NextStep(f"{where}: your next meeting", url, SCHEDULED, at, pk))
        else:
            continue
        pending = True
    if not pending and fmt.ranking is not None and _ranks_due(contest, judge, fmt):
        url = reverse("loebner:rank", args=[contest.pk])
        steps.append(NextStep(f"{contest.name}: rank the conversations you had", url, TASK))
    return steps


def judge_next_steps(user):
    """The contests' source of ``arena.next_steps``: for each contest in its finals where ``user`` judges, what
    they must do next; it speaks for every interrogation of their meetings (those a restart replaced too)."""
    from arena.next_steps import FormatSteps

    found = FormatSteps()
    meetings = list(
        Meeting.objects.filter(judge__user=user, judge__kind=Participant.Kind.JUDGE)
        .select_related("round", "judge__contest", "interrogation__verdict")
        .order_by("judge__contest_id", "round__number")
    )
    found.claimed = {m.interrogation_id for m in meetings if m.interrogation_id}
    found.claimed |= set(
        Meeting.replaced.through.objects.filter(meeting__judge__user=user).values_list("interrogation_id", flat=True)
    )
    by_judge: dict[int, list[Meeting]] = {}
    for m in meetings:
        if m.judge.contest.status == Contest.Status.FINALS:
            by_judge.setdefault(m.judge_id, []).append(m)
    for rows in by_judge.values():
        found.steps += _contest_steps(rows[0].judge, rows)
    return found


# --- the judge's rank sheet: the conversations as the judge saw them, never a label -------------------

RANK_LINES = 3  # the first messages of each conversation the rank page shows
RANK_LINE_CHARS = 160


@dataclasses.dataclass
class RankConversation:
    side: str  # "left" | "right": as the judge's console placed it
    lines: list  # [(who: "You" | "Witness", text)], the first RANK_LINES
    heading: str = ""  # what the page calls it: "Left witness", or, where the judge's own page placed the
    # partners (an LPP2 page: the side is unknown), "One witness" / "The other witness" / "The witness"


@dataclasses.dataclass
class RankMeeting:
    round: int
    at: dt.datetime | None  # when the meeting started (its scheduled start before that)
    conversations: list  # [RankConversation]: both sides where the item is the meeting's machine, else its side
    placed: bool = True  # False: the judge's own page placed the partners; no side is named


@dataclasses.dataclass
class RankItem:
    """One thing the judge ranks, as they saw it: ``key`` names it on the form by round and side ("r2", "r2-left"),
    ``meetings`` (usually one) where they met it; ``whole`` the meeting's machine (either side, never told which),
    else the witness on the side shown. ``participant`` stays on the server: the page never shows it."""

    key: str
    meetings: list
    whole: bool
    participant: Participant = dataclasses.field(repr=False)


def _first_lines(conversation_ids) -> dict[int, list]:
    rows = (
        Message.objects.filter(conversation_id__in=list(conversation_ids), seq__lte=RANK_LINES)
        .order_by("conversation_id", "seq")
        .values_list("conversation_id", "sender_role", "text")
    )
    lines: dict[int, list] = {}
    for conversation_id, role, text in rows:
        text = text if len(text) <= RANK_LINE_CHARS else text[: RANK_LINE_CHARS - 1] + "…"
        lines.setdefault(conversation_id, []).append(("You" if role == "interrogator" else "Witness", text))
    return lines


def _entity_side(meeting: Meeting, participant_id: int) -> str:
    """The side the meeting's stored left/right put a participant on (the entry or the confederate)."""
    entry_left = meeting.left == Meeting.Left.ENTRY
    return "left" if (participant_id == meeting.entry_id) == entry_left else "right"


def _rank_heading(side: str, index: int, count: int, placed: bool) -> str:
    if placed:
        return f"{side.capitalize()} witness"
    if count == 1:
        return "The witness"
    return "One witness" if index == 0 else "The other witness"


def rank_sheet(*, contest: Contest, judge: Participant, ranking: str | None) -> list[RankItem]:
    """What the judge ranks (``judge_rankable``), each shown by the meetings where they met it: the round, the
    time, the side and the first lines of the conversation. For "mean-rank" and "points" the judge ranks the
    machine of each meeting without learning which side it was (both conversations are shown); for "2009" the
    witness they called non-human, for "all-entities" every witness, each by its side. The items keep the order
    of the rounds; the form names them by round and side, mapped back to the entries here (``rank_choices``)."""
    rankable, _ = judge_rankable(contest=contest, judge=judge, ranking=ranking)
    wanted = {p.pk: p for p in rankable}
    meetings = list(
        Meeting.objects.filter(round__contest=contest, judge=judge)
        .select_related("round", "judgment", "interrogation")
        .order_by("round__number")
    )
    whole = ranking in ("mean-rank", "points")
    met = [m.interrogation_id for m in meetings if m.interrogation_id]
    conversations = {(c.interrogation_id, c.side): c.pk for c in Conversation.objects.filter(interrogation_id__in=met)}
    lines = _first_lines(conversations.values())
    items: dict[int, RankItem] = {}
    for m in meetings:
        if ranking == "2009":
            if not hasattr(m, "judgment"):
                continue
            shown = [m.confederate_id if m.judgment.human == Judgment.Human.ENTRY else m.entry_id]
        elif ranking == "all-entities":  # left first: an order by kind would tell which side was the entry
            shown = sorted([m.entry_id, m.confederate_id], key=lambda pk, m=m: _entity_side(m, pk))
        else:
            shown = [m.entry_id]
        interrogation = m.interrogation
        at = (interrogation.started_at or interrogation.scheduled_at) if interrogation else None
        for pk in shown:
            if pk not in wanted:
                continue
            sides = ["left", "right"] if whole else [_entity_side(m, pk)]
            placed = m.left != Meeting.Left.UNKNOWN
            talks = [
                RankConversation(
                    side,
                    lines.get(conversations.get((m.interrogation_id, side)), []),
                    _rank_heading(side, i, len(sides), placed),
                )
                for i, side in enumerate(sides)
            ]
            seen = RankMeeting(round=m.round.number, at=at, conversations=talks, placed=placed)
            if pk in items:
                items[pk].meetings.append(seen)
            else:
                key = f"r{m.round.number}" if whole else f"r{m.round.number}-{sides[0]}"
                items[pk] = RankItem(key=key, meetings=[seen], whole=whole, participant=wanted[pk])
    return list(items.values())


def rank_choices(*, items: list[RankItem], choices: dict) -> dict[str, int]:
    """The judge's ranks by the rank page's keys (``{"r2": 1, "r3-left": 2}``, whole numbers 1…k, each once)
    as the ranking service takes them, by the contest's labels. InvalidInput, in the judge's words (never a
    label), for a missing, unknown, out-of-range or repeated rank."""
    from core.errors import InvalidInput

    by_key = {item.key: item for item in items}
    unknown = sorted(set(choices) - set(by_key))
    if unknown:
        raise InvalidInput("Rank only the conversations listed on this page.")
    ranks = {}
    for key, item in by_key.items():
        value = choices.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= len(items):
            raise InvalidInput(f"Give each one a whole number from 1 to {len(items)}.")
        ranks[item.participant.label] = value
    if len(set(ranks.values())) != len(ranks):
        raise InvalidInput("Give each one a different number: no two the same.")
    return ranks


def rank_sheet_current(*, items: list[RankItem], current: dict[str, int]) -> dict[str, int]:
    """The judge's stored ranks (by label) by the rank page's keys."""
    return {item.key: current[item.participant.label] for item in items if item.participant.label in current}
