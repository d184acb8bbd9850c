"""The PostgreSQL path of a trade: one statement, `SELECT * FROM markets_trade_place(...)` (migration
0003), instead of the ORM path's dozen round trips. It locks, checks and writes exactly what
`trading._trade` does; a refusal comes back as an outcome and is raised here as the same error.
"""
import contextlib

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from markets.makers import LinearMaker, MarketState, OutOfBounds, quotes
from markets.models import Market, Participant, Trade
from markets.services.refusals import collided, insufficient, price_bound, refusal

# the function's OUT columns, in order
COLUMNS = ("outcome", "trade_id", "seq", "action", "security", "cost", "price_before", "price_after", "q_human",
           "q_computer", "question_id", "txn_id", "created_at", "participant_id", "number", "account_id", "holding",
           "quantity", "balance")
CALL = f"SELECT {', '.join(COLUMNS)} FROM markets_trade_place(%s, %s, %s, %s, %s, %s, %s)"
LINEAR = LinearMaker()


def trade_place_sql(*, game_id, user_id, action, security, key, lock=True) -> tuple[Trade, dict | None] | None:
    """(trade, quotes after it) for a new trade, (original, None) for a repeated click, None where the
    game's maker is not the linear one (the caller takes the Python path)."""
    # a single statement is its own transaction; inside a caller's atomic block, a savepoint keeps
    # an unexpected database error from breaking the caller's transaction
    scope = transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext()
    try:
        with scope, connection.cursor() as cursor:
            cursor.execute(CALL, [game_id, user_id, action, security, key, timezone.now(), lock])
            row = dict(zip(COLUMNS, cursor.fetchone()))
    except IntegrityError as exc:  # only without the locks: a stale price or seq, refused by the database
        original = Trade.objects.filter(participant__game_id=game_id, participant__user_id=user_id, idempotency_key=key).first()
        if original is None:
            raise collided() from exc
        return original, None
    outcome = row["outcome"]
    if outcome == "python":
        return None
    if outcome == "ok":
        return _trade(row, game_id, user_id, key), quotes(LINEAR, MarketState(row["price_after"], row["q_human"], row["q_computer"]))
    if outcome == "duplicate":
        return _trade(row, game_id, user_id, key), None
    raise _refused(outcome, row, action, security)


def _refused(outcome: str, row: dict, action: str, security: str) -> Exception:
    if outcome == "no_market":
        return Market.DoesNotExist("Market matching query does not exist.")
    if outcome == "price_bound":
        try:
            LINEAR.quote(MarketState(human_price=row["price_before"]), action, security)
        except OutOfBounds as exc:
            return price_bound(exc)
        raise AssertionError(f"the database refused a trade the linear maker allows: {row!r}")
    if outcome == "insufficient_points":
        return insufficient(row["balance"], row["cost"])
    return refusal(outcome)


def _trade(row: dict, game_id: int, user_id, key: str) -> Trade:
    """The trade as the ORM would load it, its bettor (the position after it) cached on it."""
    participant = _loaded(Participant, {
        "id": row["participant_id"], "game_id": game_id, "user_id": user_id, "number": row["number"],
        "account_id": row["account_id"], "security": row["holding"], "quantity": row["quantity"],
    })
    trade = _loaded(Trade, {
        "id": row["trade_id"], "game_id": game_id, "seq": row["seq"], "participant_id": row["participant_id"],
        "action": row["action"], "security": row["security"], "cost": row["cost"], "price_before": row["price_before"],
        "price_after": row["price_after"], "question_id": row["question_id"], "txn_id": row["txn_id"],
        "idempotency_key": key, "created_at": row["created_at"],
    })
    trade.participant = participant
    return trade


def _loaded(model, values: dict):
    """An instance as loaded from the database (fields not given are deferred)."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(connection.alias, names, [values[name] for name in names])
