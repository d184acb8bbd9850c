"""Thin page views; the live parts talk to markets.consumers over a websocket."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.errors import ArenaError, NotAllowed
from markets import selectors, services
from markets.charts import OPENING_PRICE, price_chart
from markets.models import Game


def _game(public_id) -> Game:
    try:
        return selectors.game_by_public_id(public_id=public_id)
    except NotAllowed:
        raise Http404("No such game.") from None


def game_list(request):
    games = (
        Game.objects.exclude(status=Game.Status.DRAFT)
        .filter(conversation_market__isnull=True)
        .order_by("-created_at")[:50]
    )
    return render(request, "markets/games.html", {"games": games})


@require_POST
@login_required
def game_join(request, public_id):
    game = _game(public_id)
    try:
        services.game_join(game_id=game.pk, user=request.user)
    except ArenaError as exc:
        return render(
            request,
            "markets/games.html",
            {"games": Game.objects.exclude(status="draft")[:50], "error": str(exc)},
            status=409,
        )
    return redirect("markets:bettor", public_id=game.public_id)


def _price_chart(state: dict) -> dict:
    return price_chart(opened=state["market"]["opened"], history=state["market"]["history"])


@login_required
def bettor_console(request, public_id):
    game = _game(public_id)
    participant = selectors.participant_for(game=game, user=request.user)
    if participant is None:
        raise Http404("You are not a bettor of this game.")
    state = selectors.bettor_state(game=game, participant=participant)
    return render(request, "markets/bettor.html", {"game": game, "state": state, "price_chart": _price_chart(state)})


@login_required
def target_console(request, public_id):
    game = _game(public_id)
    if not selectors.is_target(game=game, user=request.user):
        raise Http404("You are not this game's target.")
    return render(request, "markets/target.html", {"game": game, "state": selectors.target_state(game=game)})


def spectator(request, public_id):
    game = _game(public_id)
    state = selectors.bettor_state(game=game, participant=None)
    return render(request, "markets/watch.html", {"game": game, "state": state, "price_chart": _price_chart(state)})


def state_api(request, public_id):
    """JSON state for whoever asks: a bettor's own, the target's, or a spectator's."""
    game = _game(public_id)
    if selectors.is_target(game=game, user=request.user):
        return JsonResponse(selectors.target_state(game=game))
    participant = selectors.participant_for(game=game, user=request.user)
    return JsonResponse(selectors.bettor_state(game=game, participant=participant))


def game_log(request, public_id):
    game = _game(public_id)
    try:
        data = selectors.game_log(game=game)
    except NotAllowed:
        raise Http404("The log is public once the game has ended.") from None
    if request.GET.get("format") == "json":
        return JsonResponse(data, json_dumps_params={"indent": 2})
    history = [{"seq": t["seq"], "price": t["price_after"], "at": t["at"]} for t in data["trades"]]
    opened = {"seq": 0, "price": OPENING_PRICE, "at": data["started_at"]} if data["started_at"] else None
    chart = price_chart(opened=opened, history=history, trades=data["trades"])
    return render(request, "markets/log.html", {"game": game, "data": data, "price_chart": chart})


def leaderboard(request):
    return render(
        request, "markets/leaderboard.html", {**selectors.leaderboard(), "forecasts": selectors.market_forecasts()}
    )
