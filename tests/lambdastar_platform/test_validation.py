"""Configurations are checked on save, with messages naming the option; the quota refuses before queueing."""

import pytest
from django.core.exceptions import ValidationError

from lambdastar import services
from lambdastar.errors import QuotaExceeded
from lambdastar.models import Experiment, Run

from .conftest import tiny


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"rules": "paper2"}, "rules: unknown rule set 'paper2'"),
        ({"types": ["ls", "nobody"]}, "types: unknown agent type 'nobody'"),
        (
            {"sweep": {"agents": [1, 30]}},
            "agents: more agents than cells: at most 25 agents per type on a 5x5 grid (run 2: grid=5, agents=30)",
        ),
        ({"sweep": {"speed": [1]}}, "speed: not a factor that can be swept"),
        ({"sweep": {"grid": 5}}, "grid: a swept factor is a non-empty list of values"),
        ({"colour": "red"}, "colour: unknown configuration option"),
        ({"chunk_episodes": 0}, "chunk_episodes: must be an integer ≥ 1, got 0"),
        ({"complexity": [9, 2]}, "complexity: minimum is larger than maximum"),
        ({"episodes": "many"}, "episodes: must be an integer, got 'many'"),
        ({"seed": 3}, "seed: set the experiment's seed field"),
    ],
)
def test_a_bad_configuration_is_refused_naming_the_option(researcher, overrides, message):
    with pytest.raises(ValidationError) as caught:
        Experiment.objects.create(owner=researcher, name="bad", configuration=tiny(**overrides))
    assert any(m.startswith(message) for m in caught.value.message_dict["configuration"])
    assert not Experiment.objects.exists()


def test_a_glibc_seed_too_large_is_reported_on_the_seed_field(researcher):
    with pytest.raises(ValidationError) as caught:
        Experiment.objects.create(
            owner=researcher, name="bad", seed=2**40, configuration=tiny(rules="reference-2016", rng="glibc")
        )
    assert caught.value.message_dict["seed"][0].startswith("seed: glibc srand()")


def test_a_seed_in_a_file_moves_to_the_seed_field(researcher):
    experiment = services.experiment_create(owner=researcher, name="file", configuration={**tiny(), "seed": 11})
    assert experiment.seed == 11 and "seed" not in experiment.configuration


def test_a_sweep_over_the_quota_is_refused_before_it_is_queued(researcher, settings):
    settings.LAMBDASTAR_QUOTA_EPISODES = 100
    small = services.experiment_create(owner=researcher, name="small", configuration=tiny())  # 56
    services.experiment_launch(experiment_id=small.pk, enqueue=False)
    big = services.experiment_create(owner=researcher, name="big", configuration=tiny())  # 56 more
    with pytest.raises(QuotaExceeded, match="passes the quota of 100 for rita"):
        services.experiment_launch(experiment_id=big.pk, enqueue=False)
    big.refresh_from_db()
    assert big.status == Experiment.Status.DRAFT and not Run.objects.filter(experiment=big).exists()
    services.experiment_cancel(experiment_id=small.pk)  # finished or cancelled work no longer counts
    services.experiment_launch(experiment_id=big.pk, enqueue=False)
