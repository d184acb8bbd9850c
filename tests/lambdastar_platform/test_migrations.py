"""Experiments stored with one row per episode stay readable after their episodes move into arrays."""

import pytest

from lambdastar import selectors
from lambdastar.models import Experiment

from ..conftest import migrate_to as migrate

BEFORE = [("lambdastar", "0002_run_chunk_episodes")]
AFTER = [("lambdastar", "0003_chunk_episode_arrays")]


@pytest.mark.django_db(transaction=True)
def test_episode_rows_move_into_their_chunks(researcher):
    apps = migrate(BEFORE)
    try:
        old = {
            name: apps.get_model("lambdastar", name) for name in ("Experiment", "Run", "ChunkResult", "EpisodeResult")
        }
        experiment = old["Experiment"].objects.create(
            name="old",
            owner_id=researcher.pk,
            seed=5,
            status="finished",
            configuration={"rules": "paper", "episodes": 4},
        )
        run = old["Run"].objects.create(
            experiment=experiment,
            index=0,
            engine_config={"rng": "pcg64", "rules": "paper"},
            width=5,
            height=5,
            iterations=10,
            agents=1,
            observation_range=1,
        )
        scores = {"ls": [0.1, -0.25, 1 / 3, 0.0], "random": [0.5, 2 / 7, -1 / 9, 0.125]}
        for agent_type, values in scores.items():
            for index in (0, 1):
                chunk = old["ChunkResult"].objects.create(
                    run=run, agent_type=agent_type, index=index, first_episode=2 * index, stop_episode=2 * index + 2
                )
                for episode in (2 * index, 2 * index + 1):
                    old["EpisodeResult"].objects.create(
                        chunk=chunk,
                        run=run,
                        agent_type=agent_type,
                        episode=episode,
                        score=values[episode],
                        complexity=episode + 3,
                    )
    finally:
        migrate(AFTER)
    experiment = Experiment.objects.get(name="old")
    assert selectors.episode_scores(experiment=experiment) == {(0, "ls"): scores["ls"], (0, "random"): scores["random"]}
    rows = list(selectors.episode_rows(experiment=experiment))
    assert [(r["agent_type"], r["episode"], r["complexity"]) for r in rows[:5]] == [
        ("ls", 0, 3),
        ("ls", 1, 4),
        ("ls", 2, 5),
        ("ls", 3, 6),
        ("random", 0, 3),
    ]
