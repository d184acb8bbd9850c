"""Pushes to a game's watchers: only a notification (the page re-reads the state from the database).
One push per turn, to the game's page; the list of games hears of a game when it starts and ends."""

from core.notify import push_many
from tables import groups


def turn_played(game, turn) -> None:
    pushes = [(groups.game_group(game.pk), {"type": "refresh", "turn": turn.number, "status": game.status})]
    if game.finished:
        pushes.append((groups.lobby_group(), {"type": "refresh"}))
    push_many(pushes)


def game_changed(game) -> None:
    push_many(
        [
            (groups.game_group(game.pk), {"type": "refresh", "status": game.status}),
            (groups.lobby_group(), {"type": "refresh"}),
        ]
    )
