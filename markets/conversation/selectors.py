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
OWN_WAIT = (
    "You take part in this conversation: its market (price, trades and bettors) opens for you once its "
    "truth is revealed."
)


def xmarket_price_hidden(*, cm: ConversationMarket, user, game: Game | None = None) -> str | None:
    """Why `user` may not see this market's price, trades or bettors (None: they may). Its own people (the
    judge, the witnesses, an entry's owner: `conversation_people`) see nothing of it until it is settled or
    void, the truth out (a contest's or a session's once its results are published): a price is what the
    crowd believes, and a channel to the judge from anyone who knows the truth. A format's insiders (a
    contest's judges and confederates) see none of its markets while it is on."""
    if not user.is_authenticated:
        return None
    if not (game or cm.game).is_finished and user.pk in conversation_people(cm.interrogation):
        return OWN_WAIT
    if user.pk in xmarket_insiders(cm.interrogation):
        return INSIDER_WAIT
    return None


def xmarket_viewer_check(*, cm: ConversationMarket, user, game: Game | None = None) -> None:
    """The spectator page, its JSON and its socket refuse whoever may not see the market
    (`xmarket_price_hidden`)."""
    why = xmarket_price_hidden(cm=cm, user=user, game=game)
    if why is not None:
        raise NotAllowed(why)


def xmarkets_hide_prices(markets, *, user):
    """Mark each market of a list `price_hidden` (True: the list shows no price of it to `user`)."""
    for cm in markets:
        cm.price_hidden = xmarket_price_hidden(cm=cm, user=user) is not None
    return markets


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
    xmarket_viewer_check(cm=cm, user=user, game=game)
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


def xmarkets_listed(*, user, limit: int = 50) -> dict:
    """Markets whose conversation runs now (newest first), those opening soon (by their conversation's
    scheduled start; bettors may join already), and recently finished ones: settled, void, or closed with
    their conversation and awaiting the reveal (a contest's until its results are published), those first.
    Each `price_hidden` where `user` may not see it (`xmarket_price_hidden`)."""
    from django.db.models import F, Q

    from arena.models import Status

    rows = ConversationMarket.objects.select_related("game", "game__market", "interrogation").exclude(
        game__status=Game.Status.DRAFT
    )
    running = Q(game__status=Game.Status.RUNNING, interrogation__status=Status.RUNNING)
    listed = {
        "running": rows.filter(running).order_by("-created_at")[:limit],
        "soon": rows.filter(game__status=Game.Status.OPEN).order_by(
            F("interrogation__scheduled_at").asc(nulls_last=True), "interrogation_id"
        )[:limit],
        "ended": rows.exclude(game__status=Game.Status.OPEN)
        .exclude(running)
        .order_by(F("game__ended_at").desc(nulls_first=True), "-pk")[:limit],
    }
    return {name: xmarkets_hide_prices(list(found), user=user) for name, found in listed.items()}


def xmarket_links(*, interrogation_ids, user=None) -> dict[int, ConversationMarket]:
    """{interrogation id: its market} for a format's board or round page (one query); given the `user`
    the page is for, each `price_hidden` where they may not see it (`xmarket_price_hidden`)."""
    found = list(
        ConversationMarket.objects.select_related("game", "game__market", "interrogation").filter(
            interrogation_id__in=list(interrogation_ids)
        )
    )
    if user is not None:
        xmarkets_hide_prices(found, user=user)
    return {cm.interrogation_id: cm for cm in found}
