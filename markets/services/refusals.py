"""The errors of a refused trade, one wording whichever path (ORM or database function) refused it."""

from core.errors import ArenaError, Closed, InvalidInput, NotAllowed
from markets.makers import OutOfBounds
from markets.services.ledger import InsufficientPoints

_REFUSALS = {
    "not_bettor": (NotAllowed, "Only the bettors of this game can trade.", None),
    "closed": (Closed, "Trading is closed: the game is not running.", None),
    "other_type": (InvalidInput, "You hold the other security: sell it first (one type at a time).", "other_type"),
    "not_held": (InvalidInput, "You cannot sell a security you do not hold.", "not_held"),
}


def refusal(code: str) -> ArenaError:
    kind, message, error_code = _REFUSALS[code]
    return kind(message, code=error_code)


def price_bound(exc: OutOfBounds) -> InvalidInput:
    return InvalidInput(str(exc), code="price_bound")


def insufficient(balance: int, cost: int) -> InsufficientPoints:
    return InsufficientPoints(f"You have {balance} points; this costs {cost}.")


def collided() -> ArenaError:
    return ArenaError("The trade collided with another; nothing was changed, try again.", code="conflict")
