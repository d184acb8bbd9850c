"""Turing Trade's price chart (core.charts): the human price at the game's start and after every trade,
on a time axis; consoles append a point on each trade push."""

from core.charts import Column, chart_series

OPENING_PRICE = 50  # the market's human price before any trade (Market.human_price's default)
PRICE_CHART_ID = "price-chart"


def price_rows(*, opened: dict | None, history: list[dict]) -> list[dict]:
    """The opening point (seq 0) before the history when the history starts at the first trade."""
    if opened and (not history or history[0]["seq"] == 1):
        return [opened, *history]
    return history


def price_chart(*, opened: dict | None, history: list[dict], trades: list[dict] | None = None) -> dict:
    """The price over the game: `history` as the consoles' price points ({seq, price, at}); `trades` (the
    public log's, with who traded what) adds a column saying which trade moved the price."""
    columns = [Column("at", "Time", "time"), Column("price", "Human price"), Column("seq", "Trade no.")]
    rows = price_rows(opened=opened, history=history)
    if trades is not None:
        columns.append(Column("trade", "Trade", "text"))
        what = {
            t["seq"]: f"bettor {t['bettor']} {t['action']}s {'human' if t['security'] == 'H' else 'computer'}"
            for t in trades
        }
        rows = [{**r, "trade": what.get(r["seq"], "opening price")} for r in rows]
    return chart_series(
        id=PRICE_CHART_ID,
        title="Human price over the game",
        columns=columns,
        rows=rows,
        x="at",
        y=["price"],
        y_range=(0, 100),
        y_label="human price",
        stepped=True,
    )
