"""The game page's charts (core.charts, drawn by Vega-Lite): votes received against each agent, with the
number that ends the game, and penalties per agent."""

from core.charts import Column, chart_plot, spec_bars


def votes_chart(*, against: dict[str, int], end_votes: int) -> dict:
    rows = [{"agent": name, "votes": int(n)} for name, n in against.items()]
    return chart_plot(
        id="votes-chart",
        title=f"Votes against each agent (the game ends at {end_votes})",
        rows=rows,
        columns=[Column("agent", "Agent", "text"), Column("votes", "Votes against")],
        spec=spec_bars(category="agent", value="votes", title="votes against", limit=end_votes),
    )


def penalty_chart(*, penalties: dict[str, int]) -> dict:
    rows = [{"agent": name, "penalties": int(n)} for name, n in penalties.items()]
    return chart_plot(
        id="penalty-chart",
        title="Penalties per agent",
        rows=rows,
        columns=[Column("agent", "Agent", "text"), Column("penalties", "Penalties")],
        spec=spec_bars(category="agent", value="penalties", title="penalties", colour="#b3261e"),
    )
