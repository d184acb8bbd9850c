"""Which interrogations get a crowd market, and how: one interface for every format.

A format registers a policy, `policy(interrogation) -> dict | None`: None when it has no say (not its
interrogation, or its organiser did not allow spectators), else the keyword arguments of
`xmarket_open` (`delay_s`, `market_maker`, ...). `markets.services.xmarkets.xmarkets_ensure` asks
them for interrogations that have no market yet (the markets sweep, and the formats' pages).
"""
from django.conf import settings

_POLICIES: list = []


def xmarket_policy_register(policy) -> None:
    if policy not in _POLICIES:
        _POLICIES.append(policy)


def default_delay_s() -> float:
    return float(getattr(settings, "MARKETS_SPECTATOR_DELAY_S", 60.0))


def xmarket_policy(interrogation) -> dict | None:
    for policy in _POLICIES:
        options = policy(interrogation)
        if options is not None:
            return options
    return None
