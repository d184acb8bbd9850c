"""Every channel-group name of Turing Trade, built from database ids only (never from user input)."""

from core.groups import group_name


def bettors_group(game_id: int) -> str:
    """All bettors of a game: the current question, answer signals, prices."""
    return group_name("markets", "bettors", game_id)


def bettor_group(participant_id: int) -> str:
    """One bettor: their own queue, their own answers at once, their points."""
    return group_name("markets", "bettor", participant_id)


def target_group(game_id: int) -> str:
    return group_name("markets", "target", game_id)


def spectators_group(game_id: int) -> str:
    return group_name("markets", "spectators", game_id)
