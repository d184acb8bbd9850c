"""Judgments (the human pick per meeting, from the arena verdict) and the judges' ranks of the entries."""

from django.db import transaction
from django.utils import timezone

from arena.models import Verdict
from core.errors import Closed, Conflict, InvalidInput, NotAllowed
from tournaments.loebner.models import Contest, JudgeRank, Judgment, Meeting, Participant


def judgment_record(*, meeting: Meeting, verdict: Verdict) -> Judgment:
    """The verdict's side, read through the meeting's stored left/right: "entry" or "confederate"."""
    human = (
        meeting.left
        if verdict.choice == "left"
        else (Meeting.Left.CONFEDERATE if meeting.left == Meeting.Left.ENTRY else Meeting.Left.ENTRY)
    )
    judgment, _ = Judgment.objects.get_or_create(
        meeting=meeting, defaults={"human": human, "decided_at": verdict.decided_at}
    )
    return judgment


def judgments_sync(*, contest_id: int) -> int:
    """Store a judgment for every meeting whose current interrogation has a verdict; how many were new."""
    made = 0
    meetings = Meeting.objects.filter(
        round__contest_id=contest_id, judgment__isnull=True, interrogation__verdict__isnull=False
    ).select_related("interrogation__verdict")
    for meeting in meetings:
        judgment_record(meeting=meeting, verdict=meeting.interrogation.verdict)
        made += 1
    return made


def ranks_submit(*, contest_id: int, judge, ranks) -> list[JudgeRank]:
    """A judge's ranks, ``{"E1": 4, …}``, of whom the format asks (``selectors.judge_rankable``): whole
    numbers 1…k, each once. Replaces the judge's earlier ranks; checked again in full by the rules'
    ``contest_score`` when the contest is scored."""
    from tournaments.loebner.selectors import contest_format, judge_rankable

    contest = Contest.objects.get(pk=contest_id)
    if contest.status != Contest.Status.FINALS:
        raise Closed("Ranks are given during the finals.")
    me = Participant.objects.filter(contest=contest, kind=Participant.Kind.JUDGE, user=judge).first() if judge else None
    if me is None:
        raise NotAllowed("Only a judge of this contest can rank its entries.")
    judgments_sync(contest_id=contest.pk)
    fmt = contest_format(contest=contest)
    rankable, unjudged = judge_rankable(contest=contest, judge=me, ranking=fmt.ranking)
    if fmt.ranking is None:
        raise Closed(f"The format {fmt.name} takes no ranks: judges only pick the human.")
    if unjudged:
        raise Closed(
            f"Give your verdict in all your meetings first ({unjudged} to go): you rank those you called non-human."
        )
    if not isinstance(ranks, dict) or not ranks:
        raise InvalidInput("ranks must map labels to whole numbers.")
    allowed = {p.label: p for p in rankable}
    unknown = sorted(set(ranks) - set(allowed))
    if unknown:
        raise InvalidInput(f"ranks.{me.label}.{unknown[0]}: not one you rank ({', '.join(allowed)}).")
    values = []
    for label, value in sorted(ranks.items()):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= len(allowed):
            raise InvalidInput(f"ranks.{me.label}.{label}: a whole number from 1 to {len(allowed)}.")
        values.append(value)
    if len(set(values)) != len(values):
        raise InvalidInput(f"ranks.{me.label}: each rank once (no ties).")
    with transaction.atomic():
        JudgeRank.objects.filter(contest=contest, judge=me).delete()
        return [
            JudgeRank.objects.create(contest=contest, judge=me, ranked=allowed[label], rank=value)
            for label, value in sorted(ranks.items())
        ]


def contest_tie_decide(*, contest_id: int, entry_label: str, by) -> Contest:
    """The organiser names the winner where the rules leave a tie (``tie_break`` "organiser": the tied
    entries are level on every key the format ranks by). Refused while the contest is not scored, when the
    rules name a winner themselves, or for an entry that is not among the tied."""
    from tournaments.loebner.selectors import contest_scored

    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        judgments_sync(contest_id=contest.pk)
        score, problem = contest_scored(contest=contest)
        if score is None:
            raise Closed(f"The contest cannot be scored yet: {problem or 'no meeting is judged'}.")
        if score["winner"] is not None:
            raise Conflict(
                f"The rules name the winner ({score['winner']}): there is no tie for the organiser to break."
            )
        if entry_label not in score["tied"]:
            raise InvalidInput(f"The winner must be one of the tied entries: {', '.join(score['tied'])}.")
        contest.tie_winner, contest.tie_decided_by, contest.tie_decided_at = entry_label, by, timezone.now()
        contest.save(update_fields=["tie_winner", "tie_decided_by", "tie_decided_at"])
    return contest
