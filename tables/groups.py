"""Every channel-group name of Turing the Tables, built from database ids only."""

from core.groups import group_name


def game_group(game_id: int) -> str:
    """Everyone watching a game's page."""
    return group_name("tables", "game", game_id)


def lobby_group() -> str:
    """The leaderboard and list of games."""
    return group_name("tables", "lobby")
