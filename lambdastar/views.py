"""Thin pages and downloads of Λ* experiments; live progress comes over lambdastar.consumers."""
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import render

from core.errors import NotAllowed
from lambdastar import exports, figures, selectors


def _experiment(request, pk):
    try:
        return selectors.experiment_for_user(experiment_id=pk, user=request.user)
    except NotAllowed:
        raise Http404("No such experiment of yours.") from None


@login_required
def experiment_list(request):
    return render(request, "lambdastar/experiments.html",
                  {"experiments": selectors.experiments_visible(user=request.user)[:200]})


@login_required
def experiment_detail(request, pk):
    experiment = _experiment(request, pk)
    names = figures.figures_available(experiment=experiment) if experiment.status == "finished" else []
    plots = [{"name": n, "svg": figures.figure_svg(experiment=experiment, name=n)} for n in names]
    runs = experiment.runs.prefetch_related("aggregates")
    return render(request, "lambdastar/experiment.html", {
        "experiment": experiment, "runs": runs, "plots": plots,
        "progress": selectors.experiment_progress(experiment=experiment),
    })


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
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
