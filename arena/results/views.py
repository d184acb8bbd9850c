"""Thin views of the results pages and their downloads: read the filters, call a selector, shape the output.
Every page and download takes the same filters (?from=&to=&format=&study=); bad ones get a 400 naming them."""

from functools import wraps
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.http import content_disposition_header

from arena import charts
from arena.models import Entry
from arena.results import exports
from arena.results.filters import results_filter
from arena.results.sources import HUMAN, formats_registered
from arena.selectors import results
from arena.selectors.interrogations import can_monitor


def _filtered(kind: str):
    """Bind the filters; on bad input answer 400 in the view's kind ("page", "json", "csv")."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            form = results_filter(request.GET)
            if form.is_valid():
                return view(request, form, *args, **kwargs)
            if kind == "json":
                return JsonResponse({"errors": form.messages()}, status=400)
            if kind == "csv":
                return HttpResponse(
                    "\n".join(form.messages()) + "\n", status=400, content_type="text/plain; charset=utf-8"
                )
            return view(request, form, *args, **kwargs)

        return wrapper

    return decorate


def _organisers(view):
    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not can_monitor(request.user):
            raise PermissionDenied("Organisers only.")
        return view(request, *args, **kwargs)

    return wrapper


def _render(request, template, form, context):
    query = form.query().params() if form.is_valid() else {}
    return render(
        request,
        template,
        {
            "form": form,
            "formats": formats_registered(),
            "query": query,
            "qs": f"?{urlencode(query)}" if query else "",
            **context,
        },
        status=200 if form.is_valid() else 400,
    )


def _linked(data: dict) -> dict:
    """The public results with each entry's rows linked to its page (the human baseline is no entry)."""
    entries = data["entries"]

    def link(row):
        return {**row, "entry_id": None if row["name"] == HUMAN else entries.get(row["name"])}

    return {
        **data,
        "ratings": [link(r) for r in data["ratings"]],
        "rates": [{**b, "rows": [link(r) for r in b["rows"]]} for b in data["rates"]],
    }


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


def _charted(data: dict) -> dict:
    """The public results with their charts: the ratings, the heat map, each format's pass rates."""
    return {
        **data,
        "ratings_chart": charts.ratings_chart(data["ratings"]),
        "matrix_chart": charts.matrix_chart(data["names"], data["win_fraction"], data["battle_count"]),
        "rates": [{**b, "chart": charts.rates_chart(b)} for b in data["rates"]],
    }


@_filtered("page")
def results_page(request, form):
    data = _charted(_linked(results.results_public(query=form.query()))) if form.is_valid() else None
    return _render(request, "arena/results.html", form, {"results": data})


@_filtered("json")
def results_json(request, form):
    query = form.query()
    return JsonResponse(
        exports.public_json(results.results_public(query=query), query), json_dumps_params={"indent": 1}
    )


@_filtered("csv")
def results_csv(request, form, table):
    data = results.results_public(query=form.query())
    text = {
        "ratings": exports.ratings_csv,
        "matrix": exports.matrix_csv,
        "rates": lambda d: exports.rates_csv(d["rates"]),
    }[table](data)
    return _csv(text, f"{table}.csv")


@_filtered("page")
def entry_page(request, form, pk):
    entry = get_object_or_404(Entry, pk=pk)
    data = results.results_entry(entry=entry, query=form.query()) if form.is_valid() else None
    chart = charts.entry_chart(entry.display_name, data["formats"]) if data and data["formats"] else None
    return _render(request, "arena/results_entry.html", form, {"entry": entry, "data": data, "chart": chart})


@_filtered("json")
def entry_json(request, form, pk):
    entry = get_object_or_404(Entry, pk=pk)
    query = form.query()
    return JsonResponse(
        exports.entry_json(results.results_entry(entry=entry, query=query), query), json_dumps_params={"indent": 1}
    )


@_filtered("csv")
def entry_csv(request, form, pk):
    entry = get_object_or_404(Entry, pk=pk)
    return _csv(
        exports.entry_csv(results.results_entry(entry=entry, query=form.query())), f"entry-{entry.pk}-rates.csv"
    )


@_organisers
@_filtered("page")
def judges_page(request, form):
    rows = results.results_judges(query=form.query()) if form.is_valid() else None
    return _render(
        request,
        "arena/results_judges.html",
        form,
        {"judges": rows, "chart": charts.judges_chart(rows) if rows else None},
    )


@_organisers
@_filtered("json")
def judges_json(request, form):
    query = form.query()
    return JsonResponse(
        exports.judges_json(results.results_judges(query=query), query), json_dumps_params={"indent": 1}
    )


@_organisers
@_filtered("csv")
def judges_csv(request, form):
    return _csv(exports.judges_csv(results.results_judges(query=form.query())), "judges.csv")
