"""Judgments (the human pick per meeting, from the arena verdict) and the judges' ranks of the entries."""
from django.db import transaction

from arena.models import Verdict
from core.errors import Closed, InvalidInput, NotAllowed
from tournaments.loebner.models import Contest, JudgeRank, Judgment, Meeting, Participant


def judgment_record(*, meeting: Meeting, verdict: Verdict) -> Judgment:
    """The verdict's side, read through the meeting's stored left/right: "entry" or "confederate"."""
    human = meeting.left if verdict.choice == "left" else (
        Meeting.Left.CONFEDERATE if meeting.left == Meeting.Left.ENTRY else Meeting.Left.ENTRY)
    judgment, _ = Judgment.objects.get_or_create(meeting=meeting, defaults={"human": human, "decided_at": verdict.decided_at})
    return judgment


def judgments_sync(*, contest_id: int) -> int:
    """Store a judgment for every meeting whose current interrogation has a verdict; how many were new."""
    made = 0
    meetings = (Meeting.objects.filter(round__contest_id=contest_id, judgment__isnull=True,
                                       interrogation__verdict__isnull=False).select_related("interrogation__verdict"))
    for meeting in meetings:
        judgment_record(meeting=meeting, verdict=meeting.interrogation.verdict)
        made += 1
    return made


def ranks_submit(*, contest_id: int, judge, ranks) -> list[JudgeRank]:
    """A judge's ranks of the entries they met: ``{"E1": 4, …}``, whole numbers 1…n, each once.
    Replaces the judge's earlier ranks; checked again in full by the rules when the contest is scored."""
    contest = Contest.objects.get(pk=contest_id)
    if contest.status != Contest.Status.FINALS:
        raise Closed("Ranks are given during the finals.")
    me = Participant.objects.filter(contest=contest, kind=Participant.Kind.JUDGE, user=judge).first()
    if judge is None or me is None:
        raise NotAllowed("Only a judge of this contest can rank its entries.")
    if not isinstance(ranks, dict) or not ranks:
        raise InvalidInput("ranks must map entry labels to whole numbers.")
    met = {m.entry.label: m.entry for m in Meeting.objects.filter(round__contest=contest, judge=me).select_related("entry")}
    unknown = sorted(set(ranks) - set(met))
    if unknown:
        raise InvalidInput(f"ranks.{me.label}.{unknown[0]}: not an entry you met.")
    values = []
    for label, value in sorted(ranks.items()):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= len(met):
            raise InvalidInput(f"ranks.{me.label}.{label}: a whole number from 1 to {len(met)}.")
        values.append(value)
    if len(set(values)) != len(values):
        raise InvalidInput(f"ranks.{me.label}: each rank once (no ties).")
    with transaction.atomic():
        JudgeRank.objects.filter(contest=contest, judge=me).delete()
        made = [JudgeRank.objects.create(contest=contest, judge=me, entry=met[label], rank=value)
                for label, value in sorted(ranks.items())]
    return made
