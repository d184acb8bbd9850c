"""Every channel-group name of Turing Trade, built from database ids only (never from user input)."""


def bettors_group(game_id: int) -> str:
    """All bettors of a game: the current question, answer signals, prices."""
    return f"markets.bettors.{int(game_id)}"


def bettor_group(participant_id: int) -> str:
    """One bettor: their own queue, their own answers at once, their points."""
    return f"markets.bettor.{int(participant_id)}"


def target_group(game_id: int) -> str:
    return f"markets.target.{int(game_id)}"


def spectators_group(game_id: int) -> str:
    return f"markets.spectators.{int(game_id)}"
