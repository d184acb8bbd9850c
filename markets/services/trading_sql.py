"""The PostgreSQL path of a trade: one round trip, `SELECT ... FROM markets_trade_place(...)`
(markets/sql/trade_place_v2.sql, migration 0005), instead of the ORM path's dozen. It follows the
rules stated in markets/services/trading.py's docstring, as `trading._trade` does; a refusal comes
back as an outcome and is raised here as the same error.

Early lock release. A game's trades are serialised by its market row lock, and PostgreSQL holds row
locks until the commit record is flushed to disk: every trade of a game would wait for the previous
trade's WAL flush, one at a time. So a trade of its own (outside a caller's transaction) commits
with `synchronous_commit = off`, which releases its locks as soon as the commit record is written,
and then, in the same round trip, waits for the flush with a tiny synchronously committed
transaction (`pg_logical_emit_message`, which writes one WAL record after ours): WAL is flushed in
order, so when that returns our trade is on disk. Nothing is answered, pushed or returned before
that, so a crash loses only trades nobody was told about, exactly as with a synchronous commit; the
flushes of concurrent trades share one fsync (group commit) instead of queueing behind the lock. A
later trade that read our price commits after us in the WAL, so it is never durable without ours.
"""

import contextlib

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from psycopg.pq import TransactionStatus

from markets.makers import LinearMaker, MarketState, OutOfBounds, quotes
from markets.models import Account, Market, Participant, Trade
from markets.services.refusals import collided, insufficient, price_bound, refusal

# the function's OUT columns, in order
COLUMNS = (
    "outcome",
    "trade_id",
    "seq",
    "action",
    "security",
    "cost",
    "price_before",
    "price_after",
    "q_human",
    "q_computer",
    "question_id",
    "created_at",
    "participant_id",
    "number",
    "account_id",
    "holding",
    "quantity",
    "balance",
)
CALL = f"SELECT {', '.join(COLUMNS)} FROM markets_trade_place(%s, %s, %s, %s, %s, %s, %s)"
# the early-release form (see above): several statements in one simple-protocol query (Django's
# psycopg cursors bind parameters client-side): the trade's transaction, then the flush wait
EARLY_RELEASE = (
    "BEGIN; SELECT set_config('synchronous_commit', 'off', true); " + CALL + "; COMMIT; "
    "SELECT pg_logical_emit_message(true, 'markets.trade', '')"
)
EARLY_RELEASE_ROW = 2  # BEGIN, set_config, then the trade's row
LINEAR = LinearMaker()
# the fields `_trade` fills, in the models' order (`from_db` takes them so; a participant's
# joined_at stays deferred)
TRADE_FIELDS = tuple(f.attname for f in Trade._meta.concrete_fields)
PARTICIPANT_FIELDS = tuple(f.attname for f in Participant._meta.concrete_fields if f.attname != "joined_at")
ACCOUNT_FIELDS = ("id", "balance")  # the bettor's account after the trade (its other fields deferred)


def trade_place_sql(*, game_id, user_id, action, security, key, lock=True) -> tuple[Trade, dict | None] | None:
    """(trade, quotes after it) for a new trade, (original, None) for a repeated click, None where the
    game's maker is not the linear one (the caller takes the Python path)."""
    # inside a caller's atomic block, the single statement in a savepoint, which keeps an unexpected
    # database error from breaking the caller's transaction (the trade is durable when that commits)
    inside = connection.in_atomic_block
    scope = transaction.atomic() if inside else contextlib.nullcontext()
    params = [game_id, user_id, action, security, key, timezone.now(), lock]
    try:
        with scope, connection.cursor() as cursor:
            if inside or not lock or not _client_side_binding():
                cursor.execute(CALL, params)
            else:
                _execute_early_release(cursor, params)
            row = dict(zip(COLUMNS, cursor.fetchone()))
    except IntegrityError as exc:  # only without the locks: a stale price or seq, refused by the database
        original = Trade.objects.filter(
            participant__game_id=game_id, participant__user_id=user_id, idempotency_key=key
        ).first()
        if original is None:
            raise collided() from exc
        return original, None
    outcome = row["outcome"]
    if outcome == "python":
        return None
    if outcome == "ok":
        return _trade(row, game_id, user_id, key), quotes(
            LINEAR, MarketState(row["price_after"], row["q_human"], row["q_computer"])
        )
    if outcome == "duplicate":
        return _trade(row, game_id, user_id, key), None
    raise _refused(outcome, row, action, security)


def _client_side_binding() -> bool:
    """Several statements with parameters in one query need client-side binding, Django's default."""
    return not connection.settings_dict.get("OPTIONS", {}).get("server_side_binding")


def _execute_early_release(cursor, params) -> None:
    """Run EARLY_RELEASE and leave the cursor on the trade's row. An error in the explicit transaction
    skips the rest of the query and leaves that transaction aborted: roll it back before raising."""
    try:
        cursor.execute(EARLY_RELEASE, params)
    except Exception:
        raw = connection.connection
        if raw is not None and raw.info.transaction_status == TransactionStatus.INERROR:
            raw.execute("ROLLBACK")
        raise
    raw = cursor.cursor
    for _ in range(EARLY_RELEASE_ROW):
        raw.nextset()
    if raw.pgresult is None or raw.pgresult.nfields != len(COLUMNS) or raw.rowcount != 1:
        raise AssertionError("the trade's row is not where the early-release query puts it")


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
    """The trade as the ORM would load it, its bettor (the position after it) and the bettor's account
    (the balance after it) cached on it."""
    participant = _loaded(
        Participant,
        PARTICIPANT_FIELDS,
        {
            "id": row["participant_id"],
            "game_id": game_id,
            "user_id": user_id,
            "number": row["number"],
            "account_id": row["account_id"],
            "security": row["holding"],
            "quantity": row["quantity"],
        },
    )
    trade = _loaded(
        Trade,
        TRADE_FIELDS,
        {
            "id": row["trade_id"],
            "game_id": game_id,
            "seq": row["seq"],
            "participant_id": row["participant_id"],
            "action": row["action"],
            "security": row["security"],
            "cost": row["cost"],
            "price_before": row["price_before"],
            "price_after": row["price_after"],
            "question_id": row["question_id"],
            "idempotency_key": key,
            "created_at": row["created_at"],
        },
    )
    participant.account = _loaded(Account, ACCOUNT_FIELDS, {"id": row["account_id"], "balance": row["balance"]})
    trade.participant = participant
    return trade


def _loaded(model, fields: tuple, values: dict):
    """An instance as loaded from the database (`fields`, in the model's order; the rest deferred)."""
    return model.from_db(connection.alias, fields, [values[name] for name in fields])
