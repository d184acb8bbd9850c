"""Market makers: pure functions of integer state (no Django), one interface for every treatment.

`quote(state, action, security)` returns (cost, new_state) for one unit, where cost > 0 is paid by the
bettor and cost < 0 received; it raises OutOfBounds when the trade would leave the price range.

Linear maker, *edge convention* (docs/guides/organisers/markets.md). Edge j joins human price j and j+1 and has
one human value j+1 and one computer value 100-j, so at human price h:

    buy H  -> h+1, pays h+1        sell H -> h-1, receives h
    buy C  -> h-1, pays 101-h      sell C -> h+1, receives 100-h

Every trade crosses one edge at that edge's value, so the market is path independent: a round trip
costs nothing, a complete set (1 H + 1 C) always costs 101, and the maker's loss is at most
0+1+...+49 = 1,225 points. The tempting "naive" reading (buy H at h, buy C at 100-h) sells a
complete set for 99 to two colluding bettors, forever; see tests/markets/test_makers.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

PAYOUT = 100
BUY, SELL = "buy", "sell"
HUMAN, COMPUTER = "H", "C"


class OutOfBounds(ValueError):
    pass


@dataclass(frozen=True)
class MarketState:
    human_price: int = 50
    q_human: int = 0  # human securities sold by the maker (net)
    q_computer: int = 0


def _moves_up(action: str, security: str) -> bool:
    """Buying human or selling computer raises the human price."""
    if action not in (BUY, SELL) or security not in (HUMAN, COMPUTER):
        raise ValueError(f"unknown trade {action!r} {security!r}")
    return (action == BUY) == (security == HUMAN)


def _shares(state: MarketState, action: str, security: str) -> MarketState:
    delta = 1 if action == BUY else -1
    if security == HUMAN:
        return replace(state, q_human=state.q_human + delta)
    return replace(state, q_computer=state.q_computer + delta)


@dataclass(frozen=True)
class LinearMaker:
    kind = "linear"

    def quote(self, state: MarketState, action: str, security: str) -> tuple[int, MarketState]:
        h = state.human_price
        up = _moves_up(action, security)
        after = h + 1 if up else h - 1
        if not 0 <= after <= PAYOUT:
            raise OutOfBounds(f"The human price cannot go {'above 100' if up else 'below 0'}.")
        edge = h if up else h - 1  # the edge crossed joins prices `edge` and `edge + 1`
        value = edge + 1 if security == HUMAN else PAYOUT - edge
        cost = value if action == BUY else -value
        return cost, replace(_shares(state, action, security), human_price=after)

    def quotes(self, state: MarketState) -> dict:
        """`quotes(self, state)` in closed form (a push per trade needs them): buying H crosses the
        edge above h, selling H the one below; C is the mirror image."""
        h = state.human_price
        up, down = h < PAYOUT, h > 0
        return {
            HUMAN: {"ask": h + 1 if up else None, "bid": h if down else None},
            COMPUTER: {"ask": PAYOUT + 1 - h if down else None, "bid": PAYOUT - h if up else None},
        }

    def max_loss(self) -> int:
        return sum(range(PAYOUT // 2))  # 1,225


@dataclass(frozen=True)
class LmsrMaker:
    """Hanson's LMSR with liquidity b (shares); buys pay the ceiling, sells receive the floor."""

    b: float = 18.0
    kind = "lmsr"

    def cost_function(self, q_human: int, q_computer: int) -> float:
        top = max(q_human, q_computer) / self.b
        return (
            PAYOUT * self.b * (top + math.log(math.exp(q_human / self.b - top) + math.exp(q_computer / self.b - top)))
        )

    def price(self, q_human: int, q_computer: int) -> float:
        return PAYOUT / (1.0 + math.exp((q_computer - q_human) / self.b))

    def quote(self, state: MarketState, action: str, security: str) -> tuple[int, MarketState]:
        _moves_up(action, security)
        after = _shares(state, action, security)
        exact = self.cost_function(after.q_human, after.q_computer) - self.cost_function(
            state.q_human, state.q_computer
        )
        cost = math.ceil(exact - 1e-9) if action == BUY else math.floor(exact + 1e-9)
        display = min(PAYOUT, max(0, round(self.price(after.q_human, after.q_computer))))
        return cost, replace(after, human_price=display)

    def max_loss(self) -> int:
        return math.ceil(PAYOUT * self.b * math.log(2))


def maker_for(kind: str, *, b: float = 18.0):
    if kind == "lmsr":
        return LmsrMaker(b=b)
    if kind == "linear":
        return LinearMaker()
    raise ValueError(f"unknown market maker {kind!r}")


def quotes(maker, state: MarketState) -> dict:
    """Bid/ask of both securities at this state (None where the bound forbids the trade)."""
    closed_form = getattr(maker, "quotes", None)
    if closed_form is not None:
        return closed_form(state)
    return quoted(maker, state)


def quoted(maker, state: MarketState) -> dict:
    """`quotes` from the maker's own `quote`, one trade at a time (the definition)."""
    result = {}
    for security in (HUMAN, COMPUTER):
        side = {}
        for action, name in ((BUY, "ask"), (SELL, "bid")):
            try:
                side[name] = abs(maker.quote(state, action, security)[0])
            except OutOfBounds:
                side[name] = None
        result[security] = side
    return result
