"""Every channel-group name of studies, built from database ids only (never from user input)."""

from core.groups import group_name


def participant_group(participant_id: int) -> str:
    """One participant's lobby page(s): "your game is ready", "your wait is over"."""
    return group_name("studies", "participant", participant_id)


def lobby_group(study_id: int) -> str:
    """Everyone in a study's lobby: how many are waiting (the live status line)."""
    return group_name("studies", "lobby", study_id)
