"""Every channel-group name of studies, built from database ids only (never from user input)."""

from core.groups import group_name


def participant_group(participant_id: int) -> str:
    """One participant's lobby page(s): "your game is ready", "your wait is over"."""
    return group_name("studies", "participant", participant_id)
