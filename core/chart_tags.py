"""Template tags of the shared charts (`{% load charts %}`, registered in settings.TEMPLATES):

    {% block head %}{% chart_styles %}{% endblock %}
    {% chart price_chart %}                            a core.charts dict: its figure and data table
    {% block scripts %}{% chart_scripts "series" "plot" %}<script src="page.js"></script>{% endblock %}

The library files load only on the pages that ask for them, and only where they are (static/vendor/)
(settings.CHARTS_VENDOR, when set, overrides the look-up: False shows every chart as its table)."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html_join

from core.charts import KINDS, chart_cell

register = template.Library()

LIBRARIES = {  # kind → (stylesheets, scripts) under /static/, in load order
    "series": (("vendor/uplot/uPlot.min.css",), ("vendor/uplot/uPlot.iife.min.js",)),
    "plot": ((), ("vendor/vega/vega.min.js", "vendor/vega/vega-lite.min.js", "vendor/vega/vega-embed.min.js")),
}


def charts_vendored(kind: str) -> bool:
    """Whether the library that draws `kind` is there to be served (else the page shows the table)."""
    forced = getattr(settings, "CHARTS_VENDOR", None)
    if forced is not None:
        return bool(forced)
    styles, scripts = LIBRARIES[kind]
    return all(finders.find(path) for path in styles + scripts)


def _kinds(kinds) -> list[str]:
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise template.TemplateSyntaxError(f"chart kinds are {KINDS}, not {sorted(unknown)}")
    return [k for k in (kinds or KINDS) if charts_vendored(k)]


@register.simple_tag
def chart_styles(*kinds):
    sheets = ["core/charts.css"] + [s for k in _kinds(kinds) for s in LIBRARIES[k][0]]
    return format_html_join("", '<link rel="stylesheet" href="{}">', ((static(s),) for s in sheets))


@register.simple_tag
def chart_scripts(*kinds):
    scripts = [s for k in _kinds(kinds) for s in LIBRARIES[k][1]] + ["core/charts.js"]
    return format_html_join("", '<script src="{}"></script>', ((static(s),) for s in scripts))


@register.inclusion_tag("core/_chart.html")
def chart(spec: dict, open_table: bool = False):
    """A chart's figure: its drawing area (when its library is there), its data table in a <details> (open
    when nothing draws it, or `open_table`), and its configuration for charts.js."""
    table = [
        [
            {"text": text, "raw": raw, "time": column["format"] == "time"}
            for column in spec["columns"]
            for text, raw in [chart_cell(column, row.get(column["key"]))]
        ]
        for row in spec["rows"]
    ]
    drawn = charts_vendored(spec["kind"])
    return {
        "c": spec,
        "table": table,
        "drawn": drawn,
        "open": open_table or not drawn,
        "config_id": f"{spec['id']}-config",
    }
