"""Shared helpers of the conversation-market tests: an interrogation with a market on it."""

import itertools

from arena import services as arena_services
from markets import services

_keys = itertools.count()


def xkey() -> str:
    return f"x{next(_keys)}"


def xmarket(cast, *, three_party=True, start=True, delay_s=60.0, **fields):
    """jude judges connie (human) and the Simple Bot (three-party; human on the left), or the Simple
    Bot alone (one-to-one); a market on it, the interrogation started unless `start` is False."""
    witnesses = [cast.connie, cast.simple] if three_party else [cast.simple]
    interrogation = arena_services.interrogation_create(
        judge=cast.jude,
        witnesses=witnesses,
        time_limit_s=300,
        title="Round 1",
        sides=("left", "right") if three_party else None,
    )
    market = services.xmarket_open(interrogation_id=interrogation.pk, delay_s=delay_s, **fields)
    if start:
        arena_services.interrogation_start(interrogation_id=interrogation.pk)
        services.xmarket_sync(market_id=market.pk)
    market.refresh_from_db()
    return market


def xtrade(market, user, action="buy", security="H", key=None):
    return services.xmarket_trade(market_id=market.pk, user=user, action=action, security=security, key=key or xkey())
