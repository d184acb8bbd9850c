"""Conversation markets (reads): a spectator's page state, lists, links for the formats' pages.

A page state is read (and the market synced with its interrogation) on every page load, websocket
(re)connect and JSON read; its transcript comes from the arena's delayed spectator feed
(`arena.selectors.spectators.spectator_state`), so none of those paths shows a message before the
feed's delay has passed since the message's stored time.
"""

from arena.selectors.spectators import spectator_state
from core.errors import NotAllowed
from markets import payloads
from markets.charts import OPENING_PRICE
from markets.conversation.services import conversation_people, trade_refusal, xmarket_sync
from markets.makers import quotes
from markets.models import ConversationMarket, Game
from markets.policies import xmarket_insiders
from markets.reveals import judge_call
from markets.selectors import _history, participant_for
from markets.services.trading import market_maker, market_state


def xmarket_by_public_id(*, public_id) -> ConversationMarket:
    cm = (
        ConversationMarket.objects.select_related("game", "game__market", "interrogation")
        .filter(game__public_id=public_id)
        .first()
    )
    if cm is None:
        raise NotAllowed("No such market.")
    return cm


INSIDER_WAIT = "You judge or witness in this contest: its spectator pages open for you once it is over."
WITNESS_WAIT = "You take part in this conversation: its spectator page opens for you once it has ended."


def xmarket_viewer_check(*, cm: ConversationMarket, user) -> None:
    """A witness of the conversation (or an entry's owner: a pull-mode program reads its own side)
    may not watch the other side while it runs; its judge sees both sides anyway."""
    from arena.models import Status

    if not user.is_authenticated or cm.interrogation.status not in (Status.SCHEDULED, Status.RUNNING):
        return
    if user.pk != cm.interrogation.judge_id and user.pk in conversation_people(cm.interrogation):
        raise NotAllowed(WITNESS_WAIT)
    if user.pk != cm.interrogation.judge_id and user.pk in xmarket_insiders(cm.interrogation):
        raise NotAllowed(INSIDER_WAIT)


def _market(game: Game) -> dict:
    market = game.market
    market.refresh_from_db()
    return {
        "price": market.human_price,
        "seq": market.seq,
        "maker": game.market_maker,
        "quotes": quotes(market_maker(game), market_state(market)),
        "history": _history(game),
        "opened": payloads.price_point_row(0, OPENING_PRICE, game.started_at) if game.started_at else None,
    }


def xmarket_state(*, cm: ConversationMarket, user, now=None) -> dict:
    """Everything a spectator's page shows: the delayed transcript, the market, their own position,
    whether they may trade (and why not), and the reveal once settled."""
    game = xmarket_sync(market_id=cm.pk)
    cm.interrogation.refresh_from_db()
    xmarket_viewer_check(cm=cm, user=user)
    state = {
        "type": "state",
        **payloads.xmarket(cm, game, _market(game)),
        "transcript": spectator_state(interrogation=cm.interrogation, now=now),
    }
    participant = participant_for(game=game, user=user)
    state["me"] = payloads.me(participant, participant.account.balance) if participant else None
    state["refusal"] = trade_refusal(cm, user)
    state["reveal"] = payloads.xreveal(
        game,
        judge_call(interrogation_id=cm.interrogation_id, side=cm.side) if game.status == Game.Status.SETTLED else None,
    )
    return state


def xmarkets_listed(*, limit: int = 50) -> dict:
    """Markets whose conversation runs now (newest first), those opening soon (by their conversation's
    scheduled start; bettors may join already), and recently finished ones: settled, void, or closed with
    their conversation and awaiting the reveal (a contest's until its results are published), those first."""
    from django.db.models import F, Q

    from arena.models import Status

    rows = ConversationMarket.objects.select_related("game", "game__market", "interrogation").exclude(
        game__status=Game.Status.DRAFT
    )
    running = Q(game__status=Game.Status.RUNNING, interrogation__status=Status.RUNNING)
    return {
        "running": list(rows.filter(running).order_by("-created_at")[:limit]),
        "soon": list(
            rows.filter(game__status=Game.Status.OPEN).order_by(
                F("interrogation__scheduled_at").asc(nulls_last=True), "interrogation_id"
            )[:limit]
        ),
        "ended": list(
            rows.exclude(game__status=Game.Status.OPEN)
            .exclude(running)
            .order_by(F("game__ended_at").desc(nulls_first=True), "-pk")[:limit]
        ),
    }


def xmarket_links(*, interrogation_ids) -> dict[int, ConversationMarket]:
    """{interrogation id: its market} for a format's board or round page (one query)."""
    return {
        cm.interrogation_id: cm
        for cm in ConversationMarket.objects.select_related("game", "game__market", "interrogation").filter(
            interrogation_id__in=list(interrogation_ids)
        )
    }
