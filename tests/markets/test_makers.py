"""The market makers as pure functions: quotes, bounds, path independence, the collusion case."""

import itertools

import pytest

from markets.makers import BUY, COMPUTER, HUMAN, SELL, LinearMaker, LmsrMaker, MarketState, OutOfBounds, quoted, quotes

LINEAR = LinearMaker()


@pytest.mark.parametrize("h", [1, 37, 50, 99])
def test_edge_convention_quotes(h):
    state = MarketState(human_price=h)
    assert LINEAR.quote(state, BUY, HUMAN)[0] == h + 1
    assert LINEAR.quote(state, SELL, HUMAN)[0] == -h
    assert LINEAR.quote(state, BUY, COMPUTER)[0] == 101 - h
    assert LINEAR.quote(state, SELL, COMPUTER)[0] == -(100 - h)
    q = quotes(LINEAR, state)
    assert q[HUMAN]["ask"] - q[HUMAN]["bid"] == 1 and q[COMPUTER]["ask"] - q[COMPUTER]["bid"] == 1


def test_prices_move_one_point_per_unit():
    s = MarketState()
    assert LINEAR.quote(s, BUY, HUMAN)[1].human_price == 51
    assert LINEAR.quote(s, SELL, COMPUTER)[1].human_price == 51
    assert LINEAR.quote(s, SELL, HUMAN)[1].human_price == 49
    assert LINEAR.quote(s, BUY, COMPUTER)[1].human_price == 49


def test_bounds_0_and_100():
    top, bottom = MarketState(human_price=100), MarketState(human_price=0)
    for action, security in ((BUY, HUMAN), (SELL, COMPUTER)):
        with pytest.raises(OutOfBounds):
            LINEAR.quote(top, action, security)
    for action, security in ((SELL, HUMAN), (BUY, COMPUTER)):
        with pytest.raises(OutOfBounds):
            LINEAR.quote(bottom, action, security)
    assert quotes(LINEAR, top)[HUMAN] == {"ask": None, "bid": 100}
    assert LINEAR.quote(MarketState(human_price=99), BUY, HUMAN)[0] == 100


def test_round_trip_is_free_and_a_complete_set_costs_101():
    s = MarketState(human_price=63)
    cost, s1 = LINEAR.quote(s, BUY, HUMAN)
    back, s2 = LINEAR.quote(s1, SELL, HUMAN)
    assert cost + back == 0 and s2.human_price == 63
    a, s3 = LINEAR.quote(s, BUY, HUMAN)
    b, s4 = LINEAR.quote(s3, BUY, COMPUTER)
    assert a + b == 101 and s4.human_price == 63


def _cycle(maker, start, rounds):
    """Two colluding bettors: A buys H, B buys C (price back where it was); each holds a complete set."""
    state, paid = start, 0
    for _ in range(rounds):
        a, state = maker.quote(state, BUY, HUMAN)
        b, state = maker.quote(state, BUY, COMPUTER)
        paid += a + b
    return paid, state


def test_collusion_case_gives_no_riskless_profit():
    """The naive reading (buy H at h, buy C at 100-h) sells a set for 99 that pays 100, forever.
    With the edge convention the pair pays 101 per set: a sure loss of 1 each time."""
    paid, state = _cycle(LINEAR, MarketState(), 1000)
    assert state.human_price == 50
    assert paid == 101 * 1000 > 100 * 1000  # payout of 1000 complete sets is exactly 100 000

    def naive(state, action, security):  # the exploitable reading, for contrast
        h = state.human_price
        if security == HUMAN:
            return (h if action == BUY else -(h - 1)), MarketState(human_price=h + (1 if action == BUY else -1))
        return ((100 - h) if action == BUY else -(99 - h)), MarketState(human_price=h - (1 if action == BUY else -1))

    class Naive:
        quote = staticmethod(naive)

    naive_paid, _ = _cycle(Naive, MarketState(), 1000)
    assert 100 * 1000 - naive_paid == 1000  # the colluders' riskless profit under the naive reading


def test_no_two_account_arbitrage_in_short_sequences():
    """Exhaustive: every sequence of up to 5 unit trades by two accounts (no shorting) ends with
    points + holdings worth at most what they started with, in both outcomes."""
    moves = [(who, a, s) for who in (0, 1) for a in (BUY, SELL) for s in (HUMAN, COMPUTER)]
    for n in range(1, 6):
        for seq in itertools.product(moves, repeat=n):
            state, cash, held = MarketState(), 0, [{HUMAN: 0, COMPUTER: 0}, {HUMAN: 0, COMPUTER: 0}]
            try:
                for who, action, security in seq:
                    if action == SELL and held[who][security] == 0:
                        raise OutOfBounds
                    cost, state = LINEAR.quote(state, action, security)
                    cash -= cost
                    held[who][security] += 1 if action == BUY else -1
            except OutOfBounds:
                continue
            h = sum(x[HUMAN] for x in held)
            c = sum(x[COMPUTER] for x in held)
            assert max(cash + 100 * h, cash + 100 * c) <= 0 or min(cash + 100 * h, cash + 100 * c) < 0


def test_linear_maker_loss_bound_is_1225():
    state, received = MarketState(), 0
    while True:
        try:
            cost, state = LINEAR.quote(state, BUY, HUMAN)
        except OutOfBounds:
            break
        received += cost
    assert state.human_price == 100 and received - 50 * 100 == -1225 == -LINEAR.max_loss()


def test_lmsr_quotes_are_integers_with_spread_and_bounded_loss():
    maker = LmsrMaker(b=18)
    state = MarketState()
    buy, after = maker.quote(state, BUY, HUMAN)
    sell, back = maker.quote(after, SELL, HUMAN)
    assert isinstance(buy, int) and buy >= -sell  # ceil on buys, floor on sells: never a free round trip
    received = 0
    for _ in range(2000):
        cost, state = maker.quote(state, BUY, HUMAN)
        received += cost
    assert received - 2000 * 100 >= -maker.max_loss()
    assert state.human_price == 100


def test_linear_quotes_in_closed_form_are_the_quotes_of_its_trades():
    """The closed form pushed with every trade: at each price, each bid/ask is what that trade costs,
    None past a bound."""
    maker = LinearMaker()
    for price in range(101):
        state = MarketState(human_price=price)
        assert quotes(maker, state) == quoted(maker, state), price
    assert quotes(maker, MarketState(human_price=0)) == {"H": {"ask": 1, "bid": None}, "C": {"ask": None, "bid": 100}}
