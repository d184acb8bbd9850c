"""Which interrogations get a crowd market, and how: one interface for every format.

A format registers a policy, `policy(interrogation ids) -> {interrogation id: dict}`, one query for
the whole batch: for each interrogation it has a say on (its own, where its organiser allowed
spectators) the keyword arguments of `xmarket_open` (`delay_s`, `market_maker`, ...); the others are
left out. `markets.conversation.services.xmarkets_ensure` asks them for interrogations that have no market
yet (the markets sweep every few seconds, and the formats' pages): a query per format, however many
conversations are running (one per conversation and format before, 7% of daphne's CPU in the studies
benchmark, for games that never get a market).
"""

import threading

from cachetools import TTLCache, cached
from django.conf import settings

_POLICIES: list = []


def xmarket_policy_register(policy) -> None:
    if policy not in _POLICIES:
        _POLICIES.append(policy)


def default_delay_s() -> float:
    return float(getattr(settings, "MARKETS_SPECTATOR_DELAY_S", 60.0))


def spectator_options(owner) -> dict | None:
    """A format's policy for an owner (a contest, a session) with `spectator_markets` and `spectator_delay_s`:
    None when there is no owner or it allows no spectators, else the market's delay."""
    if owner is None or not owner.spectator_markets:
        return None
    return {"delay_s": default_delay_s() if owner.spectator_delay_s is None else float(owner.spectator_delay_s)}


def spectator_policy(owners) -> dict[int, dict]:
    """A format's policy from (interrogation id, its owner: a contest, a session) pairs: the options of
    those whose owner allows spectators (`spectator_options`)."""
    found = {pk: spectator_options(owner) for pk, owner in owners}
    return {pk: options for pk, options in found.items() if options is not None}


def xmarket_policies(interrogation_ids) -> dict[int, dict]:
    """interrogation id -> `xmarket_open`'s options, for those a format wants a market on (the first
    format registered that has a say decides)."""
    wanted: dict[int, dict] = {}
    remaining = list(interrogation_ids)
    for policy in _POLICIES:
        if not remaining:
            break
        for pk, options in policy(remaining).items():
            wanted.setdefault(pk, options)
        remaining = [pk for pk in remaining if pk not in wanted]
    return wanted


# A format's insiders: people who may neither watch nor trade on any of its conversations while the
# contest is on (a Loebner contest's judges and confederates, a wager session's judges and foils): a
# judge who watched another meeting would learn its entry's manner, and so which side is the machine in
# their own. `insiders(interrogation) -> set of user ids` (empty when not its interrogation, or once over).
_INSIDERS: list = []


def xmarket_insiders_register(insiders) -> None:
    if insiders not in _INSIDERS:
        _INSIDERS.append(insiders)


INSIDERS_TTL_S = 30.0  # a trade asks every time; a contest's people change rarely (the admin)


@cached(
    TTLCache(maxsize=4096, ttl=INSIDERS_TTL_S), key=lambda interrogation: interrogation.public_id, lock=threading.Lock()
)
def xmarket_insiders(interrogation) -> frozenset:
    found = set()
    for insiders in _INSIDERS:
        found.update(insiders(interrogation))
    return frozenset(found)
