"""Every channel-group name of the Λ* platform, built from database ids only."""

from core.groups import group_name


def experiment_group(experiment_id: int) -> str:
    return group_name("lambdastar", "experiment", experiment_id)
