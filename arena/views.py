"""Thin page views; the live parts of each page talk to arena.consumers over a websocket."""

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.http import content_disposition_header

from arena import roles
from arena.next_steps import judge_next_steps
from arena.replay import transcript_replay
from arena.selectors import interrogations
from arena.transcript_keys import public_keys_document
from core.errors import NotAllowed


def home(request):
    context = {"published": interrogations.published_interrogations()[:10]}
    if request.user.is_authenticated:
        context["next_steps"] = judge_next_steps(user=request.user)  # where a judge goes next, first of all
        context["as_judge"] = interrogations.judge_interrogations(user=request.user)[:50]
        context["as_witness"] = interrogations.witness_conversations(user=request.user)[:50]
        context["is_organiser"] = roles.is_organiser(request.user) or request.user.is_staff
    return render(request, "arena/home.html", context)


@login_required
def judge_console(request, public_id):
    try:
        interrogation = interrogations.interrogation_for_judge(public_id=public_id, user=request.user)
    except NotAllowed:
        raise Http404("No such interrogation of yours.") from None
    return render(
        request, "arena/judge.html", {"interrogation": interrogation, "max_chars": settings.ARENA_MAX_MESSAGE_CHARS}
    )


@login_required
def witness_console(request, public_id):
    try:
        conversation = interrogations.conversation_for_witness(public_id=public_id, user=request.user)
    except NotAllowed:
        raise Http404("No such conversation of yours.") from None
    return render(request, "arena/witness.html", {"conversation": conversation})


@staff_member_required
def monitor(request):
    from django.contrib import admin

    return render(
        request,
        "arena/monitor.html",
        {
            **admin.site.each_context(request),
            "title": "Live interrogations",
            "sections": interrogations.monitor_sections(),
        },
    )


def transcript_list(request):
    return render(request, "arena/transcripts.html", {"interrogations": interrogations.published_interrogations()})


def transcript_detail(request, public_id):
    interrogation = interrogations.readable_interrogation(public_id=public_id, user=request.user)
    if interrogation is None:
        raise Http404("No such published transcript.")
    data = interrogations.transcript_export(interrogation=interrogation)
    replay = transcript_replay(interrogation=interrogation)
    return render(request, "arena/transcript.html", {"interrogation": interrogation, "data": data, "replay": replay})


def transcript_json(request, public_id):
    """A transcript's JSON: a published one for anyone, an unpublished one for whoever its format's report
    lets read it (a wager session's report: organisers and the committee, the public once it is public)."""
    interrogation = interrogations.readable_interrogation(public_id=public_id, user=request.user)
    if interrogation is None:
        raise Http404("No such published transcript.")
    response = JsonResponse(
        interrogations.transcript_export(interrogation=interrogation), json_dumps_params={"indent": 2}
    )
    response["Content-Disposition"] = content_disposition_header(True, f"transcript-{interrogation.public_id}.json")
    return response


def transcript_keys(request):
    """The public keys that transcript seals are checked with: current and retired, by key id."""
    return JsonResponse(public_keys_document(), json_dumps_params={"indent": 2})


def healthz(request):
    """Each dependency checked now; 503 when any is down (see core.health)."""
    from core.health import health_report

    report = health_report()
    return JsonResponse(report, status=200 if report["ok"] else 503)


def favicon(request):
    """/favicon.ico, which browsers ask for whatever the page links: the SVG icon (a day's cache)."""
    response = HttpResponseRedirect(static("favicon.svg"))
    response["Cache-Control"] = "public, max-age=86400"
    return response
