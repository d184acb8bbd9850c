"""charts.js on its own in Chromium (no server: the figure is rendered here, the scripts added from disk): a
numeric series for progress curves, appending, the CSV's quoting, and the fallback without uPlot."""

from pathlib import Path

import pytest
from django.template import Context, Template

from core.charts import Column, chart_series

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
UPLOT = ROOT / "static" / "vendor" / "uplot" / "uPlot.iife.min.js"
CHARTS = ROOT / "static" / "core" / "charts.js"


def figure():
    chart = chart_series(
        id="curve",
        title="Mean score by episode",
        x="episode",
        y=["score"],
        columns=[Column("episode", "Episode"), Column("score", "Score", digits=2), Column("note", "Note", "text")],
        rows=[{"episode": k, "score": k / 10, "note": "=1+1" if k == 2 else 'say "hi", ok'} for k in range(1, 6)],
    )
    return Template("{% load charts %}<main style='width:600px'>{% chart c %}</main>").render(Context({"c": chart}))


def page_with(browser, *, uplot=True):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_content(f"<!doctype html><html><body>{figure()}</body></html>")
    if uplot:
        page.add_script_tag(path=str(UPLOT))
    page.add_script_tag(path=str(CHARTS))
    page.js_errors = errors
    return page


def test_a_numeric_series_draws_appends_and_exports_its_table(browser):
    page = page_with(browser)
    assert page.locator("#curve canvas").count() == 1
    state = page.evaluate(
        "() => { const c = Charts.get('curve'); return {n: c.uplot.data[0].length, labels: c.xLabels()}; }"
    )
    assert state["n"] == 5 and state["labels"] and all(label.replace(".", "").isdigit() for label in state["labels"])
    page.evaluate("() => Charts.get('curve').append({episode: 6, score: 0.61, note: 'late'})")
    assert page.evaluate("() => Charts.get('curve').uplot.data[1].at(-1)") == 0.61
    assert page.locator("#curve tbody tr").last.locator("td").all_text_contents() == ["6", "0.61", "late"]
    lines = page.evaluate("() => Charts.get('curve').csv()").split("\r\n")
    assert lines[0] == "Episode,Score,Note" and lines[2] == "2,0.2,'=1+1"  # no formula reaches a spreadsheet
    assert lines[1] == '1,0.1,"say ""hi"", ok"' and lines[6] == "6,0.61,late"
    assert page.js_errors == []


def test_without_uplot_the_series_is_its_open_table_with_a_csv_download(browser):
    page = page_with(browser, uplot=False)
    assert page.locator("#curve[data-fallback] details[open] tbody tr").count() == 5
    assert page.locator("#curve canvas").count() == 0 and page.locator("#curve button[data-format=csv]").count() == 1
    page.evaluate("() => Charts.get('curve').append({episode: 6, score: 0.61, note: 'late'})")  # a live page goes on
    assert page.locator("#curve tbody tr").count() == 6
    assert page.js_errors == []


VEGA = [ROOT / "static" / "vendor" / "vega" / name for name in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")]


def plots():
    from core.charts import chart_plot, spec_bars, spec_heatmap, spec_intervals

    rate = [
        Column("name", "Name", "text"),
        Column("rate", "Rate", "percent"),
        Column("lo", "Low"),
        Column("hi", "High"),
    ]
    rows = [{"name": "A", "rate": 0.4, "lo": 0.2, "hi": 0.6}, {"name": "B", "rate": 0.6, "lo": 0.5, "hi": 0.7}]
    cells = [{"r": "A", "c": "B", "v": 0.3, "n": 3}, {"r": "B", "c": "A", "v": 0.7, "n": 3}]
    interval = spec_intervals(category="name", estimate="rate", low="lo", high="hi", title="Rate", reference=0.5)
    return [
        chart_plot(id="rates", title="Rates", columns=rate, rows=rows, spec=interval),
        chart_plot(id="none-yet", title="Rates", columns=rate, rows=[], spec=interval),
        chart_plot(
            id="wins",
            title="Wins",
            columns=[Column(k, k, "text") for k in "rcvn"],
            rows=cells,
            spec=spec_heatmap(row="r", column="c", value="v", count="n", title="Wins", order=["A", "B"]),
        ),
        chart_plot(
            id="votes",
            title="Votes",
            columns=[Column("agent", "Agent", "text"), Column("votes", "Votes")],
            rows=[{"agent": "a", "votes": 2}],
            spec=spec_bars(category="agent", value="votes", title="Votes", limit=3),
        ),
    ]


def test_every_kind_of_plot_draws_without_a_warning_and_an_empty_one_is_its_table(browser):
    html = Template("{% load charts %}<main style='width:600px'>{% for c in cs %}{% chart c %}{% endfor %}</main>")
    page = browser.new_page()
    said = []
    page.on("console", lambda m: m.type in ("warning", "error") and said.append(m.text))
    page.set_content(f"<!doctype html><html><body>{html.render(Context({'cs': plots()}))}</body></html>")
    for script in [*VEGA, CHARTS]:
        page.add_script_tag(path=str(script))
    page.evaluate("async () => { for (const id of ['rates', 'wins', 'votes']) await Charts.get(id).ready; }")
    for drawn in ("rates", "wins", "votes"):
        assert page.locator(f"#{drawn} svg").count() >= 1
    assert page.locator("#none-yet[data-fallback] details[open]").count() == 1  # no empty axes
    assert said == []
    page.close()
