"""Crowd markets on any arena interrogation ("conversation markets"): open, keep in step with the
interrogation's schedule, trade, settle at the reveal, void at an abort.

A conversation market is a Turing Trade Game (same makers, accounts, ledger, trade paths) whose
target is left empty until the reveal: `game_settle` refuses a game without a known truth, so no
timer or sweep can settle it early. Its state follows its interrogation (`xmarket_sync`, called on
every read, every trade and by the markets sweep, from stored state only):

    interrogation scheduled  -> game open (spectators may watch; nothing to trade on yet... trades
                                are refused: the game is not running)
    interrogation running    -> game running, deadline = the interrogation's deadline
    interrogation ended      -> trading closed at its end; settled once the judge's decision is known
                                (markets.reveals): the game's target is set to the witness on the
                                market's side, then `game_settle` pays 100 per winning security
    interrogation aborted    -> game void: every bettor refunded (`game_void`), the ledger balanced

Nobody in a conversation, or able to influence it, may trade on it (`trade_refusal`): its judge, its
witnesses, the owners of its entries, organisers and staff. The rule is checked here, on every trade,
so the JSON API, the websocket and the page refuse alike with the same message.
"""

import threading

from cachetools import TTLCache, cached
from django.db import transaction
from django.utils import timezone

from arena import roles
from arena.models import Conversation, Interrogation, Status
from arena.services.spectators import spectator_feed_open
from core.errors import Closed, InvalidInput, NotAllowed
from markets import notify
from markets.models import ConversationMarket, Game, Participant
from markets.policies import xmarket_insiders
from markets.reveals import judge_call
from markets.services.games import game_create, game_join, game_settle, game_void, locked_game
from markets.services.trading import trade_place

MAX_BETTORS = 1000
CONFLICT = (
    "You take part in this conversation or can influence it (its judge, a witness, an entry's owner or "
    "an organiser), so you cannot trade on it."
)
GameStatus = Game.Status


def xmarket_open(
    *,
    interrogation_id: int,
    delay_s=60.0,
    market_maker: str = Game.Maker.LINEAR,
    lmsr_b: float = 18.0,
    starting_points: int = 1000,
    interrogation: Interrogation | None = None,
) -> ConversationMarket:
    """The market on an interrogation (made once; found again after): "the left witness is human" in
    the three-party form, "this candidate is human" one-to-one; and its spectator feed, `delay_s`
    behind the judge. ``interrogation``: its row, just read by the caller (the sweep's)."""
    if interrogation is None or interrogation.pk != interrogation_id:
        interrogation = Interrogation.objects.filter(pk=interrogation_id).first()
    if interrogation is None:
        raise InvalidInput("No such interrogation.")
    if interrogation.rehearsal:
        raise InvalidInput("A rehearsal has no market.")
    if market_maker not in Game.Maker.values:
        raise InvalidInput(f"market_maker must be one of {', '.join(Game.Maker.values)}.")
    side = (
        ConversationMarket.Side.LEFT
        if interrogation.kind == Interrogation.Kind.THREE_PARTY
        else ConversationMarket.Side.SOLE
    )
    with transaction.atomic():
        spectator_feed_open(interrogation_id=interrogation.pk, delay_s=delay_s)
        market = (
            ConversationMarket.objects.filter(interrogation=interrogation, side=side).select_related("game").first()
        )
        if market is None:
            if interrogation.status in (Status.ENDED, Status.ABORTED):
                raise InvalidInput(f"The interrogation has {interrogation.status}: too late to open a market on it.")
            game = game_create(
                title=f"{ConversationMarket.Side(side).label}: {interrogation}",
                market_maker=market_maker,
                lmsr_b=lmsr_b,
                starting_points=starting_points,
                max_bettors=MAX_BETTORS,
                duration_s=interrogation.time_limit_s,
                answer_delay_s=0,
                status=GameStatus.OPEN,
            )
            market = ConversationMarket.objects.create(game=game, interrogation=interrogation, side=side)
    xmarket_sync(market_id=market.pk, market=market)  # its game and interrogation as just read or made
    return market


PEOPLE_TTL_S = 30.0


# keyed by the public id: never reused (an id can be, after a delete on SQLite)
@cached(
    TTLCache(maxsize=4096, ttl=PEOPLE_TTL_S), key=lambda interrogation: interrogation.public_id, lock=threading.Lock()
)
def conversation_people(interrogation: Interrogation) -> frozenset:
    """The user ids of everyone in an interrogation or able to influence it through it: its judge, its
    interrogators, its human witnesses and the owners of its entries. Kept in memory for PEOPLE_TTL_S
    (a trade reads it every time; the people of an interrogation are fixed when it is created, only an
    entry's owner could change, in the admin)."""
    people = set(Interrogation.objects.filter(pk=interrogation.pk).values_list("judge_id", flat=True))
    for row in Conversation.objects.filter(interrogation_id=interrogation.pk).values_list(
        "interrogator_id", "witness_human_id", "witness_entry__owner_id"
    ):
        people.update(pk for pk in row if pk is not None)
    return frozenset(people)


def trade_refusal(market: ConversationMarket, user) -> str | None:
    """Why `user` may not trade on this market (None: they may). One message for every conflict: it
    must not tell an entry's owner (or anyone) which side their entry is on."""
    if not user.is_authenticated:
        return "Log in to trade."
    if user.pk in conversation_people(market.interrogation) or user.pk in xmarket_insiders(market.interrogation):
        return CONFLICT
    if user.is_staff or user.is_superuser or _organiser(user):
        return CONFLICT
    return None


def _organiser(user) -> bool:
    """The organiser role, read once per user object (a websocket's user lives as long as its
    connection: a role given or taken counts from the next connection or page)."""
    known = getattr(user, "_xmarkets_organiser", None)
    if known is None:
        known = roles.is_organiser(user)
        try:
            user._xmarkets_organiser = known
        except AttributeError:  # a user object that takes no attributes: ask every time
            pass
    return known


def _refusal_for_join(market: ConversationMarket):
    return lambda game, user: trade_refusal(market, user)


def xmarket_sync(*, market_id: int, market: ConversationMarket | None = None) -> Game:
    """Bring the market's game in line with its interrogation (see the module docstring). Idempotent.
    `market`: the row already loaded with its game and interrogation (a trade's: one query fewer).
    Takes the game's locks only when something changes (a running market of a running conversation,
    the state of nearly every trade, is read and left alone)."""
    if market is None:
        market = ConversationMarket.objects.select_related("interrogation", "game").get(pk=market_id)
    game = market.game
    if game.is_finished:
        return game
    interrogation = market.interrogation
    status = interrogation.status
    if status == Status.ABORTED:
        return game_void(game_id=game.pk, reason="aborted")
    if status == Status.SCHEDULED:
        return game
    if status == Status.RUNNING and game.status == GameStatus.RUNNING and game.deadline == interrogation.deadline:
        return game
    call = judge_call(interrogation_id=interrogation.pk, side=market.side) if status == Status.ENDED else None
    with transaction.atomic():
        game = locked_game(game.pk)
        changed = []
        if game.status == GameStatus.OPEN:  # running (or already over: it ran while nobody looked)
            game.status, game.started_at = GameStatus.RUNNING, interrogation.started_at or timezone.now()
            game.deadline = interrogation.deadline
            changed += ["status", "started_at", "deadline"]
        end = interrogation.ended_at if status == Status.ENDED else None
        if end and (game.deadline is None or game.deadline > end):
            game.deadline = end  # the judge ended early: trading closes with the conversation
            changed.append("deadline")
        if call is not None and game.status == GameStatus.RUNNING:
            conversation = interrogation.conversations.get(side=market.side)
            game.target_human_id, game.target_entry_id = conversation.witness_human_id, conversation.witness_entry_id
            changed += ["target_human", "target_entry"]
        if changed:
            game.save(update_fields=sorted(set(changed)))
            transaction.on_commit(lambda: notify.game_changed(game))
        if call is not None:
            game = game_settle(game_id=game.pk, reason="reveal", force=True)
    return game


def xmarket_trade(*, market_id: int, user, action, security, key):
    """One unit bought or sold by a spectator (joining the market at their first trade)."""
    market = ConversationMarket.objects.select_related("interrogation", "game").filter(pk=market_id).first()
    if market is None:
        raise NotAllowed("No such market.")
    reason = trade_refusal(market, user)
    if reason:
        raise NotAllowed(reason, code="conflict_of_interest" if reason == CONFLICT else None)
    game = xmarket_sync(market_id=market.pk, market=market)
    if game.status != GameStatus.RUNNING or (game.deadline and timezone.now() >= game.deadline):
        raise Closed("Trading is closed: the conversation is not running.")
    try:
        return trade_place(game_id=game.pk, user=user, action=action, security=security, key=key)
    except NotAllowed as exc:  # not a bettor yet: the first trade joins (one query fewer on every other)
        if Participant.objects.filter(game_id=game.pk, user_id=user.pk).exists():
            raise exc
    game_join(game_id=game.pk, user=user, refusal=_refusal_for_join(market))
    return trade_place(game_id=game.pk, user=user, action=action, security=security, key=key)


def xmarkets_sweep() -> int:
    """Open the markets the formats ask for, sync every conversation market not yet settled or void;
    the number that settled or were voided."""
    xmarkets_ensure()
    live = ConversationMarket.objects.filter(game__status__in=[GameStatus.OPEN, GameStatus.RUNNING]).values_list(
        "pk", flat=True
    )
    return sum(xmarket_sync(market_id=pk).is_finished for pk in list(live))


ENSURE_WINDOW = 500  # the sweep looks at the most recent interrogations without a market


def xmarkets_ensure(*, interrogation_ids=None) -> list[ConversationMarket]:
    """Open the markets the formats' policies ask for (markets.policies), on interrogations scheduled
    or running that have none yet: those given, or (the sweep) the most recent ones."""
    from markets.policies import xmarket_policies

    pending = Interrogation.objects.filter(
        status__in=[Status.SCHEDULED, Status.RUNNING], rehearsal=False, markets__isnull=True
    )
    if interrogation_ids is not None:
        pending = pending.filter(pk__in=list(interrogation_ids))
    rows = {row.pk: row for row in pending.order_by("-pk")[:ENSURE_WINDOW]}
    wanted = xmarket_policies(list(rows)) if rows else {}
    return [
        xmarket_open(interrogation_id=pk, interrogation=row, **wanted[pk]) for pk, row in rows.items() if pk in wanted
    ]
