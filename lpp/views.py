"""A Loebner contest's transcripts as JComm logs, downloaded from its results page (lpp may import the
contests; the contests may not import lpp, hence here). Who may download is the contests' rule."""

from django.http import HttpResponse

from lpp.export import contest_logs_zip
from tournaments.loebner.views import attachment, contest_download


@contest_download
def contest_jcomm_zip(request, contest):
    return attachment(
        HttpResponse(contest_logs_zip(contest_id=contest.pk), content_type="application/zip"),
        f"contest-{contest.pk}-jcomm-logs.zip",
    )
