"""Double-entry bookkeeping: a grant, payout or refund is one LedgerTxn whose legs sum to zero; a trade is
a transaction of its own (markets.models.Trade), its legs implied by its row. Either way the cached
balances move in the same database transaction, in one statement (`balances_move`)."""

from django.db import IntegrityError
from django.db.models import Case, F, Value, When

from core.errors import InvalidInput
from markets.models import Account, LedgerEntry, LedgerTxn


class InsufficientPoints(InvalidInput):
    code = "insufficient_points"


def ledger_post(*, game, kind: str, legs: list[tuple[Account, int]], participant=None) -> LedgerTxn:
    """Write one balanced transaction and update the cached balances with F(), in one UPDATE, inside
    the caller's transaction (which holds the game's market lock, so posts of one game never race)."""
    if sum(amount for _, amount in legs) != 0:
        raise ValueError(f"unbalanced ledger transaction: {legs!r}")
    txn = LedgerTxn.objects.create(game=game, kind=kind, participant=participant)
    LedgerEntry.objects.bulk_create(
        [LedgerEntry(txn=txn, account=account, amount=amount) for account, amount in legs if amount]
    )
    balances_move({account.pk: amount for account, amount in legs if amount})
    return txn


def trade_legs(*, bettor_account: int, maker_account: int, cost: int) -> list[tuple[int, int]]:
    """The two legs a trade implies, (account id, amount): the bettor pays `cost` (negative: receives),
    the game's market maker receives it. The PostgreSQL trade function (migration 0005) moves the same."""
    return [(bettor_account, -cost), (maker_account, cost)]


def balances_move(moves: dict[int, int]) -> None:
    """Add each amount to its account's cached balance, all in one UPDATE with F() (inside the caller's
    transaction, which holds the game's market lock); the database refuses a negative bettor balance."""
    if not moves:
        return
    try:
        Account.objects.filter(pk__in=moves).update(
            balance=F("balance")
            + Case(*(When(pk=pk, then=Value(amount)) for pk, amount in moves.items()), default=Value(0))
        )
    except IntegrityError:
        raise InsufficientPoints("You do not have enough points for that.") from None


def house_account(*, game, kind: str) -> Account:
    return Account.objects.get(game=game, kind=kind)
