"""A study's results chart (core.charts, drawn by Vega-Lite): each witness's pass rate with its bootstrap CI."""

from core.charts import Column, chart_plot, spec_intervals


def pass_rates_chart(witnesses: list[dict]) -> dict:
    rows = [
        {
            "witness": w["witness"],
            "games": w["games"],
            "pass_rate": w["pass_rate"],
            "ci_low": w["ci_low"],
            "ci_high": w["ci_high"],
        }
        for w in witnesses
        if w["games"]
    ]
    return chart_plot(
        id="study-pass-rates",
        title="Pass rates with 95 % bootstrap CIs",
        rows=rows,
        columns=[
            Column("witness", "Witness", "text"),
            Column("games", "n"),
            Column("pass_rate", "Pass rate", "percent", 1),
            Column("ci_low", "CI low", "percent", 1),
            Column("ci_high", "CI high", "percent", 1),
        ],
        spec=spec_intervals(
            category="witness",
            estimate="pass_rate",
            low="ci_low",
            high="ci_high",
            title="Judged human",
            percent=True,
            domain=(0, 1),
            reference=0.5,
        ),
    )
