"""A Loebner contest's transcripts as JComm logs, downloaded from its results page (lpp may import the
contests; the contests may not import lpp, hence here). Who may download is the contests' rule."""

from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from lpp.export import contest_logs_zip
from tournaments.loebner.views import attachment, contest_download


@contest_download
def contest_jcomm_zip(request, contest):
    return attachment(
        HttpResponse(contest_logs_zip(contest_id=contest.pk), content_type="application/zip"),
        f"contest-{contest.pk}-jcomm-logs.zip",
    )


@require_http_methods(["GET", "POST"])
def lpp2_rank(request, token):
    """The platform's ranking page for a judge who played over LPP2 (whose page's own final-score form
    cannot be sent): the address, signed for that judge (``lpp.lpp2.notices.rank_token``), is sent to the
    judge's page after the last round and listed for the organiser in the admin; it is the judge's login."""
    from django.http import Http404

    from lpp.lpp2.selectors import rank_identity
    from tournaments.loebner.views import rank_page

    identity = rank_identity(token)
    if identity is None:
        raise Http404("This ranking address is not valid (or the judge's secret has changed since).")
    return rank_page(request, identity.lpp2.contest, identity.participant)
