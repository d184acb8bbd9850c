"""Every channel-group name of the lpp app, built from database ids only (core.groups.group_name)."""

from core.groups import group_name


def lpp2_group(lpp2_id: int) -> str:
    """An LPP2 contest's broadcasts (newRound, startRound, endRound) to every daphne process's hub."""
    return group_name("lpp", "lpp2", lpp2_id)
