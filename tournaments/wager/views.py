"""Thin pages: the sessions, a session (calendar, a judge's interviews and verdict form, results), the report
and its transcripts together."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_POST

from arena import roles
from core.errors import ArenaError
from markets import services as market_services
from markets.conversation import selectors as conversation_selectors
from tournaments.wager import control, selectors, services
from tournaments.wager.models import Session, Trial

MAX_FIELDS = 50


def _session_for(request, pk) -> Session:
    session = get_object_or_404(Session.objects.select_related("committee", "computer"), pk=pk)
    user = request.user
    if not (selectors.can_manage(user, session) or session.judges.filter(user_id=user.pk).exists()):
        raise Http404("No such session of yours.")
    return session


@login_required
def session_list(request):
    organiser = roles.organises(request.user)
    not_started = list(control.sessions_not_started()) if organiser else []  # organisers only
    return render(
        request,
        "wager/sessions.html",
        {"sessions": selectors.sessions_visible(user=request.user), "organiser": organiser, "drafts": not_started},
    )


@login_required
def session_detail(request, pk):
    session = _session_for(request, pk)
    manager = selectors.can_manage(request.user, session)
    result = selectors.session_result(session=session)
    context = {
        "session": session,
        "manager": manager,
        "result": result,
        # each trial's scores, live for those who manage the session; for its judges once the session's results
        # are published: a trial's score would tell a judge which candidate was the computer
        "scores_shown": manager or selectors.results_published(session=session, result=result),
        "judge_trials": selectors.judge_trials(session=session, user=request.user),
    }
    if manager:
        context["calendar"] = calendar = selectors.calendar(session=session)
        ids = [i.interrogation_id for i in calendar]
        market_services.xmarkets_ensure(interrogation_ids=ids)  # the crowd market of each interview
        markets = conversation_selectors.xmarket_links(interrogation_ids=ids)
        for interview in calendar:
            interview.xmarket = markets.get(interview.interrogation_id)
    return render(request, "wager/session.html", context)


@login_required
@require_POST
def trial_verdicts(request, pk):
    trial = get_object_or_404(Trial.objects.select_related("session"), pk=pk)
    if len(request.POST) > MAX_FIELDS:
        messages.error(request, "Too many fields.")
        return redirect("wager:session", pk=trial.session_id)
    verdicts, ranks = {}, {}
    for alias in trial.aliases.values():
        verdicts[alias] = request.POST.get(f"verdict-{alias}", "")
        rank = request.POST.get(f"rank-{alias}", "").strip()
        ranks[alias] = int(rank) if rank.isdigit() and len(rank) < 4 else rank
    try:
        services.trial_verdicts_submit(trial_id=trial.pk, judge=request.user, verdicts=verdicts, ranks=ranks)
    except ArenaError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Your verdicts for trial {trial.number} are recorded.")
    return redirect("wager:session", pk=trial.session_id)


def session_report(request, pk):
    """Printable. Public once every trial's verdicts are in; before that, organisers and the committee only."""
    session = get_object_or_404(Session.objects.select_related("committee", "computer"), pk=pk)
    data = selectors.report(session=session)
    if not selectors.report_readable(session=session, user=request.user, result=data["result"]):
        raise Http404("The report of this wager session is not public yet.")
    return render(request, "wager/report.html", {"session": session, **data})


def session_transcripts_json(request, pk):
    """The report's "All transcripts as JSON": for whoever may read the report."""
    session = get_object_or_404(Session.objects.select_related("committee"), pk=pk)
    if not selectors.report_readable(session=session, user=request.user):
        raise Http404("The report of this wager session is not public yet.")
    response = JsonResponse(selectors.session_transcripts(session=session), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = content_disposition_header(True, f"transcripts-wager-session-{session.pk}.json")
    return response
