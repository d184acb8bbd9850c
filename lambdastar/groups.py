"""Every channel-group name of the Λ* platform, built from database ids only."""


def experiment_group(experiment_id: int) -> str:
    return f"lambdastar.experiment.{int(experiment_id)}"
