"""The shared charts' server side: a chart's figure carries its data table (the accessible alternative, the
fallback and the CSV's source) and its configuration; the library files load only where they are, and
without them every chart is its open table."""

import json

import pytest
from django.template import Context, Template
from django.test import override_settings

from core.charts import Column, chart_cell, chart_plot, chart_series, spec_intervals

HOSTILE = '<img src=x onerror="window.pwned=1">'


def render(source, **context):
    return Template("{% load charts %}" + source).render(Context(context))


def series():
    return chart_series(
        id="price-chart",
        title="Price",
        x="at",
        y=["price"],
        y_range=(0, 100),
        columns=[Column("at", "Time", "time"), Column("price", "Price"), Column("who", "Who", "text")],
        rows=[{"at": "2026-01-02T03:04:05.678Z", "price": 51, "who": HOSTILE}],
    )


def test_cells_show_readable_values_and_keep_the_raw_ones_for_the_csv():
    assert chart_cell({"format": "time", "digits": 0}, "2026-01-02T03:04:05.678Z") == (
        "2026-01-02 03:04:05 UTC",
        "2026-01-02T03:04:05.678Z",
    )
    assert chart_cell({"format": "percent", "digits": 1}, 0.4567) == ("45.7 %", "0.4567")
    assert chart_cell({"format": "number", "digits": 0}, 1012.6) == ("1013", "1012.6")
    assert chart_cell({"format": "number", "digits": 0}, None) == ("–", "")
    with pytest.raises(ValueError):
        Column("x", "X", "colour")


def test_a_figure_holds_its_escaped_table_and_its_configuration():
    html = render("{% chart c %}", c=series())
    assert 'id="price-chart"' in html and 'data-chart="series"' in html and 'role="img"' in html
    assert (
        '<th scope="col">Time</th>' in html
        and '<time datetime="2026-01-02T03:04:05.678Z">2026-01-02 03:04:05 UTC</time>' in html
    )
    assert HOSTILE not in html and "&lt;img" in html
    config = html.split('<script id="price-chart-config" type="application/json">')[1].split("</script>")[0]
    assert json.loads(config)["rows"][0]["who"] == HOSTILE  # json_script escapes <, > and & inside
    assert '<details class="chart-data">' in html  # drawn: the table is one click away


def test_only_the_libraries_a_page_asks_for_are_loaded():
    html = render('{% chart_scripts "series" %}')
    assert (
        "vendor/uplot/uPlot.iife.min.js" in html and "vega" not in html and html.endswith('core/charts.js"></script>')
    )
    both = render('{% chart_styles %}{% chart_scripts "series" "plot" %}')
    assert "uPlot.min.css" in both and "vega-embed.min.js" in both


@override_settings(CHARTS_VENDOR=False)
def test_without_the_vendored_libraries_every_chart_is_its_open_table():
    html = render('{% chart_scripts "series" "plot" %}{% chart c %}', c=series())
    assert "vendor/" not in html and "core/charts.js" in html  # charts.js still offers the CSV
    assert "data-fallback" in html and '<details class="chart-data" open>' in html and "chart-area" not in html


@override_settings(STATICFILES_DIRS=[])
def test_a_library_the_static_files_lack_is_not_loaded():
    assert "vendor/" not in render('{% chart_scripts "series" "plot" %}')


def test_a_plot_carries_its_vega_lite_spec_without_data():
    c = chart_plot(
        id="rates",
        title="Rates",
        columns=[Column("name", "Witness", "text"), Column("rate", "Rate", "percent")],
        rows=[{"name": "A", "rate": 0.5, "ignored": 1}],
        spec=spec_intervals(category="name", estimate="rate", low="rate", high="rate", title="Rate", percent=True),
    )
    assert (
        c["rows"] == [{"name": "A", "rate": 0.5, "ignored": 1}] and "data" not in c["spec"]
    )  # the spec may use any field
    assert render("{% chart c %}", c=c).count("<th scope=") == 2  # the table shows the columns
