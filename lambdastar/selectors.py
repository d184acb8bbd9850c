"""Reads of the Λ* platform: visibility, progress, the chunk plan, exports."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from django.db.models import F, Max, Q, Sum
from django.utils import timezone

from core.errors import NotAllowed
from lambdastar import payloads, sweep
from lambdastar.engine import ConfigError, EngineConfig
from lambdastar.models import ChunkResult, Experiment, Run

EXPORT_FIELDS = [
    "experiment",
    "run",
    "agent_type",
    "episode",
    "seed",
    "rng",
    "rules",
    "score",
    "complexity",
    "width",
    "height",
    "iterations",
    "agents",
    "observation_range",
    "complexity_min",
    "complexity_max",
    "coordination",
]


def experiments_visible(*, user):
    """Who may read an experiment (list, page, plots, exports, API, live progress): its owner and
    staff (organisers) any; everyone signed in the finished ones (published results). Drafts and
    runs in progress stay with their owner and the organisers."""
    qs = Experiment.objects.select_related("owner")
    if not user.is_authenticated:
        return qs.none()
    if user.is_staff:
        return qs
    return qs.filter(Q(owner=user) | Q(status=Experiment.Status.FINISHED))


def experiment_for_user(*, experiment_id: int, user) -> Experiment:
    experiment = experiments_visible(user=user).filter(pk=experiment_id).first()
    if experiment is None:
        raise NotAllowed("No such experiment, or not one you may see.")
    return experiment


def experiment_can_manage(*, experiment, user) -> bool:
    """Launch, cancel, resume, clone: the experiment's owner (a researcher) and organisers (staff)."""
    return user.is_authenticated and (user.is_staff or experiment.owner_id == user.pk)


#: What the experiment page offers, by status (each calls the service of that name). A queued or running
#: experiment is offered "resume" only once it has stalled (experiment_stalled): while chunks arrive, its
#: workers are at it.
ACTIONS_BY_STATUS = {
    Experiment.Status.DRAFT: ("launch", "clone"),
    Experiment.Status.QUEUED: ("cancel", "clone"),
    Experiment.Status.RUNNING: ("cancel", "clone"),
    Experiment.Status.FAILED: ("resume", "clone"),
    Experiment.Status.FINISHED: ("clone",),
    Experiment.Status.CANCELLED: ("clone",),
}
STALLED_AFTER = timedelta(minutes=10)  # no chunk stored for so long: a worker died or a message was lost


def experiment_stalled(*, experiment, now=None) -> bool:
    """Queued or running, and nothing stored for STALLED_AFTER (since the launch, or the last chunk)."""
    if experiment.status not in (Experiment.Status.QUEUED, Experiment.Status.RUNNING):
        return False
    last = ChunkResult.objects.filter(run__experiment=experiment).aggregate(last=Max("created_at"))["last"]
    since = max(t for t in (last, experiment.started_at, experiment.queued_at, experiment.created_at) if t)
    return (now or timezone.now()) - since > STALLED_AFTER


def experiment_actions(*, experiment, user) -> tuple[str, ...]:
    """The actions this user may take on the experiment in its present status."""
    if not experiment_can_manage(experiment=experiment, user=user):
        return ()
    actions = ACTIONS_BY_STATUS.get(experiment.status, ())
    if experiment_stalled(experiment=experiment):
        actions = (actions[0], "resume", *actions[1:])
    return actions


def experiment_episodes_done(*, experiment) -> int:
    span = F("stop_episode") - F("first_episode")
    total = ChunkResult.objects.filter(run__experiment=experiment).aggregate(done=Sum(span))["done"]
    return int(total or 0)


def experiment_planned_total(*, experiment) -> int:
    """Episodes × types × runs: stored at launch; a draft's from its configuration (0 if it does not run)."""
    if experiment.status != Experiment.Status.DRAFT:
        return experiment.total_episodes
    try:
        return sweep.workload([c for _, c in sweep.run_configs(experiment.configuration, experiment.seed)])
    except ConfigError:
        return 0


def experiment_costs(*, experiment) -> tuple[int, float, float]:
    """(episodes done, estimated engine seconds of the chunks stored, of the whole experiment): the
    cost model that sizes and orders the chunks (sweep.episode_seconds), two reads."""
    configs = {
        run_id: EngineConfig.from_dict(config) for run_id, config in experiment.runs.values_list("pk", "engine_config")
    }
    total_cost = sum(sweep.episode_seconds(c, t) * c.episodes for c in configs.values() for t in c.types)
    span = F("stop_episode") - F("first_episode")
    stored = (
        ChunkResult.objects.filter(run__experiment=experiment)
        .values("run_id", "agent_type")
        .annotate(done=Sum(span))
        .values_list("run_id", "agent_type", "done")
    )
    done, done_cost = 0, 0.0
    for run_id, agent_type, episodes in stored:
        done += episodes
        done_cost += sweep.episode_seconds(configs[run_id], agent_type) * episodes
    return done, done_cost, total_cost


def experiment_progress(*, experiment, now=None) -> payloads.Progress:
    """Episodes done of the planned total, rate, and time left: the estimated engine time still to
    run at the pace the stored chunks' estimated time took (costly chunks run first, so the
    episode rate of the first minutes says little about the rest)."""
    experiment.refresh_from_db()
    if experiment.status == Experiment.Status.DRAFT:
        done, done_cost, total_cost = 0, 0.0, 0.0
    else:
        done, done_cost, total_cost = experiment_costs(experiment=experiment)
    return payloads.progress(
        experiment,
        done=done,
        total=experiment_planned_total(experiment=experiment),
        done_cost=done_cost,
        total_cost=total_cost,
        now=now or timezone.now(),
    )


def run_chunk_sizes(*, run: Run) -> dict[str, int]:
    """Episodes per chunk of each agent type of a run: as stored at launch (a run with no sizes stored:
    the configuration's chunk_episodes, else sweep.UNSTORED_CHUNK_EPISODES)."""
    if run.chunk_episodes:
        return run.chunk_episodes
    size = sweep.chunk_episodes(run.experiment.configuration) or sweep.UNSTORED_CHUNK_EPISODES
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
    missing = [
        (run, c) for run, c in experiment_chunks(experiment=experiment) if (run.pk, c.agent_type, c.index) not in stored
    ]
    configs = {}
    for run, _ in missing:
        configs.setdefault(run.pk, EngineConfig.from_dict(run.engine_config))
    missing.sort(key=lambda rc: -sweep.chunk_seconds(configs[rc[0].pk], rc[1]))  # stable: plan order otherwise
    return [[run.pk, c.agent_type, c.index] for run, c in missing]


def chunk_locate(*, run: Run, agent_type: str, index: int) -> sweep.Chunk | None:
    return sweep.chunk_at(
        EngineConfig.from_dict(run.engine_config), run_chunk_sizes(run=run), run.index, agent_type, index
    )


def experiment_chunk_results(*, experiment, fields=("scores",), **filters):
    """``(run index, agent type, first episode, *fields)`` of every stored chunk, in episode order."""
    rows = (
        ChunkResult.objects.filter(run__experiment=experiment, **filters)
        .order_by("run__index", "agent_type", "first_episode")
        .values_list("run__index", "agent_type", "first_episode", *fields)
    )
    return rows.iterator(chunk_size=50)  # a chunk row holds up to thousands of episodes


def episode_scores(*, experiment) -> dict[tuple[int, str], list[float]]:
    """{(run index, agent type): scores in episode order}: what invariance tests compare."""
    out: dict[tuple[int, str], list[float]] = {}
    for run_index, agent_type, _, scores in experiment_chunk_results(experiment=experiment):
        out.setdefault((run_index, agent_type), []).extend(scores)
    return out


def episode_rows(*, experiment) -> Iterator[dict]:
    """Every per-episode result with its run's factors and seed, for CSV / JSON Lines exports."""
    runs = {run.index: run for run in experiment.runs.all()}
    chunks = experiment_chunk_results(experiment=experiment, fields=("scores", "complexities"))
    for run_index, agent_type, first, scores, complexities in chunks:
        run = runs[run_index]
        common = {
            "experiment": experiment.pk,
            "run": run.index + 1,
            "agent_type": agent_type,
            "seed": experiment.seed,
            "rng": run.engine_config["rng"],
            "rules": run.engine_config["rules"],
            "width": run.width,
            "height": run.height,
            "iterations": run.iterations,
            "agents": run.agents,
            "observation_range": run.observation_range,
            "complexity_min": run.complexity_min,
            "complexity_max": run.complexity_max,
            "coordination": run.coordination,
        }
        for episode, score, complexity in _episodes(first, scores, complexities):
            yield {**common, "episode": episode, "score": score, "complexity": complexity}


def _episodes(first: int, scores: list, complexities: list | None, lo: int = 0, hi: int | None = None):
    """(episode, score, complexity) of a chunk row's arrays, positions lo..hi-1 (complexity None
    outside the paper rules, whose chunks carry no complexities)."""
    hi = len(scores) if hi is None else hi
    for i in range(lo, hi):
        yield first + i, scores[i], complexities[i] if complexities is not None else None


class EpisodeList:
    """The per-episode results of some chunks as one list that a paginator can count and slice:
    the count is summed over the chunk rows, and a slice reads only the chunks it covers."""

    def __init__(self, chunks):
        self.chunks = chunks.order_by("run_id", "agent_type", "first_episode")
        self._spans = None

    def spans(self) -> list[tuple[int, int, int]]:
        """(chunk id, offset of its first episode in this list, its episodes)."""
        if self._spans is None:
            offset, self._spans = 0, []
            for pk, first, stop in self.chunks.values_list("pk", "first_episode", "stop_episode"):
                self._spans.append((pk, offset, stop - first))
                offset += stop - first
        return self._spans

    def count(self) -> int:
        spans = self.spans()
        return spans[-1][1] + spans[-1][2] if spans else 0

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, key: slice) -> list[dict]:
        start, stop, _ = key.indices(self.count())
        wanted = [pk for pk, offset, n in self.spans() if offset < stop and offset + n > start]
        offsets = {pk: offset for pk, offset, _ in self.spans()}
        out = []
        rows = ChunkResult.objects.filter(pk__in=wanted).order_by("run_id", "agent_type", "first_episode")
        for pk, run_id, agent_type, first, scores, complexities in rows.values_list(
            "pk", "run_id", "agent_type", "first_episode", "scores", "complexities"
        ):
            lo, hi = max(start - offsets[pk], 0), min(stop - offsets[pk], len(scores))
            out += [
                {"run": run_id, "agent_type": agent_type, "episode": episode, "score": score, "complexity": k}
                for episode, score, k in _episodes(first, scores, complexities, lo, hi)
            ]
        return out
