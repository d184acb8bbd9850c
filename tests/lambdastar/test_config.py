"""EngineConfig validation: bad configurations name the option before any work starts."""

import pytest

from lambdastar.engine import AGENT_TYPES, ConfigError, EngineConfig, run


@pytest.mark.parametrize(
    "kwargs, option",
    [
        (dict(width=2, height=2), "width"),
        (dict(width=10, height=1), "height"),
        (dict(width=4, height=5), "grid"),  # reference-2016: square only
        (dict(width=3, height=3, agents=9), "agents"),  # at most S - 1
        (dict(agents=0), "agents"),
        (dict(iterations=0), "iterations"),
        (dict(episodes=0), "episodes"),
        (dict(types="random,telepath"), "types"),
        (dict(types=""), "types"),
        (dict(rules="2025"), "rules"),
        (dict(rng="mt19937"), "rng"),
        (dict(seed=-1), "seed"),
        (dict(rng="glibc", seed=2**32), "seed"),
        (dict(observation_range=2), "observation_range"),
        (dict(complexity_min=2, complexity_max=20), "complexity"),
        (dict(coordination=True), "coordination"),
        (dict(rules="paper", complexity_min=10, complexity_max=2), "complexity"),
        (dict(rules="paper", collision="bounce"), "collision"),
        (dict(rules="paper", width=5, height=5, observation_range=3), "observation_range"),
        (dict(rules="paper", width=3, height=3, agents=10), "agents"),
        (dict(iterations=2.5), "iterations"),
    ],
)
def test_bad_configuration_names_the_option(kwargs, option):
    with pytest.raises(ConfigError) as info:
        EngineConfig.create(**kwargs)
    assert info.value.option == option
    assert option.split("_")[0] in str(info.value)


def test_types_accept_all_and_comma_lists():
    assert EngineConfig.create(types="all").types == AGENT_TYPES
    assert EngineConfig.create(types="ql, ls,ql").types == ("ql", "ls")
    assert EngineConfig.create(types=["oracle"]).types == ("oracle",)


def test_config_is_frozen_and_round_trips_through_a_dict():
    cfg = EngineConfig.create(
        rules="paper",
        width=8,
        height=6,
        agents=48,
        types="ls,oracle",
        complexity_min=2,
        complexity_max=23,
        coordination=True,
    )
    with pytest.raises(AttributeError):
        cfg.seed = 3
    assert EngineConfig.from_dict(cfg.to_dict()) == cfg
    with pytest.raises(ConfigError) as info:
        EngineConfig.from_dict({**cfg.to_dict(), "speed": 3})
    assert info.value.option == "speed"


def test_run_rejects_bad_episode_ranges_and_types_before_working():
    cfg = EngineConfig.create(episodes=10, types="ls")
    with pytest.raises(ConfigError) as info:
        run(cfg, "ls", range(5, 11))
    assert info.value.option == "episodes"
    with pytest.raises(ConfigError) as info:
        run(cfg.replace(rng="glibc"), "ql")
    assert info.value.option == "types"
