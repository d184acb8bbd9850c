"""Thin pages and downloads of Λ* experiments; live progress comes over lambdastar.consumers."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_http_methods

from core.errors import ArenaError, NotAllowed
from lambdastar import exports, figures, selectors, services


def _experiment(request, pk):
    try:
        return selectors.experiment_for_user(experiment_id=pk, user=request.user)
    except NotAllowed:
        raise Http404("No such experiment of yours.") from None


@login_required
def experiment_list(request):
    return render(
        request, "lambdastar/experiments.html", {"experiments": selectors.experiments_visible(user=request.user)[:200]}
    )


@login_required
def experiment_detail(request, pk):
    experiment = _experiment(request, pk)
    results = figures.experiment_results_shared(experiment=experiment) if experiment.status != "draft" else None
    return render(
        request,
        "lambdastar/experiment.html",
        {
            "experiment": experiment,
            "results": results,
            "progress": selectors.experiment_progress(experiment=experiment),
            "actions": selectors.experiment_actions(experiment=experiment, user=request.user),
        },
    )


@login_required
def experiment_results(request, pk):
    """The plots' rows and the results table so far (the page asks again as chunks are stored)."""
    return JsonResponse(figures.experiment_results_shared(experiment=_experiment(request, pk)))


#: The page's actions: what each asks before it is done, and its service.
ACTIONS = {
    "launch": ("Launch this experiment?", "Every chunk is queued; the quota counts its episodes until it ends."),
    "cancel": ("Cancel this experiment?", "Chunks not started are skipped; the results stored so far stay."),
    "resume": ("Resume this experiment?", "Chunks not stored yet (a lost worker or message) are queued again."),
    "clone": ("Clone this experiment?", "A new draft with the same configuration and seed, owned by you."),
}


@require_http_methods(["GET", "POST"])
@login_required
def experiment_action(request, pk, action):
    """GET: what the action does, and a form to confirm it (POST, CSRF). POST: call the service."""
    experiment = _experiment(request, pk)
    if not selectors.experiment_can_manage(experiment=experiment, user=request.user):
        raise PermissionDenied("Only the experiment's owner or an organiser may do that.")
    allowed = action in selectors.experiment_actions(experiment=experiment, user=request.user)
    errors, status = [], 200
    if not allowed:
        errors, status = [f"This experiment is {experiment.status}: “{action}” is not possible now."], 409
    elif request.method == "POST":
        try:
            done = _act(action, experiment, request.user)
        except ValidationError as exc:
            errors, status = exc.messages, 400  # every bad option, each on its line
        except ArenaError as exc:  # the state changed meanwhile, the quota
            errors, status = [str(exc)], 409
        else:
            return redirect("lambdastar:experiment_detail", done.pk)
    question, explanation = ACTIONS[action]
    return render(
        request,
        "lambdastar/confirm.html",
        {
            "experiment": experiment,
            "action": action,
            "question": question,
            "explanation": explanation,
            "errors": errors,
            "allowed": allowed,
            "progress": selectors.experiment_progress(experiment=experiment),
        },
        status=status,
    )


def _act(action: str, experiment, user):
    if action == "clone":
        return services.experiment_clone(experiment_id=experiment.pk, owner=user)
    getattr(services, f"experiment_{action}")(experiment_id=experiment.pk)
    return experiment


@login_required
def figure_svg(request, pk, name):
    experiment = _experiment(request, pk)
    if name not in figures.FIGURES:
        raise Http404("No such plot.")
    return HttpResponse(figures.figure_svg(experiment=experiment, name=name), content_type="image/svg+xml")


@login_required
def figure_csv(request, pk, name):
    experiment = _experiment(request, pk)
    if name not in figures.FIGURES:
        raise Http404("No such plot.")
    rows = figures.figure_rows(experiment=experiment, name=name)
    return _download(exports.csv_lines(rows, figures.CSV_FIELDS), "text/csv", f"lambdastar-{pk}-{name}.csv")


@login_required
def episodes_csv(request, pk):
    experiment = _experiment(request, pk)
    rows = selectors.episode_rows(experiment=experiment)
    return _download(exports.csv_lines(rows, selectors.EXPORT_FIELDS), "text/csv", f"lambdastar-{pk}-episodes.csv")


@login_required
def episodes_jsonl(request, pk):
    experiment = _experiment(request, pk)
    rows = selectors.episode_rows(experiment=experiment)
    return _download(exports.jsonl_lines(rows), "application/jsonl", f"lambdastar-{pk}-episodes.jsonl")


def _download(lines, content_type, filename):
    response = StreamingHttpResponse(lines, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response
