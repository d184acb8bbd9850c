"""Trading one unit with the game's market maker (the Turing Trade rules; the maker and its quoting convention:
docs/guides/organisers/markets.md).

Two paths, one behaviour: on PostgreSQL a linear-maker trade is one round trip to the database
function `markets_trade_place` (markets/sql/trade_place_v2.sql, called by
markets/services/trading_sql.py); SQLite, the LMSR treatment and `path="python"` take the ORM path,
`_trade` below. tests/markets/test_trading_paths.py runs both on the same trades and compares every
answer and the books. Pushes go out after the commit, off the trade's path (core.notify's pump).

The rules both paths follow (this is the one statement of them; change both paths together):

1. One transaction. Before any lock, read the game's maker account (it never changes) and the
   current question, the newest numbered one ("what the trader saw"): a shorter lock hold.
2. Locking order: the game's market row first (FOR UPDATE; it serialises the game's trades), then
   the bettor's participant row. No market row: `Market.DoesNotExist`.
3. Checks, in this order; a refusal writes nothing and is the same error on both paths
   (markets/services/refusals.py; the SQL function returns it as `outcome`):
   - the user is not a bettor of the game: `not_bettor`;
   - the bettor already made a trade with this idempotency key: that original trade is the answer
     (a repeated click), even if the same trade would now be refused; nothing changes;
   - (SQL only) the game's maker is not the linear one: outcome `python`, the ORM path takes over;
   - the game is not running or its deadline has passed: `closed`;
   - a buy while holding the other security (one type at a time): `other_type`;
   - a sell of a security not held: `not_held`;
   - the price would leave 0..100: `price_bound`;
   - the cost exceeds the bettor's balance (no negative balance): `insufficient_points`.
4. Price (the linear maker's edge convention, markets/makers.py `LinearMaker.quote`), at human price
   h: buy H pays h+1, sell H receives h, buy C pays 101-h, sell C receives 100-h; h moves by 1
   (up for buy H and sell C, down otherwise). The LMSR maker prices on the ORM path only.
5. Writes: the bettor's account pays `cost` (negative for a sell) and the maker's account receives it (both cached
   balances; the trade row is the ledger transaction, no LedgerTxn or legs); the position moves by
   one unit (its security cleared at zero); the market's price, q_human/q_computer and seq (+1); one
   Trade row (seq, action, security, cost, prices before and after, current question, idempotency
   key, time).
"""

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from core import metrics
from core.errors import InvalidInput
from markets import notify
from markets.makers import BUY, COMPUTER, HUMAN, SELL, MarketState, OutOfBounds, maker_for, quotes
from markets.models import Account, Game, Market, Participant, Question, Trade
from markets.services import trading_sql
from markets.services.ledger import balances_move, house_account, trade_legs
from markets.services.refusals import collided, insufficient, price_bound, refusal

KEY_MAX = 64
PATHS = ("sql", "python")


class DuplicateClick(Exception):
    def __init__(self, trade):
        self.trade = trade


def market_maker(game: Game):
    return maker_for(game.market_maker, b=game.lmsr_b)


def market_state(market: Market) -> MarketState:
    return MarketState(human_price=market.human_price, q_human=market.q_human, q_computer=market.q_computer)


def _clean(action, security, key) -> tuple[str, str, str]:
    if action not in (BUY, SELL):
        raise InvalidInput('action must be "buy" or "sell".')
    if security not in (HUMAN, COMPUTER):
        raise InvalidInput('security must be "H" (human) or "C" (computer).')
    # printable: PostgreSQL's text cannot hold NUL (the trade failed in its SQL, a server error), and
    # no page makes a key of control or invisible characters
    if not isinstance(key, str) or not key or len(key) > KEY_MAX or not key.isprintable():
        raise InvalidInput(f"Each click needs an idempotency key of 1 to {KEY_MAX} printable characters.")
    return action, security, key


def trade_place(*, game_id: int, user, action, security, key, lock: bool = True, path: str | None = None) -> Trade:
    """`lock=False` exists only so a test can show what the locks prevent (lost updates); `path`
    ("sql" on PostgreSQL, "python") only so tests can run both paths on the same trades."""
    action, security, key = _clean(action, security, key)
    path = path or ("sql" if connection.vendor == "postgresql" else "python")
    if path not in PATHS:
        raise ValueError(f"unknown trading path {path!r}")
    placed = None
    if path == "sql":
        placed = trading_sql.trade_place_sql(
            game_id=game_id, user_id=getattr(user, "pk", None), action=action, security=security, key=key, lock=lock
        )
    if placed is None:  # SQLite, or a maker the database function leaves to Python (LMSR)
        placed = _trade_place_python(game_id, user, action, security, key, lock)
    trade, market_quotes = placed
    if market_quotes is not None:  # a new trade, not a repeated click
        metrics.TRADES.inc()
        transaction.on_commit(lambda: notify.traded(trade, market_quotes))
    return trade


def _trade_place_python(game_id, user, action, security, key, lock) -> tuple[Trade, dict | None]:
    try:
        with transaction.atomic():
            return _trade(game_id, user, action, security, key, lock)
    except DuplicateClick as duplicate:
        return duplicate.trade, None
    except IntegrityError as exc:  # a duplicate committed between our check and insert (unlocked variant)
        original = Trade.objects.filter(
            participant__game_id=game_id, participant__user_id=user.pk, idempotency_key=key
        ).first()
        if original is None:
            raise collided() from exc
        return original, None


def _trade(game_id, user, action, security, key, lock):
    # read before taking the lock (immutable, or only "what the trader saw"): a shorter lock hold
    maker_account = house_account(game=Game(pk=game_id), kind=Account.Kind.MAKER)
    latest = (
        Question.objects.filter(game_id=game_id, number__isnull=False)
        .order_by("-number")
        .values_list("pk", flat=True)
        .first()
    )
    markets = Market.objects.select_for_update(of=("self",)) if lock else Market.objects
    market = markets.select_related("game").get(game_id=game_id)
    game = market.game
    participants = Participant.objects.select_for_update(of=("self",)) if lock else Participant.objects
    participant = participants.select_related("account").filter(game=game, user_id=getattr(user, "pk", None)).first()
    if participant is None:
        raise refusal("not_bettor")
    original = Trade.objects.filter(participant=participant, idempotency_key=key).first()
    if original:  # a repeated click: the original answer, even if the same trade would now be refused
        raise DuplicateClick(original)
    now = timezone.now()
    if game.status != Game.Status.RUNNING or (game.deadline and now >= game.deadline):
        raise refusal("closed")
    if action == BUY and participant.quantity and participant.security != security:
        raise refusal("other_type")
    if action == SELL and (participant.security != security or participant.quantity < 1):
        raise refusal("not_held")
    maker = market_maker(game)
    before = market_state(market)
    try:
        cost, after = maker.quote(before, action, security)
    except OutOfBounds as exc:
        raise price_bound(exc) from None
    if cost > participant.account.balance:
        raise insufficient(participant.account.balance, cost)
    balances_move(dict(trade_legs(bettor_account=participant.account_id, maker_account=maker_account.pk, cost=cost)))
    participant.account.balance -= cost  # as the update left it (the trader's page is sent its points)
    participant.quantity += 1 if action == BUY else -1
    participant.security = security if participant.quantity else ""
    participant.save(update_fields=["quantity", "security"])
    market.human_price, market.q_human, market.q_computer = after.human_price, after.q_human, after.q_computer
    market.seq += 1
    market.save(update_fields=["human_price", "q_human", "q_computer", "seq"])
    trade = Trade.objects.create(
        game=game,
        seq=market.seq,
        participant=participant,
        action=action,
        security=security,
        cost=cost,
        price_before=before.human_price,
        price_after=after.human_price,
        question_id=latest,
        idempotency_key=key,
        created_at=now,
    )
    return trade, quotes(maker, after)
