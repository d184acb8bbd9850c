"""The charts every page shares, described as data. A chart is a dict: its id, kind ("series": a live time
series drawn by uPlot; "plot": a statistical plot drawn by Vega-Lite), an accessible title, the columns and
rows of the data it shows, and its options or Vega-Lite spec (without data: the rows are the data).

`{% chart %}` (core.chart_tags) renders it as a <figure> whose data table is at once the accessible
alternative, the fallback where the vendored libraries are missing and the source of the CSV export, and
static/core/charts.js draws it. Builders for the common Vega-Lite specs (estimates with intervals, heat maps,
bars) are here so every page draws them alike. No Django here."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime

KINDS = ("series", "plot")
FORMATS = ("text", "number", "percent", "time")


@dataclass(frozen=True)
class Column:
    """One column of a chart's data: `key` in each row, its header, and how the table shows it ("text",
    "number" with `digits` decimals, "percent" of a 0–1 fraction, "time" of an ISO 8601 string)."""

    key: str
    label: str
    format: str = "number"
    digits: int = 0

    def __post_init__(self):
        if self.format not in FORMATS:
            raise ValueError(f"column {self.key!r}: format must be one of {FORMATS}")


def _chart(*, id: str, kind: str, title: str, columns: list[Column], rows: list[dict], **options) -> dict:
    if kind not in KINDS:
        raise ValueError(f"chart {id!r}: kind must be one of {KINDS}")
    return {
        "id": id,
        "kind": kind,
        "title": title,
        "columns": [asdict(c) for c in columns],
        "rows": [dict(row) for row in rows],
        **options,
    }


def chart_series(
    *,
    id: str,
    title: str,
    columns: list[Column],
    rows: list[dict],
    x: str,
    y: list[str],
    y_range: tuple[float, float] | None = None,
    y_label: str = "",
    stepped: bool = False,
    height: int = 240,
) -> dict:
    """A series (uPlot): `x` names the x column, a "time" column (ISO 8601 strings: a time axis) or a number
    (episodes, steps), `y` the value columns drawn; a page appends points with `Charts.get(id).append(row)`."""
    return _chart(
        id=id,
        kind="series",
        title=title,
        columns=columns,
        rows=rows,
        x=x,
        y=list(y),
        y_range=list(y_range) if y_range else None,
        y_label=y_label,
        stepped=stepped,
        height=height,
    )


def chart_plot(*, id: str, title: str, columns: list[Column], rows: list[dict], spec: dict) -> dict:
    """A statistical plot (Vega-Lite): `spec` without data; the rows are its data."""
    return _chart(id=id, kind="plot", title=title, columns=columns, rows=rows, spec=_height_fixed(spec, rows))


def _height_fixed(spec: dict, rows: list[dict]) -> dict:
    """A spec whose height is a step per category of its y axis gets that height in pixels, counted from
    its rows (or the y scale's domain): Vega-Lite warns about a step height beside a container's width."""
    height = spec.get("height")
    if not isinstance(height, dict) or "step" not in height:
        return spec
    encodings = [spec.get("encoding", {}), *(layer.get("encoding", {}) for layer in spec.get("layer", []))]
    y = next((e["y"] for e in encodings if "y" in e), None)
    if y is None:
        return spec
    domain = y.get("scale", {}).get("domain")
    count = len(domain) if domain else len({row.get(y["field"]) for row in rows})
    return {**spec, "height": max(1, count) * height["step"]}


def chart_cell(column: dict, value) -> tuple[str, str]:
    """The table's text for one value and its raw value (the CSV's), both strings; missing values are
    "–" and ""."""
    if value is None or value == "":
        return "–", ""
    fmt = column["format"]
    if fmt == "text":
        return str(value), str(value)
    if fmt == "time":
        at = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        return at.strftime("%Y-%m-%d %H:%M:%S") + (" UTC" if at.utcoffset() is not None else ""), str(value)
    number = float(value)
    if fmt == "percent":
        return f"{number * 100:.{column['digits']}f} %", repr(number)
    return f"{number:.{column['digits']}f}", (str(value) if isinstance(value, int) else repr(number))


# --- Vega-Lite specs -------------------------------------------------------------------------------------


def _label_limit(wide: int) -> dict:
    """Axis labels up to `wide` px, a third of that on a phone-sized container."""
    return {"expr": f"containerSize()[0] < 500 ? {wide // 3} : {wide}"}


def _base(description: str, **spec) -> dict:
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": description,
        "width": "container",
        "autosize": {"type": "fit-x", "contains": "padding"},
        "config": {
            "font": "system-ui, sans-serif",
            "axis": {"labelFontSize": 12, "titleFontSize": 12},
            "legend": {"labelFontSize": 12, "titleFontSize": 12},
            "view": {"stroke": None},
        },
        **spec,
    }


def spec_intervals(
    *,
    category: str,
    estimate: str,
    low: str,
    high: str,
    title: str,
    category_title: str = "",
    percent: bool = False,
    domain: tuple[float, float] | None = None,
    reference: float | None = None,
    colour: str | None = None,
    colour_title: str = "",
) -> dict:
    """One row per category: the estimate as a point, its interval as a bar; `percent` for 0–1 rates,
    `reference` draws a dashed rule (e.g. 0.5: chance), `colour` a field that colours the marks."""
    axis_format = {"format": ".0%"} if percent else {}
    x_scale = {"domain": list(domain), "zero": False} if domain else {"zero": False}
    y = {"field": category, "type": "nominal", "sort": None, "title": None, "axis": {"labelLimit": _label_limit(240)}}
    tooltip = [
        {"field": category, "type": "nominal", "title": category_title or category},
        {
            "field": estimate,
            "type": "quantitative",
            "title": title,
            **({"format": ".1%"} if percent else {"format": ".0f"}),
        },
        {
            "field": low,
            "type": "quantitative",
            "title": "CI low",
            **({"format": ".1%"} if percent else {"format": ".0f"}),
        },
        {
            "field": high,
            "type": "quantitative",
            "title": "CI high",
            **({"format": ".1%"} if percent else {"format": ".0f"}),
        },
    ]
    colour_enc = (
        {"color": {"field": colour, "type": "nominal", "title": colour_title or None, "legend": {"orient": "bottom"}}}
        if colour
        else {"color": {"value": "#2a5db0"}}
    )
    layers = [
        {
            "mark": {"type": "rule", "strokeWidth": 4, "opacity": 0.55},
            "encoding": {
                "y": y,
                "x": {"field": low, "type": "quantitative", "title": title, "scale": x_scale, "axis": axis_format},
                "x2": {"field": high},
                **colour_enc,
            },
        },
        {
            "mark": {"type": "point", "filled": True, "size": 70},
            "encoding": {"y": y, "x": {"field": estimate, "type": "quantitative"}, **colour_enc, "tooltip": tooltip},
        },
    ]
    if reference is not None:
        layers.append(
            {
                "data": {"values": [{"reference": reference}]},
                "mark": {"type": "rule", "strokeDash": [4, 4], "color": "#5d6778"},
                "encoding": {"x": {"field": "reference", "type": "quantitative"}},
            }
        )
    return _base(f"{title}: estimates with their confidence intervals", height={"step": 26}, layer=layers)


def spec_heatmap(
    *,
    row: str,
    column: str,
    value: str,
    count: str,
    title: str,
    order: list[str],
    row_title: str = "",
    column_title: str = "",
) -> dict:
    """A matrix of 0–1 values (e.g. the row's win fraction against the column) as coloured cells, red at 0,
    white at ½, blue at 1, each with its count written inside; rows and columns in `order`."""
    x = {
        "field": column,
        "type": "nominal",
        "scale": {"domain": order},
        "title": column_title,
        "axis": {"labelAngle": -40, "labelLimit": _label_limit(150)},
    }
    y = {
        "field": row,
        "type": "nominal",
        "scale": {"domain": order},
        "title": None,
        "axis": {"labelLimit": _label_limit(240)},
    }
    return _base(
        f"{title}: a heat map",
        height={"step": 36},
        encoding={"x": x, "y": y},
        layer=[
            {
                "mark": {"type": "rect", "stroke": "#fff"},
                "encoding": {
                    "color": {
                        "field": value,
                        "type": "quantitative",
                        "title": title,
                        "scale": {"scheme": "redblue", "domain": [0, 1]},
                        "legend": {"format": ".0%"},
                    },
                    "tooltip": [
                        {"field": row, "title": row_title or row},
                        {"field": column, "title": column_title or column},
                        {"field": value, "type": "quantitative", "format": ".0%", "title": title},
                        {"field": count, "type": "quantitative", "title": "n"},
                    ],
                },
            },
            {
                "mark": {"type": "text", "fontSize": 11},
                "encoding": {
                    "text": {"field": count, "type": "quantitative"},
                    "color": {
                        "condition": {"test": f"datum['{value}'] < 0.2 || datum['{value}'] > 0.8", "value": "#fff"},
                        "value": "#1d2330",
                    },
                },
            },
        ],
    )


def spec_bars(*, category: str, value: str, title: str, limit: float | None = None, colour: str = "#2a5db0") -> dict:
    """Horizontal bars, one per category, the value written at each bar's end; `limit` a dashed rule."""
    y = {"field": category, "type": "nominal", "sort": None, "title": None, "axis": {"labelLimit": _label_limit(160)}}
    x = {
        "field": value,
        "type": "quantitative",
        "title": title,
        "axis": {"tickMinStep": 1},
        **({"scale": {"domainMax": limit}} if limit else {}),
    }
    layers = [
        {"mark": {"type": "bar", "color": colour}, "encoding": {"y": y, "x": x}},
        {
            "mark": {"type": "text", "align": "left", "dx": 4},
            "encoding": {"y": y, "x": {"field": value, "type": "quantitative"}, "text": {"field": value}},
        },
    ]
    if limit:
        layers.append(
            {
                "data": {"values": [{"limit": limit}]},
                "mark": {"type": "rule", "strokeDash": [4, 4], "color": "#b3261e"},
                "encoding": {"x": {"field": "limit", "type": "quantitative"}},
            }
        )
    return _base(f"{title}: bars", height={"step": 24}, layer=layers)
