"""The matcher's rules (pure, no Django): who plays with whom, in which role, against which witness, and
when each game starts.

**Waits.** Every arrival in the lobby takes the study's next ticket, and with it a wait drawn from the
seed: uniform between ``min_wait_s`` and ``human_wait_s``. Until that wait is over the participant may
be paired with anyone who arrives; when it is over without a partner, they get an AI witness (or their
wait is cancelled, with ``fallback: "cancel"``). No game starts at once and none at a fixed time:

* a human pair starts when the later arrival's own drawn wait is over (so that one waited a draw of
  the wait; the earlier one waited that plus the gap between their arrivals);
* an AI game starts when the participant's drawn wait is over, plus, for one game in two (a fair coin
  from the seed), the gap between the arrivals of a recent human pair of the study.

The same draws make both: a participant's wait has the same distribution whatever their witness (the
gaps the AI games borrow are those of the study's own human pairs), and nothing the lobby shows depends
on who else is waiting.

**Which games.** Games are dealt from blocks drawn from the seed (permuted-block randomisation): a block
holds, for a human-witness share s = a/b and C conditions, a·C human-witness games and b−a games of
each condition, so the shares hold exactly at the end of every block. A human game is dealt whenever two
compatible participants are waiting and the current block still holds one (people waiting together are
the scarce thing); an unpaired participant whose wait is over takes the block's next AI game, or, when
only human games are left in it, a fallback AI witness from a counterbalanced stream of its own (as do
three-party games, which always pair two humans with the next AI condition of the "pair" stream).

Roles: of two paired participants, the one who has interrogated less (relative to their games) becomes
the interrogator; a tie is broken by the seed. With role switching off, a participant keeps their first
role. Nobody is paired with themself (the same participant, account or device), nor, unless
the design allows it, with a partner they have already played.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from studies.rules.design import FALLBACK_AI, THREE_PARTY, Design, share_fraction

HUMAN = "human"
INTERROGATOR, WITNESS = "interrogator", "witness"
RECENT_GAPS = 50  # the human pairs whose arrival gaps the AI games borrow


def game_block(design: Design) -> tuple:
    """One block of games, unshuffled: HUMAN and condition indices in the design's proportions."""
    conditions = len(design.witnesses)
    if design.format == THREE_PARTY:
        return (HUMAN,)
    share = share_fraction(design.human_witness_share)
    a, b = share.numerator, share.denominator
    block = [HUMAN] * (a * conditions)
    for index in range(conditions):
        block += [index] * (b - a)
    return tuple(block)


def _shuffled(seed: int, stream: str, number: int, items: tuple) -> list:
    items = list(items)
    random.Random(f"{seed}:{stream}:{number}").shuffle(items)
    return items


def block_ai_games(design: Design, block_number: int, block: tuple | None = None) -> list[int]:
    """The AI games of block `block_number` in the order the seed deals them."""
    block = block or game_block(design)
    return [kind for kind in _shuffled(design.seed, "games", block_number, block) if kind != HUMAN]


@dataclass(frozen=True)
class Deal:
    """Where the dealing stands: human games and block AI games dealt so far."""

    humans: int = 0
    ai: int = 0

    def current_block(self, block: tuple) -> int:
        humans = sum(kind == HUMAN for kind in block)
        ai = len(block) - humans
        done = [n // per for n, per in ((self.humans, humans), (self.ai, ai)) if per]
        return min(done) if done else 0

    def human_open(self, design: Design, block: tuple) -> bool:
        """Whether the current block still holds a human game (three-party: always)."""
        if design.format == THREE_PARTY:
            return True
        humans = sum(kind == HUMAN for kind in block)
        return humans > 0 and self.humans < humans * (self.current_block(block) + 1)

    def ai_next(self, design: Design, block: tuple) -> int | None:
        """The condition of the current block's next AI game, or None when only human games are left."""
        if design.format == THREE_PARTY:
            return None
        per = len(block) - sum(kind == HUMAN for kind in block)
        number = self.current_block(block)
        if per == 0 or self.ai >= per * (number + 1):
            return None
        return block_ai_games(design, number, block)[self.ai - per * number]


def condition_pick(design: Design, stream: str, number: int) -> int:
    """The `number`-th AI condition of a counterbalanced stream ("pair": three-party games, "fallback")."""
    block = tuple(range(len(design.witnesses)))
    return _shuffled(design.seed, stream, number // len(block), block)[number % len(block)]


def wait_draw(design: Design, ticket: int) -> float:
    """Ticket `ticket`'s wait in seconds: uniform between the design's shortest and longest wait."""
    low, high = design.min_wait_s, design.human_wait_s
    return low if high <= low else random.Random(f"{design.seed}:wait:{ticket}").uniform(low, high)


def borrowed_gap(design: Design, ticket: int, gaps) -> float:
    """What an AI game adds to its drawn wait: for one ticket in two, a gap between the arrivals of one
    of the study's recent human pairs (`gaps`, newest first), chosen by the seed; else nothing."""
    gaps = list(gaps)[:RECENT_GAPS]
    rng = random.Random(f"{design.seed}:borrow:{ticket}")
    if not gaps or rng.random() < 0.5:
        return 0.0
    return gaps[rng.randrange(len(gaps))]


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
    deadline: float = 0.0  # until then they may be paired (arrival + min_wait_s)
    wait: float = 0.0  # their drawn wait

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


def arrival_decide(
    design: Design, newcomer: Waiter, waiting: list[Waiter], played: set, deal: Deal, block: tuple
) -> Waiter | int | None:
    """What a newcomer's arrival decides: the partner they are paired with (a human game), the AI
    condition they get (the block holds no human game: its AI games come first), or None: they look for
    a partner until their window closes."""
    if not deal.human_open(design, block):
        return None if newcomer.fixed_role == WITNESS else deal.ai_next(design, block)
    return partner_pick(newcomer, waiting, repeat_partners=design.repeat_partners, played=played)


def deadline_decide(design: Design, waiter: Waiter, deal: Deal, block: tuple, fallbacks: int):
    """A waiter whose wait is over with no partner: (AI condition, whether a fallback), or None (the
    wait is cancelled: fallback "cancel" with no AI game left in the block, or a fixed witness)."""
    if waiter.fixed_role == WITNESS:
        return None
    condition = deal.ai_next(design, block)
    if condition is not None:
        return condition, False
    if design.fallback != FALLBACK_AI:
        return None
    return condition_pick(design, "fallback", fallbacks), True


@dataclass(frozen=True)
class Match:
    """A game the lobby starts: `witness` is None when an AI witness stands alone (AI game, fallback).
    `waits`: each player's wait, (participant, seconds), from pressing Play to the game."""

    interrogator: int
    witness: int | None
    condition: int | None  # AI condition index (None: a two-party human game)
    fallback: bool = False
    start: float = 0.0
    waits: tuple = ()


@dataclass
class _Plan:
    start: float
    order: int
    people: tuple  # one Waiter (AI game) or two (a pair)
    condition: int | None
    fallback: bool = False
    number: int = 0  # the later ticket's number (role ties)


@dataclass
class Lobby:
    """The whole matcher in memory, for simulations and property tests; the services run the same rules
    on the database (`studies.services.lobby`). Call `expire(now)` before each `arrive(..., now)`."""

    design: Design
    waiting: list[Waiter] = field(default_factory=list)
    planned: list = field(default_factory=list)
    played: set = field(default_factory=set)
    tickets: int = 0
    deal: Deal = field(default_factory=Deal)
    fallbacks: int = 0
    pairs: int = 0
    gaps: list = field(default_factory=list)  # newest first
    interrogations: dict = field(default_factory=dict)
    games: dict = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)

    def __post_init__(self):
        self.block = game_block(self.design)

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
            now + self.design.min_wait_s,
            wait_draw(self.design, ticket),
        )

    def _in_lobby(self, participant: int) -> bool:
        return any(w.participant == participant for w in self.waiting) or any(
            w.participant == participant for plan in self.planned for w in plan.people
        )

    def arrive(self, participant: int, now: float, identities=()) -> None:
        if self._in_lobby(participant):
            return  # already waiting: a second tab changes nothing
        newcomer = self._waiter(participant, now, identities)
        partner = arrival_decide(self.design, newcomer, self.waiting, self.played, self.deal, self.block)
        if partner is None:
            self.waiting.append(newcomer)
            return
        if not isinstance(partner, Waiter):  # an AI game, decided now, starting at its drawn time
            self.deal = Deal(self.deal.humans, self.deal.ai + 1)
            self._plan_ai(newcomer, partner, False)
            return
        self.waiting.remove(partner)
        self.played.add(frozenset((partner.participant, newcomer.participant)))
        self.gaps.insert(0, now - partner.since)
        del self.gaps[RECENT_GAPS:]
        condition = condition_pick(self.design, "pair", self.pairs) if self.design.format == THREE_PARTY else None
        self.deal = Deal(self.deal.humans + 1, self.deal.ai)
        self.planned.append(
            _Plan(
                newcomer.since + newcomer.wait, newcomer.ticket, (partner, newcomer), condition, False, newcomer.ticket
            )
        )
        self.pairs += 1

    def _decide(self, waiter: Waiter) -> None:
        self.waiting.remove(waiter)
        decision = deadline_decide(self.design, waiter, self.deal, self.block, self.fallbacks)
        if decision is None:
            return
        condition, fallback = decision
        if fallback:
            self.fallbacks += 1
        else:
            self.deal = Deal(self.deal.humans, self.deal.ai + 1)
        self._plan_ai(waiter, condition, fallback)

    def _plan_ai(self, waiter: Waiter, condition: int, fallback: bool) -> None:
        start = waiter.since + waiter.wait + borrowed_gap(self.design, waiter.ticket, self.gaps)
        self.planned.append(_Plan(start, waiter.ticket, (waiter,), condition, fallback))

    def _start(self, plan: _Plan) -> Match:
        self.planned.remove(plan)
        people = [
            Waiter(
                w.participant,
                w.ticket,
                w.since,
                w.identities,
                self.interrogations.get(w.participant, 0),
                self.games.get(w.participant, 0),
                self.fixed.get(w.participant),
            )
            for w in plan.people
        ]
        if len(people) == 2:
            interrogator, witness = roles_pick(self.design, people[0], people[1], plan.number)
        else:
            interrogator, witness = people[0], None
        match = Match(
            interrogator.participant,
            witness.participant if witness else None,
            plan.condition,
            plan.fallback,
            plan.start,
            tuple((w.participant, plan.start - w.since) for w in plan.people),
        )
        for person, role in ((match.interrogator, INTERROGATOR), (match.witness, WITNESS)):
            if person is None:
                continue
            self.games[person] = self.games.get(person, 0) + 1
            if role == INTERROGATOR:
                self.interrogations[person] = self.interrogations.get(person, 0) + 1
            if not self.design.role_switching:
                self.fixed.setdefault(person, role)
        return match

    def expire(self, now: float) -> list[Match]:
        """Everything due by `now`, in the order it fell due: waits that ran out (an AI game or a
        cancellation) and games that start."""
        started = []
        while True:
            deadline = min(self.waiting, key=lambda w: (w.deadline, w.ticket), default=None)
            plan = min(self.planned, key=lambda p: (p.start, p.order), default=None)
            if deadline is not None and deadline.deadline <= now and (plan is None or deadline.deadline <= plan.start):
                self._decide(deadline)
            elif plan is not None and plan.start <= now:
                started.append(self._start(plan))
            else:
                return started
