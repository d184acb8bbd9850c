"""Thin page views: /play/ for the public (consent, questions, lobby, games, history) and the
researcher's study pages under /studies/ (analysis, live counts, downloads)."""

import io
import re
import uuid

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_POST

from arena.selectors.interrogations import can_monitor
from core.errors import ArenaError
from markets import services as market_services
from markets.conversation import selectors as conversation_selectors
from studies import charts, exports, selectors, services
from studies.models import Game, Participant, Study, SurveyAnswer
from studies.selectors import SESSION_KEY, session_participant


def _play_context(request):
    study = selectors.open_study()
    if study is None:
        return None, None
    return study, session_participant(request.session, study)


def play(request):
    study, participant = _play_context(request)
    if study is None:
        return render(request, "studies/play_closed.html", status=200)
    design = study.design
    if participant is None or participant.stage == Participant.Stage.CONSENT:
        return render(request, "studies/play_consent.html", {"study": study, "consent": design.consent_text})
    if participant.stage == Participant.Stage.SURVEY:
        return render(
            request,
            "studies/play_survey.html",
            {"study": study, "phase": "demographics", "questions": design.demographics + design.attention_checks},
        )
    history = selectors.participant_history(participant=participant)
    exit_due = (
        history["left"] == 0
        and design.exit_questions
        and not participant.answers.filter(phase=SurveyAnswer.Phase.EXIT).exists()
    )
    return render(
        request,
        "studies/play_lobby.html",
        {
            "study": study,
            "participant": participant,
            "history": history,
            "exit_due": exit_due,
            "exit_questions": design.exit_questions,
        },
    )


DEVICE_COOKIE, DEVICE_SALT = "play_device", "studies.device"
DEVICE_KEY = re.compile(r"[0-9a-f]{32}\Z")


def _device_key(request) -> tuple[str, bool]:
    """(this browser's device key, whether it is new): a signed cookie that outlives the session, so a
    new session in the same browser is the same device."""
    key = request.get_signed_cookie(DEVICE_COOKIE, default="", salt=DEVICE_SALT)
    return (key, False) if DEVICE_KEY.match(key) else (uuid.uuid4().hex, True)


@require_POST
def play_consent(request):
    study, participant = _play_context(request)
    if study is None:
        return redirect("play")
    device, new_device = _device_key(request)
    try:
        if request.POST.get("agree") != "yes":  # nothing is stored until they agree
            services.consent_give(participant=participant, agreed=False)
        if participant is None:
            participant = services.participant_create(
                study=study,
                account=request.user,
                device=services.device_hash(device),
                origin=services.origin_hash(request.META.get("REMOTE_ADDR", "")),
            )
        services.consent_give(participant=participant, agreed=True)
    except ArenaError as exc:
        response = render(
            request,
            "studies/play_consent.html",
            {"study": study, "consent": study.design.consent_text, "error": str(exc)},
            status=429 if exc.code == services.LIMITED else 400,
        )
    else:
        request.session[SESSION_KEY] = {**(request.session.get(SESSION_KEY) or {}), str(study.pk): participant.pk}
        response = redirect("play")
    if new_device:
        response.set_signed_cookie(
            DEVICE_COOKIE,
            device,
            salt=DEVICE_SALT,
            max_age=365 * 86400,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


@require_POST
def play_survey(request, phase):
    study, participant = _play_context(request)
    if study is None or participant is None or phase not in ("demographics", "exit"):
        return redirect("play")
    design = study.design
    questions = design.demographics + design.attention_checks if phase == "demographics" else design.exit_questions
    answers = {q.key: request.POST.get(q.key, "") for q in questions}
    try:
        services.survey_submit(participant=participant, phase=phase, answers=answers)
    except ArenaError as exc:
        return render(
            request,
            "studies/play_survey.html",
            {"study": study, "phase": phase, "questions": questions, "error": str(exc), "given": answers},
            status=400,
        )
    return redirect("play")


def play_game(request, public_id):
    study, participant = _play_context(request)
    game = Game.objects.filter(public_id=public_id).select_related("interrogation", "study").first()
    if participant is None or game is None or game.study_id != study.pk:
        raise Http404("No such game of yours.")
    context = {"study": study, "game": game, "max_chars": study.max_message_chars}
    if game.interrogator_id == participant.pk:
        return render(request, "studies/play_judge.html", context)
    if game.human_witness_id == participant.pk:
        return render(request, "studies/play_witness.html", context)
    raise Http404("No such game of yours.")


# --- the researcher's pages ------------------------------------------------------------------------


def _researcher(request):
    if not (request.user.is_staff or can_monitor(request.user)):
        raise PermissionDenied("Researchers (organisers) only.")


@login_required
def study_list(request):
    _researcher(request)
    return render(request, "studies/study_list.html", {"studies": Study.objects.all()})


@login_required
def study_detail(request, pk):
    _researcher(request)
    study = get_object_or_404(Study, pk=pk)
    analysis = selectors.study_analysis(study=study, replicates=2000, seed=study.seed)
    return render(
        request,
        "studies/study_detail.html",
        {
            "study": study,
            "analysis": analysis,
            "live": selectors.study_live(study=study),
            "pass_rates_chart": charts.pass_rates_chart(analysis["witnesses"]) if analysis["witnesses"] else None,
            "flags": study.flags.select_related("participant")[:50],
            "tables": exports.TABLES,
            "formats": exports.FORMATS,
        },
    )


@login_required
def study_export(request, pk, what, fmt):
    _researcher(request)
    study = get_object_or_404(Study, pk=pk)
    if what not in exports.TABLES or fmt not in exports.FORMATS:
        raise Http404("No such table or format.")
    out = io.StringIO()
    exports.export_write(study=study, what=what, fmt=fmt, out=out)
    content_type = "text/csv" if fmt == "csv" else "application/x-ndjson"
    response = HttpResponse(out.getvalue(), content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, f"study-{study.pk}-{what}.{fmt}")
    return response


# --- transcript-only judging ("displaced" judges) ----------------------------------------------------


def play_transcripts(request):
    study, participant = _play_context(request)
    if participant is None or participant.stage not in (Participant.Stage.PLAYING, Participant.Stage.DONE):
        return redirect("play")
    game = services.transcript_next(participant=participant)
    from studies.services.transcripts import transcript_view

    return render(
        request,
        "studies/play_transcript.html",
        {"study": study, "game": game, "transcript": transcript_view(game=game) if game else None},
    )


@require_POST
def play_transcript_judge(request, public_id):
    study, participant = _play_context(request)
    game = Game.objects.filter(public_id=public_id, study=study).first() if study else None
    if participant is None or game is None:
        return redirect("play")
    try:
        services.transcript_judge(
            participant=participant,
            game=game,
            choice=request.POST.get("choice"),
            confidence=request.POST.get("confidence", ""),
            reason=request.POST.get("reason", ""),
        )
    except ArenaError as exc:
        from studies.services.transcripts import transcript_view

        return render(
            request,
            "studies/play_transcript.html",
            {"study": study, "game": game, "transcript": transcript_view(game=game), "error": str(exc)},
            status=400,
        )
    return redirect("play_transcripts")


WATCH_GAMES = 50


def play_watch(request):
    """The public watch page: the latest games of every study whose configuration allows spectators
    (`spectator_markets: true`), each with its crowd market (a delay behind the interrogator)."""
    studies = [s for s in Study.objects.order_by("-created_at") if s.config.get("spectator_markets") is True]
    games = list(
        Game.objects.filter(study__in=studies)
        .select_related("study", "interrogation")
        .order_by("-interrogation__created_at")[:WATCH_GAMES]
    )
    ids = [g.interrogation_id for g in games]
    market_services.xmarkets_ensure(interrogation_ids=ids)
    markets = conversation_selectors.xmarket_links(interrogation_ids=ids, user=request.user)
    rows = [(g, markets[g.interrogation_id]) for g in games if g.interrogation_id in markets]
    return render(request, "studies/play_watch.html", {"rows": rows, "studies": studies})
