"""Thin pages: contests, results (public), the organiser's board, qualifying scoring, the audience's
ballot, the judges' ranks. Parse, call a service or selector, render (Django escapes all text)."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_http_methods

from arena import roles
from core.errors import ArenaError, NotAllowed
from markets import services as market_services
from markets.conversation import selectors as conversation_selectors
from tournaments.loebner import control, exports, selectors, services
from tournaments.loebner.models import Contest, Participant, QualifyingAnswer


def _organiser(request):
    if not roles.organises(request.user):
        raise PermissionDenied("Organisers only.")


def _crowd_markets(interrogation_ids) -> dict:
    """{interrogation id: its crowd market}, opening the ones due (every meeting has one)."""
    market_services.xmarkets_ensure(interrogation_ids=interrogation_ids)
    return conversation_selectors.xmarket_links(interrogation_ids=interrogation_ids)


def contest_list(request):
    contests = list(Contest.objects.exclude(status=Contest.Status.DRAFT))
    for contest in contests:  # the public's way in: the current round's conversations, a delay behind
        contest.current_round = round_ = selectors.round_current(contest=contest)
        shown = round_ is not None and contest.spectator_markets
        meetings = list(round_.meetings.exclude(interrogation=None).select_related("judge")) if shown else []
        markets = _crowd_markets([m.interrogation_id for m in meetings])
        contest.watch = sorted(
            ((m.judge.label, markets[m.interrogation_id]) for m in meetings if m.interrogation_id in markets),
            key=lambda pair: (len(pair[0]), pair[0]),
        )
    organiser = roles.organises(request.user)
    drafts = list(control.contests_draft()) if organiser else []  # organisers only: a draft is not public
    return render(request, "loebner/contests.html", {"contests": contests, "organiser": organiser, "drafts": drafts})


def results(request, contest_id):
    contest = get_object_or_404(Contest, pk=contest_id)
    if contest.status == Contest.Status.DRAFT:  # its organisers are told nothing is published, and where to go
        if not roles.organises(request.user):
            raise Http404("No such contest.")
        return render(request, "loebner/draft.html", {"contest": contest})
    services.judgments_sync(contest_id=contest.pk)
    is_judge = (
        request.user.is_authenticated
        and contest.participants.filter(kind=Participant.Kind.JUDGE, user=request.user).exists()
    )
    organiser = roles.organises(request.user)
    published = selectors.results_published(contest=contest)
    return render(
        request,
        "loebner/results.html",
        {
            "r": selectors.contest_results(contest=contest),
            "is_judge": is_judge,
            "organiser": organiser,
            "published": published,
            # the scores, picks and sides, live for the organisers; for everyone else (its judges among them)
            # once the results are published: a judge must not learn which witness was which before then
            "scores_shown": organiser or published,
            "downloads": exports.downloads_allowed(contest=contest, user=request.user),
        },
    )


@login_required
@require_http_methods(["POST"])
def tie_decide(request, contest_id):
    """The organiser names the winner among entries the rules leave tied."""
    _organiser(request)
    contest = get_object_or_404(Contest, pk=contest_id)
    try:
        services.contest_tie_decide(
            contest_id=contest.pk, entry_label=request.POST.get("winner", "")[:8], by=request.user
        )
    except ArenaError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "The winner is recorded.")
    return redirect("loebner:results", contest_id=contest.pk)


def contest_download(view):
    """A download of a contest's results: ``view(request, contest)``. 404 for no contest or a draft; before
    the results are published, organisers only (403 with the reason, and a way to log in)."""

    @wraps(view)
    def wrapped(request, contest_id):
        try:
            contest = exports.contest_downloadable(contest_id=contest_id, user=request.user)
        except Contest.DoesNotExist:
            raise Http404("No such contest.") from None
        except NotAllowed as exc:
            raise PermissionDenied(str(exc)) from None
        return view(request, contest)

    return wrapped


def attachment(response, filename: str):
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


def transcripts_json(request, contest_id):
    """Every published transcript of the contest, together (the arena's JSON of each, hash chains and seals),
    its people named by the contest's labels. Public, as the transcripts are."""
    contest = get_object_or_404(Contest.objects.exclude(status=Contest.Status.DRAFT), pk=contest_id)
    return JsonResponse(exports.transcripts_json(contest=contest))


@contest_download
def results_json(request, contest):
    services.judgments_sync(contest_id=contest.pk)  # as the results page: the verdicts given so far
    return attachment(
        JsonResponse(exports.results_json(contest=contest), json_dumps_params={"indent": 1}),
        f"contest-{contest.pk}-results.json",
    )


@contest_download
def results_csv(request, contest):
    services.judgments_sync(contest_id=contest.pk)
    return attachment(
        HttpResponse(exports.results_csv(contest=contest), content_type="text/csv; charset=utf-8"),
        f"contest-{contest.pk}-results.csv",
    )


@login_required
def board(request, contest_id):
    _organiser(request)
    contest = get_object_or_404(Contest, pk=contest_id)
    state = selectors.board_state(contest=contest)
    if state["round"] is not None:
        services.round_tick(round_id=state["round"].pk)
    markets = _crowd_markets(
        [row["meeting"].interrogation_id for row in state["meetings"] if row["meeting"].interrogation_id]
    )
    for row in state["meetings"]:
        row["xmarket"] = markets.get(row["meeting"].interrogation_id)
    return render(request, "loebner/board.html", {"contest": contest, "state": state})


@login_required
def board_json(request, contest_id):
    _organiser(request)
    state = selectors.board_state(contest=get_object_or_404(Contest, pk=contest_id))
    rows = [
        {
            "round": row["meeting"].round.number,
            "status": row["status"],
            **{kind: {k: v for k, v in row[kind].items()} for kind in ("judge", "confederate", "entry")},
        }
        for row in state["meetings"]
    ]
    clock = state["clock"]
    return JsonResponse(
        {
            "round": state["round"].number if state["round"] else None,
            "round_status": state["round"].status if state["round"] else None,
            "clock": clock,
            "meetings": rows,
        }
    )


@login_required
@require_http_methods(["GET", "POST"])
def qualifying(request, contest_id):
    """The organiser scores each answer 0, 1 or 2; the ranking with shared ranks beside."""
    _organiser(request)
    contest = get_object_or_404(Contest, pk=contest_id)
    if request.method == "POST" and request.POST.get("control-name"):
        answers = {
            int(key[8:]): value
            for key, value in request.POST.items()
            if key.startswith("control-") and key[8:].isdigit() and value.strip()
        }
        try:
            services.control_answers_record(contest_id=contest.pk, name=request.POST["control-name"], answers=answers)
        except ArenaError as exc:
            messages.error(request, str(exc))
        return redirect("loebner:qualifying", contest_id=contest.pk)
    if request.method == "POST" and "pick" in request.POST:
        _finalists_pick(request, contest)
        return redirect("loebner:qualifying", contest_id=contest.pk)
    if request.method == "POST":
        for key, value in request.POST.items():
            if key.startswith("score-") and value != "":
                try:
                    services.answer_score(answer_id=int(key[6:]), score=int(value), by=request.user)
                except (ArenaError, ValueError, QualifyingAnswer.DoesNotExist) as exc:
                    messages.error(request, f"{key}: {exc}")
        return redirect("loebner:qualifying", contest_id=contest.pk)
    answers = (
        QualifyingAnswer.objects.filter(subject__contest=contest)
        .select_related("subject__contest_entry__entry", "question")
        .order_by("subject_id", "question__order")
    )
    questions = contest.question_set.questions.all() if contest.question_set_id else []
    return render(
        request,
        "loebner/qualifying.html",
        {
            "contest": contest,
            "answers": answers,
            "table": selectors.qualifying_table(contest=contest),
            "questions": questions,
            "tie": selectors.finalists_tie(contest=contest),
        },
    )


def _finalists_pick(request, contest) -> None:
    """ "Pick the finalists"; with a tie across the cut, the organiser's places for the tied entries
    (``place-<contest entry id>``: 1 best, each place once) break it."""
    places = {}
    for key, value in request.POST.items():
        if key.startswith("place-") and key[6:].isdigit():
            if not value.isdigit():
                messages.error(request, "Give every tied entry a place.")
                return
            places[int(key[6:])] = int(value)
    if len(set(places.values())) != len(places):
        messages.error(request, "Give each tied entry a different place.")
        return
    try:
        picked = services.finalists_pick(contest_id=contest.pk, order=sorted(places, key=places.get) or None)
    except ArenaError as exc:
        messages.error(request, str(exc))
        return
    messages.success(request, "Finalists: " + ", ".join(str(item.entry) for item in picked) + ".")


@login_required
@require_http_methods(["GET", "POST"])
def vote(request, contest_id, order):
    """The audience's ballot: one question's answers, anonymised, in random order; one vote each."""
    contest = get_object_or_404(Contest, pk=contest_id, qualifying_scoring=Contest.Scoring.AUDIENCE)
    question = contest.question_set.questions.filter(order=order).first() if contest.question_set_id else None
    if question is None:
        raise Http404("No such question.")
    if request.method == "POST":
        try:
            services.audience_vote(
                contest_id=contest.pk,
                question_id=question.pk,
                answer_id=int(request.POST.get("answer", "0")),
                voter=request.user,
            )
            messages.success(request, "Thank you: your vote is counted.")
        except (ArenaError, ValueError) as exc:
            messages.error(request, str(exc))
        return redirect("loebner:vote", contest_id=contest.pk, order=order)
    answers = selectors.audience_ballot(contest=contest, question_id=question.pk, voter_id=request.user.pk)
    return render(request, "loebner/vote.html", {"contest": contest, "question": question, "answers": answers})


@login_required
@require_http_methods(["GET", "POST"])
def rank(request, contest_id):
    """A judge ranks whom the contest's format asks (the machines met, or the witnesses called non-human), each
    shown as the judge saw it: round, time, side and the conversation's first lines, never a label; the choices
    are mapped back to the entries on the server (``selectors.rank_choices``)."""
    contest = get_object_or_404(Contest, pk=contest_id)
    me = Participant.objects.filter(contest=contest, kind=Participant.Kind.JUDGE, user=request.user).first()
    if me is None:
        raise Http404("You are not a judge of this contest.")
    return rank_page(request, contest, me)


def rank_page(request, contest, me):
    """The ranking page of judge ``me`` (a participant), at the request's own address (also served to
    judges who played over LPP2, at their signed address: ``lpp.views.lpp2_rank``)."""
    services.judgments_sync(contest_id=contest.pk)
    fmt = selectors.contest_format(contest=contest)
    items = selectors.rank_sheet(contest=contest, judge=me, ranking=fmt.ranking)
    _, unjudged = selectors.judge_rankable(contest=contest, judge=me, ranking=fmt.ranking)
    if request.method == "POST":
        try:
            choices = {}
            for item in items:
                value = request.POST.get(f"rank-{item.key}", "").strip()
                choices[item.key] = int(value) if value.isdigit() and len(value) < 4 else value
            ranks = selectors.rank_choices(items=items, choices=choices)
            services.ranks_submit(contest_id=contest.pk, judge=me.user, ranks=ranks)
            messages.success(request, "Your ranks are stored.")
            return redirect(request.path)
        except ArenaError as exc:
            messages.error(request, str(exc))
    current = selectors.judge_ranks(contest=contest, judge=me)
    return render(
        request,
        "loebner/rank.html",
        {
            "contest": contest,
            "items": items,
            "unjudged": unjudged,
            "format": fmt,
            "current": selectors.rank_sheet_current(items=items, current=current),
        },
    )
