"""Thin pages: the games and the leaderboard, a game's live page (its fragment re-read on each push),
the JSON Lines export, and the organisers' form that starts a game."""

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseForbidden, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header

from arena import roles
from core.errors import ArenaError
from tables import charts, selectors, services
from tables.models import Game

# what the form holds at first: the built-in stub players, which need no server (a game that works as is)
EXAMPLE = {
    "title": "First game: three built-in stub players",
    "agents": [{"name": n, "engine": "stub"} for n in ("Alpha", "Beta", "Gamma")],
    "judge": None,
    "seed": 42,
    "end_votes": 3,
    "max_turns": 30,
}
# how to point agents at a model server instead (shown beside the form)
SERVER_EXAMPLE = {
    "agents": [
        {"name": "Alpha", "base_url": "http://localhost:11434/v1", "model": "llama3.2:1b"},
        {"name": "Beta", "base_url": "https://api.example.com/v1", "model": "some-model", "api_key": "sk-..."},
        {"name": "Gamma", "engine": "stub"},
    ],
    "judge": None,
}
MAX_CONFIG_CHARS = 20_000


def _game(game_id) -> Game:
    try:
        return Game.objects.select_related("loser", "judge").get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404("No such game.") from None


def game_list(request):
    return render(
        request,
        "tables/games.html",
        {
            "games": selectors.games_list(),
            "board": selectors.leaderboard(),
            "can_start": roles.is_organiser(request.user),
        },
    )


def _context(game: Game) -> dict:
    state = selectors.game_state(game=game)
    against = {a["name"]: a["votes_against"] for a in state["agents"]}
    penalties = {a["name"]: a["penalties"] for a in state["agents"]}
    return {
        "game": game,
        "state": state,
        "votes_chart": charts.votes_chart(against=against, end_votes=game.end_votes),
        "penalty_chart": charts.penalty_chart(penalties=penalties),
    }


def game_page(request, game_id):
    return render(request, "tables/game.html", _context(_game(game_id)))


def game_live(request, game_id):
    """The live part of the page, re-read by its script after each push."""
    return render(request, "tables/_live.html", _context(_game(game_id)))


def game_export(request, game_id):
    game = _game(game_id)
    response = StreamingHttpResponse(selectors.game_export_lines(game=game), content_type="application/x-ndjson")
    response["Content-Disposition"] = content_disposition_header(True, f"tables-game-{game.pk}.jsonl")
    return response


@login_required
def game_new(request):
    if not roles.is_organiser(request.user):
        return HttpResponseForbidden("Only organisers start games.")
    text, error = json.dumps(EXAMPLE, indent=2), ""
    if request.method == "POST":
        text = request.POST.get("config", "")
        try:
            if len(text) > MAX_CONFIG_CHARS:
                raise ArenaError(f"The configuration is longer than {MAX_CONFIG_CHARS} characters.")
            try:
                config = json.loads(text)
            except ValueError as exc:
                raise ArenaError(f"The configuration is not JSON: {exc}") from None
            game = services.game_create(config=config, user=request.user)
            services.game_start(game_id=game.pk)
            return redirect("tables:game", game_id=game.pk)
        except ArenaError as exc:
            error = str(exc)
    context = {"config": text, "error": error, "server_example": json.dumps(SERVER_EXAMPLE, indent=2)}
    return render(request, "tables/new.html", context, status=400 if error else 200)
