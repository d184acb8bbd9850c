"""A small server-side SVG chart: points with 95 % CI error bars, one colour per series.

No dependencies, no JavaScript: the page embeds the returned markup. Every text is XML-escaped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from xml.sax.saxutils import escape

WIDTH, HEIGHT = 640, 340
LEFT, RIGHT, TOP, BOTTOM = 64, 150, 36, 52
COLOURS = [
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
    "#393b79",
    "#637939",
    "#843c39",
]


@dataclass(frozen=True)
class Point:
    x: object  # a number, or a label when the axis is categorical
    mean: float
    low: float
    high: float


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(lo / step) * step
    return [round(first + i * step, 10) for i in range(int(math.ceil((hi - first) / step)) + 1)]


def _fmt(value: float) -> str:
    return f"{value:g}"


def chart(series: dict[str, list[Point]], *, title: str, xlabel: str, ylabel: str, categorical: bool = False) -> str:
    """SVG markup of the series; x categorical (labels in first-seen order) or numeric."""
    points = [p for pts in series.values() for p in pts if math.isfinite(p.mean)]
    if not points:
        return _frame(title, '<text x="50%" y="50%" text-anchor="middle">no data yet</text>')
    ys = nice_ticks(min(p.low for p in points), max(p.high for p in points))
    y0, y1 = ys[0], ys[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def sy(y):
        return TOP + plot_h * (1 - (y - y0) / (y1 - y0))

    if categorical:
        labels = list(dict.fromkeys(p.x for p in points))
        slot = plot_w / len(labels)
        xticks = [(LEFT + slot * (i + 0.5), str(label)) for i, label in enumerate(labels)]
        spread = min(slot * 0.6, 12 * len(series)) / max(1, len(series))

        def sx(x, k):
            return LEFT + slot * (labels.index(x) + 0.5) + (k - (len(series) - 1) / 2) * spread
    else:
        xs = nice_ticks(min(float(p.x) for p in points), max(float(p.x) for p in points))
        xticks = [(LEFT + plot_w * (x - xs[0]) / (xs[-1] - xs[0]), _fmt(x)) for x in xs]

        def sx(x, k):
            return LEFT + plot_w * (float(x) - xs[0]) / (xs[-1] - xs[0])

    out = [
        f'<line class="axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>',
    ]
    for y in ys:
        out.append(
            f'<line class="grid" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{sy(y):.1f}" y2="{sy(y):.1f}"/>'
            f'<text x="{LEFT - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">{_fmt(y)}</text>'
        )
    for x, label in xticks:
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">{escape(label)}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 10}" text-anchor="middle">{escape(xlabel)}</text>')
    out.append(
        f'<text transform="translate(14 {TOP + plot_h / 2}) rotate(-90)" text-anchor="middle">{escape(ylabel)}</text>'
    )
    for k, (name, pts) in enumerate(series.items()):
        colour = COLOURS[k % len(COLOURS)]
        pts = [p for p in pts if math.isfinite(p.mean)]
        out.append(f'<g class="series" stroke="{colour}" fill="{colour}"><title>{escape(name)}</title>')
        if not categorical and len(pts) > 1:
            path = " ".join(f"{sx(p.x, k):.1f},{sy(p.mean):.1f}" for p in sorted(pts, key=lambda p: float(p.x)))
            out.append(f'<polyline fill="none" points="{path}"/>')
        for p in pts:
            x = sx(p.x, k)
            out.append(
                f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{sy(p.low):.1f}" y2="{sy(p.high):.1f}"/>'
                f'<line x1="{x - 4:.1f}" x2="{x + 4:.1f}" y1="{sy(p.low):.1f}" y2="{sy(p.low):.1f}"/>'
                f'<line x1="{x - 4:.1f}" x2="{x + 4:.1f}" y1="{sy(p.high):.1f}" y2="{sy(p.high):.1f}"/>'
                f'<circle cx="{x:.1f}" cy="{sy(p.mean):.1f}" r="3.5"><title>{escape(name)} '
                f"{escape(str(p.x))}: {p.mean:.4g} [{p.low:.4g}, {p.high:.4g}]</title></circle>"
            )
        out.append("</g>")
        ly = TOP + 14 * k + 6
        out.append(
            f'<rect x="{WIDTH - RIGHT + 12}" y="{ly - 8}" width="10" height="10" fill="{colour}"/>'
            f'<text x="{WIDTH - RIGHT + 28}" y="{ly + 1}">{escape(name)}</text>'
        )
    return _frame(title, "".join(out))


def _frame(title: str, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(title, {chr(34): "&quot;"})}">'
        f"<title>{escape(title)}</title><style>text{{font:11px sans-serif;fill:#222}}"
        f".axis{{stroke:#222}}.grid{{stroke:#ddd}}.series line,.series polyline{{stroke-width:1.5}}</style>"
        f'<text x="{LEFT}" y="20" style="font-weight:bold;font-size:13px">{escape(title)}</text>{body}</svg>'
    )
