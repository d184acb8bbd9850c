"""The results pages' charts (core.charts, drawn by Vega-Lite): ratings with their intervals, the pairwise
win fractions as a heat map, each format's pass rates with their intervals beside the human baseline. Each
chart's rows are the data its table and CSV show."""

from __future__ import annotations

from core.charts import Column, chart_plot, spec_heatmap, spec_intervals

BASELINE = "humans (baseline)"


def ratings_chart(ratings: list[dict]) -> dict:
    """Bradley–Terry ratings, best first, each with its bootstrap interval (None where it has none)."""
    rows = [
        {
            "name": r["name"],
            "rating": round(r["rating"], 1),
            "ci_low": None if r["ci_low"] is None else round(r["ci_low"], 1),
            "ci_high": None if r["ci_high"] is None else round(r["ci_high"], 1),
            "battles": r["battles"],
        }
        for r in ratings
    ]
    return chart_plot(
        id="ci-plot",
        title="Ratings with 95 % confidence intervals",
        rows=rows,
        columns=[
            Column("name", "Witness", "text"),
            Column("rating", "Rating"),
            Column("ci_low", "CI low"),
            Column("ci_high", "CI high"),
            Column("battles", "Battles"),
        ],
        spec=spec_intervals(
            category="name",
            estimate="rating",
            low="ci_low",
            high="ci_high",
            title="Rating (mean 1000)",
            category_title="Witness",
            reference=1000,
        ),
    )


def matrix_chart(names: list[str], fraction, count) -> dict:
    """The share of battles each row's witness won against each column's (ties half), where they met."""
    rows = [
        {"witness": a, "opponent": b, "win_fraction": round(float(fraction[i][j]), 4), "battles": int(count[i][j])}
        for i, a in enumerate(names)
        for j, b in enumerate(names)
        if i != j and count[i][j] and fraction[i][j] is not None
    ]
    return chart_plot(
        id="heat-map",
        title="Win fractions between witnesses",
        rows=rows,
        columns=[
            Column("witness", "Witness", "text"),
            Column("opponent", "Against", "text"),
            Column("win_fraction", "Won", "percent"),
            Column("battles", "Battles"),
        ],
        spec=spec_heatmap(
            row="witness",
            column="opponent",
            value="win_fraction",
            count="battles",
            title="Won",
            order=list(names),
            row_title="Witness",
            column_title="Against",
        ),
    )


def rates_chart(block: dict) -> dict:
    """One format's pass rates (arena.results.compute.rates_by_format's block) with their Wilson intervals;
    the human baseline first, in its own colour; a dashed rule at 50 %."""
    rows = [
        {
            "name": BASELINE if r["baseline"] else r["name"],
            "kind": "human baseline" if r["baseline"] else "witness",
            "judged_human": r["judged_human"],
            "n": r["n"],
            "rate": r["rate"],
            "ci_low": r["ci_low"],
            "ci_high": r["ci_high"],
        }
        for r in block["rows"]
        if r["n"]
    ]
    return chart_plot(
        id=f"rates-{block['format']}",
        title=f"{block['label']}: judged human, with 95 % CIs",
        rows=rows,
        columns=[
            Column("name", "Witness", "text"),
            Column("judged_human", "Judged human"),
            Column("n", "n"),
            Column("rate", "Rate", "percent", 1),
            Column("ci_low", "CI low", "percent", 1),
            Column("ci_high", "CI high", "percent", 1),
        ],
        spec=spec_intervals(
            category="name",
            estimate="rate",
            low="ci_low",
            high="ci_high",
            title="Judged human",
            category_title="Witness",
            percent=True,
            domain=(0, 1),
            reference=0.5,
            colour="kind",
            colour_title="",
        ),
    )


def _interval_columns(label: str) -> list[Column]:
    return [
        Column("name", label, "text"),
        Column("k", "Judged human" if label == "Witness" else "Right"),
        Column("n", "n"),
        Column("rate", "Rate", "percent", 1),
        Column("ci_low", "CI low", "percent", 1),
        Column("ci_high", "CI high", "percent", 1),
    ]


def entry_chart(entry: str, formats: list[dict]) -> dict:
    """One entry's pass rate in each format it played beside the human baseline of that format."""
    rows = [
        {
            "name": f"{f['label']}: {entry if side == 'entry' else BASELINE}",
            "kind": kind,
            "k": r["judged_human"],
            "n": r["n"],
            "rate": r["rate"],
            "ci_low": r["ci_low"],
            "ci_high": r["ci_high"],
        }
        for f in formats
        for side, kind in (("entry", entry), ("human", "human baseline"))
        for r in [f[side]]
        if r["n"]
    ]
    return chart_plot(
        id="entry-plot",
        title=f"{entry}: judged human by format, with 95 % CIs",
        rows=rows,
        columns=_interval_columns("Witness"),
        spec=spec_intervals(
            category="name",
            estimate="rate",
            low="ci_low",
            high="ci_high",
            title="Judged human",
            percent=True,
            domain=(0, 1),
            reference=0.5,
            colour="kind",
        ),
    )


def judges_chart(judges: list[dict]) -> dict:
    """Each judge's share of right decisions with its interval; the dashed rule is guessing (50 %)."""
    rows = [
        {
            "name": j["judge"],
            "k": j["correct"],
            "n": j["n"],
            "rate": j["rate"],
            "ci_low": j["ci_low"],
            "ci_high": j["ci_high"],
        }
        for j in judges
        if j["n"]
    ]
    return chart_plot(
        id="judges-plot",
        title="Judges' accuracy with 95 % CIs",
        rows=rows,
        columns=_interval_columns("Judge"),
        spec=spec_intervals(
            category="name",
            estimate="rate",
            low="ci_low",
            high="ci_high",
            title="Decisions right",
            percent=True,
            domain=(0, 1),
            reference=0.5,
        ),
    )
