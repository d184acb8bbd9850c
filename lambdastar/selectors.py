"""Reads of the Λ* platform: visibility, progress, the chunk plan, exports."""
from __future__ import annotations

from typing import Iterator

from django.db.models import F, Sum
from django.utils import timezone

from arena.errors import NotAllowed
from lambdastar import payloads, sweep
from lambdastar.engine import EngineConfig
from lambdastar.models import ChunkResult, EpisodeResult, Experiment, Run

EXPORT_FIELDS = ["experiment", "run", "agent_type", "episode", "seed", "rng", "rules", "score", "complexity",
                 "width", "height", "iterations", "agents", "observation_range", "complexity_min",
                 "complexity_max", "coordination"]


def experiments_visible(*, user):
    qs = Experiment.objects.select_related("owner")
    if user.is_staff:
        return qs
    return qs.filter(owner=user) if user.is_authenticated else qs.none()


def experiment_for_user(*, experiment_id: int, user) -> Experiment:
    experiment = experiments_visible(user=user).filter(pk=experiment_id).first()
    if experiment is None:
        raise NotAllowed("No such experiment of yours.")
    return experiment


def experiment_episodes_done(*, experiment) -> int:
    span = F("stop_episode") - F("first_episode")
    total = ChunkResult.objects.filter(run__experiment=experiment).aggregate(done=Sum(span))["done"]
    return int(total or 0)


def experiment_progress(*, experiment) -> payloads.Progress:
    experiment.refresh_from_db()
    return payloads.progress(experiment, done=experiment_episodes_done(experiment=experiment), now=timezone.now())


def run_chunk_sizes(*, run: Run) -> dict[str, int]:
    """Episodes per chunk of each agent type of a run: as stored at launch (runs launched before
    sizes were stored: the configuration's chunk_episodes, else the size of that time)."""
    if run.chunk_episodes:
        return run.chunk_episodes
    size = sweep.chunk_episodes(run.experiment.configuration) or sweep.LEGACY_CHUNK_EPISODES
    return {t: size for t in run.engine_config["types"]}


def experiment_chunks(*, experiment) -> list[tuple[Run, sweep.Chunk]]:
    """The full chunk plan of a launched experiment, each chunk with its run."""
    runs = list(experiment.runs.select_related("experiment").order_by("index"))
    configs = [EngineConfig.from_dict(run.engine_config) for run in runs]
    plan = sweep.chunk_plan(configs, [run_chunk_sizes(run=run) for run in runs])
    return [(runs[c.run_index], c) for c in plan]


def chunk_keys_missing(*, experiment) -> list[list]:
    """[run id, agent type, chunk index] of every chunk not stored yet, the costliest first."""
    stored = set(ChunkResult.objects.filter(run__experiment=experiment).values_list("run_id", "agent_type", "index"))
    missing = [(run, c) for run, c in experiment_chunks(experiment=experiment)
               if (run.pk, c.agent_type, c.index) not in stored]
    configs = {}
    for run, _ in missing:
        configs.setdefault(run.pk, EngineConfig.from_dict(run.engine_config))
    missing.sort(key=lambda rc: -sweep.chunk_seconds(configs[rc[0].pk], rc[1]))  # stable: plan order otherwise
    return [[run.pk, c.agent_type, c.index] for run, c in missing]


def chunk_locate(*, run: Run, agent_type: str, index: int) -> sweep.Chunk | None:
    return sweep.chunk_at(EngineConfig.from_dict(run.engine_config), run_chunk_sizes(run=run), run.index,
                          agent_type, index)


def episode_scores(*, experiment) -> dict[tuple[int, str], list[float]]:
    """{(run index, agent type): scores in episode order}: what invariance tests compare."""
    out: dict[tuple[int, str], list[float]] = {}
    rows = EpisodeResult.objects.filter(run__experiment=experiment).order_by("run__index", "agent_type", "episode")
    for run_index, agent_type, score in rows.values_list("run__index", "agent_type", "score").iterator():
        out.setdefault((run_index, agent_type), []).append(score)
    return out


def episode_rows(*, experiment) -> Iterator[dict]:
    """Every per-episode result with its run's factors and seed, for CSV / JSON Lines exports."""
    runs = {run.pk: run for run in experiment.runs.all()}
    rows = (EpisodeResult.objects.filter(run__experiment=experiment)
            .order_by("run__index", "agent_type", "episode")
            .values_list("run_id", "agent_type", "episode", "score", "complexity"))
    for run_id, agent_type, episode, score, complexity in rows.iterator(chunk_size=2000):
        run = runs[run_id]
        yield {
            "experiment": experiment.pk, "run": run.index + 1, "agent_type": agent_type, "episode": episode,
            "seed": experiment.seed, "rng": run.engine_config["rng"], "rules": run.engine_config["rules"],
            "score": score, "complexity": complexity, "width": run.width, "height": run.height,
            "iterations": run.iterations, "agents": run.agents, "observation_range": run.observation_range,
            "complexity_min": run.complexity_min, "complexity_max": run.complexity_max,
            "coordination": run.coordination,
        }
