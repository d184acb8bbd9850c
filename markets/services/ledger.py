"""Double-entry bookkeeping: every movement of points is one LedgerTxn whose legs sum to zero."""
from django.db import IntegrityError
from django.db.models import F

from arena.errors import InvalidInput
from markets.models import Account, LedgerEntry, LedgerTxn


class InsufficientPoints(InvalidInput):
    code = "insufficient_points"


def ledger_post(*, game, kind: str, legs: list[tuple[Account, int]], participant=None) -> LedgerTxn:
    """Write one balanced transaction and update the cached balances with F() (inside the caller's
    transaction). Accounts are updated in ascending id order, so two posts can never deadlock."""
    if sum(amount for _, amount in legs) != 0:
        raise ValueError(f"unbalanced ledger transaction: {legs!r}")
    txn = LedgerTxn.objects.create(game=game, kind=kind, participant=participant)
    LedgerEntry.objects.bulk_create([LedgerEntry(txn=txn, account=account, amount=amount) for account, amount in legs if amount])
    for account, amount in sorted(legs, key=lambda leg: leg[0].pk):
        if not amount:
            continue
        try:
            Account.objects.filter(pk=account.pk).update(balance=F("balance") + amount)
        except IntegrityError:  # the database check: a bettor's balance cannot go below zero
            raise InsufficientPoints("You do not have enough points for that.") from None
    return txn


def house_account(*, game, kind: str) -> Account:
    return Account.objects.get(game=game, kind=kind)
