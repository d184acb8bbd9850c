"""Server-drawn SVG bar charts (votes against, penalties): numbers and escaped names only."""
from django.utils.html import escape

WIDTH, BAR_H, GAP, LABEL_W = 360, 18, 6, 90


def bars_svg(*, title: str, values: dict[str, int], limit: int | None = None, css: str = "") -> str:
    top = max([limit or 0, *values.values(), 1])
    rows = []
    for i, (name, value) in enumerate(values.items()):
        y = i * (BAR_H + GAP)
        w = (WIDTH - LABEL_W - 30) * value / top
        rows.append(
            f'<text x="0" y="{y + 13}" class="label">{escape(name)}</text>'
            f'<rect x="{LABEL_W}" y="{y}" width="{w:.1f}" height="{BAR_H}" class="bar {css}"/>'
            f'<text x="{LABEL_W + w + 4:.1f}" y="{y + 13}" class="value">{int(value)}</text>')
    if limit:
        x = LABEL_W + (WIDTH - LABEL_W - 30) * limit / top
        rows.append(f'<line x1="{x:.1f}" y1="0" x2="{x:.1f}" y2="{len(values) * (BAR_H + GAP)}" class="limit"/>')
    height = max(1, len(values)) * (BAR_H + GAP)
    return (f'<svg class="tables-chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(title)}">'
            f'<title>{escape(title)}</title>{"".join(rows)}</svg>')
