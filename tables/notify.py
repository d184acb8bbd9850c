"""Pushes to a game's watchers: only a notification (the page re-reads the state from the database)."""
from core.notify import push_many
from tables import groups


def turn_played(game, turn) -> None:
    push_many([(groups.game_group(game.pk), {"type": "refresh", "turn": turn.number, "status": game.status}),
               (groups.lobby_group(), {"type": "refresh"})])


def game_changed(game) -> None:
    push_many([(groups.game_group(game.pk), {"type": "refresh", "status": game.status}),
               (groups.lobby_group(), {"type": "refresh"})])
