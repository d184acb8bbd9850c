"""Publishing a contest: its meetings' transcripts together (the arena's publication, with names: the
results name every entry), and the contest marked done. Nothing of it can be taken back, so it waits for
the whole final: every round finished, every meeting judged, every judge's ranks given."""

from django.db import transaction

from arena.models import Status
from arena.services import interrogation_publish
from core.errors import Closed
from tournaments.loebner.models import Contest, Meeting, Round
from tournaments.loebner.selectors import contest_publish_problems, contest_scored
from tournaments.loebner.services.judging import judgments_sync


def contest_publish(*, contest_id: int) -> int:
    """Publish every finished meeting's transcript; the contest is done and its rounds ended. How many
    were published. Refused, naming what is missing (``selectors.contest_publish_problems``), while a
    round is not finished, a meeting has no verdict, or, for a format that takes ranks, a judge's ranks
    are missing; nothing is published then."""
    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status not in (Contest.Status.FINALS, Contest.Status.DONE):
            raise Closed(f"The contest is {contest.get_status_display()}: nothing to publish.")
        judgments_sync(contest_id=contest.pk)
        problems = contest_publish_problems(contest=contest)
        if problems:
            raise Closed(f"Not published: {'; '.join(problems)}.")
        score, problem = contest_scored(contest=contest)
        if score is None:
            raise Closed(f"Not published: the results cannot be scored: {problem or 'no meeting is judged'}.")
        contest.rounds.filter(status=Round.Status.RUNNING).update(status=Round.Status.ENDED)
        ended = Meeting.objects.filter(round__contest=contest, interrogation__status=Status.ENDED)
        ids = list(ended.values_list("interrogation_id", flat=True))
        for interrogation_id in ids:
            interrogation_publish(interrogation_id=interrogation_id, with_names=True)
        contest.status = Contest.Status.DONE
        contest.save(update_fields=["status"])
    return len(ids)
