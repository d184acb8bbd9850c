"""The matcher's rules (pure, no Django): who plays with whom, in which role, against which witness.

Every arrival in the lobby takes the study's next **ticket**. Tickets come in blocks drawn from the seed
(permuted-block randomisation): each block holds the same numbers of each kind, so the shares hold
exactly every block, whatever the arrival pattern, and a study run again with its seed deals the same
tickets. A ticket is

* ``HUMAN``: the newcomer is paired with another waiting participant (one interrogates, the other is
  the human witness; in the three-party form the next AI condition joins them), or waits for one, at
  most ``human_wait_s``; then the design's fallback applies (an AI witness, or the wait is cancelled);
* a condition's index (two-party only): the newcomer interrogates that AI witness at once.

In the two-party form a human game consumes two HUMAN tickets and an AI game one, so for a human-witness
share s = a/b a block holds 2a·C HUMAN tickets and b−a of each of the C conditions: games then have a
human witness in the share s, and each AI condition is played equally often. AI conditions that are not
on tickets (three-party games, fallbacks) come from their own counterbalanced streams.

Roles: of two paired participants, the one who has interrogated less (relative to their games) becomes
the interrogator; a tie is broken by the seed. With role switching off, a participant keeps their first
role. Nobody is paired with themself (the same participant, account or device), nor, unless the design
allows it, with a partner they have already played.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from studies.rules.design import FALLBACK_AI, THREE_PARTY, Design, share_fraction

HUMAN = "human"
INTERROGATOR, WITNESS = "interrogator", "witness"


def ticket_block(design: Design) -> tuple:
    """One block of tickets, unshuffled: HUMAN and condition indices in the design's proportions."""
    conditions = len(design.witnesses)
    if design.format == THREE_PARTY:
        return (HUMAN,)
    share = share_fraction(design.human_witness_share)
    a, b = share.numerator, share.denominator
    block = [HUMAN] * (2 * a * conditions)
    for index in range(conditions):
        block += [index] * (b - a)
    return tuple(block)


def _shuffled(seed: int, stream: str, number: int, items: tuple) -> list:
    items = list(items)
    random.Random(f"{seed}:{stream}:{number}").shuffle(items)
    return items


def ticket_kind(design: Design, number: int, block: tuple | None = None):
    """The kind of ticket `number` (0-based): HUMAN or a condition index."""
    block = block or ticket_block(design)
    return _shuffled(design.seed, "tickets", number // len(block), block)[number % len(block)]


def condition_pick(design: Design, stream: str, number: int) -> int:
    """The `number`-th AI condition of a counterbalanced stream ("pair": three-party games, "fallback")."""
    block = tuple(range(len(design.witnesses)))
    return _shuffled(design.seed, stream, number // len(block), block)[number % len(block)]


@dataclass
class Waiter:
    """A participant in the lobby (or arriving), with what the rules need to know about them."""

    participant: int
    ticket: int  # the ticket's number
    since: float  # seconds (any clock)
    identities: frozenset = frozenset()  # e.g. "account:7", "device:ab12": one person, one side of a game
    interrogations: int = 0
    games: int = 0
    fixed_role: str | None = None  # role switching off: the role of their first game

    def same_person(self, other: Waiter) -> bool:
        return self.participant == other.participant or bool(self.identities & other.identities)


def roles_compatible(a: Waiter, b: Waiter) -> bool:
    return a.fixed_role is None or b.fixed_role is None or a.fixed_role != b.fixed_role


def partner_pick(
    newcomer: Waiter, waiting: list[Waiter], *, repeat_partners: bool, played: set[frozenset]
) -> Waiter | None:
    """The longest-waiting participant the newcomer may be paired with, or None."""
    for waiter in sorted(waiting, key=lambda w: (w.since, w.ticket)):
        if waiter.same_person(newcomer) or not roles_compatible(waiter, newcomer):
            continue
        if not repeat_partners and frozenset((waiter.participant, newcomer.participant)) in played:
            continue
        return waiter
    return None


def roles_pick(design: Design, a: Waiter, b: Waiter, number: int) -> tuple[Waiter, Waiter]:
    """(interrogator, witness) of a pair; `number` (the pair's number) breaks ties from the seed."""
    if a.fixed_role or b.fixed_role:
        fixed, other = (a, b) if a.fixed_role else (b, a)
        return (fixed, other) if fixed.fixed_role == INTERROGATOR else (other, fixed)
    balance_a = 2 * a.interrogations - a.games  # interrogations minus witness games
    balance_b = 2 * b.interrogations - b.games
    if balance_a != balance_b:
        return (a, b) if balance_a < balance_b else (b, a)
    return (a, b) if random.Random(f"{design.seed}:roles:{number}").random() < 0.5 else (b, a)


@dataclass(frozen=True)
class Match:
    """A game the lobby forms: `witness` is None when an AI witness stands alone (AI ticket, fallback)."""

    interrogator: int
    witness: int | None
    condition: int | None  # AI condition index (None: a two-party human game)
    fallback: bool = False


@dataclass
class Lobby:
    """The whole matcher in memory, for simulations and property tests; the services run the same rules
    on the database (`studies.services.lobby`)."""

    design: Design
    waiting: list[Waiter] = field(default_factory=list)
    played: set = field(default_factory=set)
    tickets: int = 0
    pairs: int = 0
    fallbacks: int = 0
    interrogations: dict = field(default_factory=dict)
    games: dict = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)

    def __post_init__(self):
        self.block = ticket_block(self.design)

    def _waiter(self, participant: int, now: float, identities) -> Waiter:
        ticket, self.tickets = self.tickets, self.tickets + 1
        return Waiter(
            participant,
            ticket,
            now,
            frozenset(identities),
            self.interrogations.get(participant, 0),
            self.games.get(participant, 0),
            self.fixed.get(participant),
        )

    def _record(self, match: Match) -> Match:
        for person, role in ((match.interrogator, INTERROGATOR), (match.witness, WITNESS)):
            if person is None:
                continue
            self.games[person] = self.games.get(person, 0) + 1
            if role == INTERROGATOR:
                self.interrogations[person] = self.interrogations.get(person, 0) + 1
            if not self.design.role_switching:
                self.fixed.setdefault(person, role)
        if match.witness is not None:
            self.played.add(frozenset((match.interrogator, match.witness)))
        return match

    def arrive(self, participant: int, now: float, identities=()) -> Match | None:
        if any(w.participant == participant for w in self.waiting):
            return None  # already waiting: a second tab changes nothing
        newcomer = self._waiter(participant, now, identities)
        kind = ticket_kind(self.design, newcomer.ticket, self.block)
        decision = arrival_decide(self.design, newcomer, kind, self.waiting, self.played, self.pairs)
        if decision is None:
            self.waiting.append(newcomer)
            return None
        if decision.witness is not None:
            self.pairs += 1
            self.waiting = [w for w in self.waiting if w.participant not in (decision.interrogator, decision.witness)]
        return self._record(decision)

    def expire(self, now: float) -> list[Match]:
        """Fallbacks (or cancellations) for everyone who waited ``human_wait_s`` or longer."""
        due = [w for w in self.waiting if now - w.since >= self.design.human_wait_s]
        self.waiting = [w for w in self.waiting if w not in due]
        matches = []
        for waiter in sorted(due, key=lambda w: (w.since, w.ticket)):
            match = fallback_decide(self.design, waiter, self.fallbacks)
            if match is not None:
                self.fallbacks += 1
                matches.append(self._record(match))
        return matches


def arrival_decide(
    design: Design, newcomer: Waiter, kind, waiting: list[Waiter], played: set, pairs: int
) -> Match | None:
    """What a newcomer's ticket makes of the lobby: a game at once, or None (they wait)."""
    if kind != HUMAN and newcomer.fixed_role != WITNESS:
        return Match(newcomer.participant, None, kind)
    partner = partner_pick(newcomer, waiting, repeat_partners=design.repeat_partners, played=played)
    if partner is None:
        return None
    interrogator, witness = roles_pick(design, partner, newcomer, pairs)
    condition = condition_pick(design, "pair", pairs) if design.format == THREE_PARTY else None
    return Match(interrogator.participant, witness.participant, condition)


def fallback_decide(design: Design, waiter: Waiter, fallbacks: int) -> Match | None:
    """A waiter whose time is up: an AI witness takes the human's place (fallback "ai"), or nothing."""
    if design.fallback != FALLBACK_AI or waiter.fixed_role == WITNESS:
        return None
    return Match(waiter.participant, None, condition_pick(design, "fallback", fallbacks), fallback=True)
