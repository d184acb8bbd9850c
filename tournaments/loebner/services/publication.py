"""Publishing a contest: its meetings' transcripts together (the arena's publication, with names: the
results name every entry), and the contest marked done."""

from django.db import transaction

from arena.models import Status
from arena.services import interrogation_publish
from core.errors import Closed
from tournaments.loebner.models import Contest, Meeting
from tournaments.loebner.services.judging import judgments_sync


def contest_publish(*, contest_id: int) -> int:
    """Publish every finished meeting's transcript; the contest is done. How many were published."""
    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if contest.status not in (Contest.Status.FINALS, Contest.Status.DONE):
            raise Closed(f"The contest is {contest.get_status_display()}: nothing to publish.")
        judgments_sync(contest_id=contest.pk)
        ended = Meeting.objects.filter(round__contest=contest, interrogation__status=Status.ENDED)
        ids = list(ended.values_list("interrogation_id", flat=True))
        for interrogation_id in ids:
            interrogation_publish(interrogation_id=interrogation_id, with_names=True)
        contest.status = Contest.Status.DONE
        contest.save(update_fields=["status"])
    return len(ids)
