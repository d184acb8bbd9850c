"""Paper rule set: scores, determinism and chunking, Υ(Π), H(μ), and configuration errors."""

import math

import numpy as np
import pytest

from lambdastar.engine.config import AGENT_TYPES, EngineConfig
from lambdastar.engine.errors import ConfigError
from lambdastar.engine.paper import PaperOptions, run_episodes, search_space_entropy, upsilon


def paper(**kw):
    base = dict(rules="paper", seed=11, width=10, height=10, iterations=50, agents=5, episodes=300)
    base.update(kw)
    return EngineConfig.create(**base)


def test_random_scores_zero_and_oracle_beats_local_search_beats_random():
    cfg = paper()
    scores = {t: run_episodes(cfg, t) for t in ("random", "ls", "oracle")}
    rnd = scores["random"]
    assert abs(rnd.mean()) < 4 * rnd.std() / math.sqrt(len(rnd)) + 0.002
    assert scores["oracle"].mean() > scores["ls"].mean() + 0.2
    assert scores["ls"].mean() > rnd.mean() + 0.2
    for s in scores.values():
        assert np.all((s >= -1) & (s <= 1))


def test_learners_learn_the_episode():
    cfg = paper(episodes=20)
    assert run_episodes(cfg, "ql").mean() > run_episodes(cfg, "random").mean() + 0.1


@pytest.mark.parametrize("agent_type", AGENT_TYPES)
def test_chunking_never_changes_a_number(agent_type):
    cfg = paper(width=6, height=5, iterations=12, agents=3, observation_range=2)
    options = PaperOptions(training_episodes=5)
    whole = run_episodes(cfg, agent_type, range(10), options)
    parts = np.concatenate(
        [run_episodes(cfg, agent_type, range(5), options), run_episodes(cfg, agent_type, range(5, 10), options)]
    )
    blocks = run_episodes(cfg, agent_type, range(10), PaperOptions(training_episodes=5, block_size=3))
    shuffled = run_episodes(cfg, agent_type, [7, 2, 9], options)
    assert np.array_equal(whole, parts)
    assert np.array_equal(whole, blocks)
    assert np.array_equal(whole[[7, 2, 9]], shuffled)


def test_seed_matters_and_repeats():
    a = run_episodes(paper(seed=1), "ls", range(20))
    assert np.array_equal(a, run_episodes(paper(seed=1), "ls", range(20)))
    assert not np.array_equal(a, run_episodes(paper(seed=2), "ls", range(20)))


def test_coordination_option_changes_scores():
    plain = run_episodes(paper(agents=2, episodes=100), "ls")
    coord = run_episodes(paper(agents=2, episodes=100, coordination=True), "ls")
    assert coord.mean() < plain.mean()  # with coordination, lone agents next to Good are not paid


def test_search_space_entropy():
    assert search_space_entropy(5, 5) == pytest.approx(math.log2(25 * 24))
    assert search_space_entropy(10, 10) == pytest.approx(math.log2(math.factorial(100) // math.factorial(98)))
    assert search_space_entropy(3, 4) == pytest.approx(math.log2(12 * 11))


def test_upsilon_over_an_environment_set():
    cfg = paper(episodes=100, complexity_min=2, complexity_max=11)
    result = upsilon(cfg, "ls")
    assert result.environments == 100
    assert result.complexity_band == (2, 11)
    assert sorted(result.by_complexity) == list(range(2, 12))
    assert result.entropy_bits == pytest.approx(math.log2(9900))
    assert result.value == pytest.approx(run_episodes(cfg, "ls").mean())


@pytest.mark.parametrize(
    "changes, option",
    [
        (dict(width=2), "width"),
        (dict(agents=101), "agents"),
        (dict(types=("ls", "nonsense")), "types"),
        (dict(iterations=0), "iterations"),
        (dict(complexity_min=30), "complexity"),
        (dict(complexity_max=1), "complexity"),
        (dict(observation_range=5), "observation_range"),
        (dict(rng="glibc"), "rng"),
        (dict(agents=1, coordination=True), "coordination"),
    ],
)
def test_bad_configurations_name_the_option(changes, option):
    base = dict(rules="paper", seed=1, width=10, height=10, iterations=50, agents=5, episodes=10)
    base.update(changes)
    with pytest.raises(ConfigError) as err:
        run_episodes(EngineConfig(**base), "ls")
    assert err.value.option == option


def test_unknown_agent_type_is_refused():
    with pytest.raises(ConfigError) as err:
        run_episodes(paper(), "genius")
    assert err.value.option == "types"
