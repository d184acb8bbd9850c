"""Geometry of the results pages' server-rendered SVG charts (no Django): the templates draw it, and escape
every name, so nothing here builds markup."""
from __future__ import annotations

import math

LABEL_W = 170  # px for the names on the left
PLOT_W = 420
ROW_H = 22


def _nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    span = max(high - low, 1e-9)
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    return [round(first + k * step, 6) for k in range(int((high - first) // step) + 1)]


def ci_plot(rows: list[dict]) -> dict:
    """Ratings with their intervals as horizontal bars: rows of {"name", "rating", "ci_low", "ci_high"}
    (intervals may be None).  Returns the SVG's size, one mark per row, and the axis ticks."""
    values = [r["rating"] for r in rows] + [v for r in rows for v in (r["ci_low"], r["ci_high"]) if v is not None]
    if not values:
        return {"width": LABEL_W + PLOT_W + 20, "height": 40, "rows": [], "ticks": []}
    low, high = min(values), max(values)
    pad = max((high - low) * 0.05, 10.0)
    low, high = low - pad, high + pad

    def x(value):
        return round(LABEL_W + (value - low) / (high - low) * PLOT_W, 2)

    marks = []
    for k, r in enumerate(rows):
        y = 10 + k * ROW_H + ROW_H / 2
        marks.append({"name": r["name"], "y": y, "x": x(r["rating"]), "rating": r["rating"],
                      "x_low": x(r["ci_low"]) if r["ci_low"] is not None else None,
                      "x_high": x(r["ci_high"]) if r["ci_high"] is not None else None})
    height = 10 + len(rows) * ROW_H + 30
    ticks = [{"x": x(t), "label": f"{t:g}"} for t in _nice_ticks(low, high)]
    return {"width": LABEL_W + PLOT_W + 20, "height": height, "axis_y": height - 26, "rows": marks, "ticks": ticks}


def _colour(fraction: float) -> str:
    """0 → red (#d7301f), ½ → white, 1 → blue (#2166ac)."""
    lo, mid, hi = (215, 48, 31), (247, 247, 247), (33, 102, 172)
    t = min(max(fraction, 0.0), 1.0)
    a, b, u = (lo, mid, t * 2) if t < 0.5 else (mid, hi, t * 2 - 1)
    return "#%02x%02x%02x" % tuple(round(a[i] + (b[i] - a[i]) * u) for i in range(3))


def heat_map(names: list[str], fraction, count, cell: int = 34) -> dict:
    """Win fractions (row's score against column / battles) as coloured cells, battle counts inside."""
    left, top = LABEL_W, 24
    cells = []
    for i, _ in enumerate(names):
        for j, _ in enumerate(names):
            n = int(count[i][j])
            if i == j or n == 0:
                continue
            f = float(fraction[i][j])
            cells.append({"x": left + j * cell, "y": top + i * cell, "fill": _colour(f), "fraction": f"{f:.2f}",
                          "n": n, "tx": left + j * cell + cell / 2, "ty": top + i * cell + cell / 2 + 4})
    return {"width": left + len(names) * cell + 10, "height": top + len(names) * cell + 10, "cell": cell,
            "rows": [{"name": n, "y": top + k * cell + cell / 2 + 4} for k, n in enumerate(names)],
            "columns": [{"index": k + 1, "x": left + k * cell + cell / 2} for k in range(len(names))],
            "cells": cells, "top": top}
