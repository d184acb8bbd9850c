"""The plots and results table of an experiment: their data (rows, also served as CSV and JSON) and
their SVG. Finished, they come from the stored aggregates; while chunks are still running, from the
chunks stored so far, so the page fills in live.

Runs are pooled along the factors a plot does not show (n, mean, std of the union of samples).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.core.cache import cache

from lambdastar import plots, selectors
from lambdastar.models import Aggregate, ChunkResult, Experiment, Run
from lambdastar.summary import Summary, pool, summarise
from lambdastar.sweep import COLLECTIVE_TYPES

CSV_FIELDS = ["figure", "series", "x", "n", "mean", "std", "sem", "ci_low", "ci_high"]

FIGURES = {
    "types": ("Score per agent type (95 % CI)", "agent type", None),
    "grid": ("Score against grid size", "grid width", "width"),
    "agents": ("Collective against isolated agents as N grows", "agents per type (N)", "agents"),
    "complexity": ("Score against pattern complexity K(μ)", "K(μ)", None),
}
YLABEL = "mean score per agent and iteration"


def _label(agent_type: str) -> str:
    return f"{agent_type} (collective)" if agent_type in COLLECTIVE_TYPES else agent_type


@dataclass
class Summaries:
    """An experiment's results so far: per (run index, agent type) and per (series, K(μ))."""

    runs: dict[int, Run]
    by_run_type: dict[tuple[int, str], Summary]
    by_complexity: dict[tuple[str, int], Summary]


def experiment_summaries(*, experiment) -> Summaries:
    """Finished: the stored aggregates (and the complexities). Otherwise the chunks stored so far, in
    one pass (each chunk summarised, then pooled), so plots and tables fill in as chunks finish."""
    runs = {run.index: run for run in experiment.runs.all()}
    finished = experiment.status == Experiment.Status.FINISHED
    per_type: dict[tuple[int, str], list[Summary]] = defaultdict(list)
    per_k: dict[tuple[str, int], list[float]] = defaultdict(list)
    filters = {"complexities__isnull": False} if finished else {}
    for run_index, agent_type, _, scores, complexities in selectors.experiment_chunk_results(
        experiment=experiment, fields=("scores", "complexities"), **filters
    ):
        if not finished:
            per_type[(run_index, agent_type)].append(summarise(scores))
        for k, score in zip(complexities or (), scores):
            per_k[(_label(agent_type), k)].append(score)
    if finished:
        by_run_type = {
            (a.run.index, a.agent_type): Summary(a.episodes, a.mean, a.std)
            for a in Aggregate.objects.filter(run__experiment=experiment).select_related("run")
        }
    else:
        by_run_type = {key: pool(parts) for key, parts in per_type.items()}
    by_complexity = {key: summarise(values) for key, values in sorted(per_k.items())}
    return Summaries(runs, by_run_type, by_complexity)


def _pooled(summaries: Summaries, factor: str | None) -> dict[tuple[str, object], Summary]:
    groups: dict[tuple[str, object], list[Summary]] = defaultdict(list)
    for (run_index, agent_type), s in sorted(summaries.by_run_type.items()):
        x = agent_type if factor is None else getattr(summaries.runs[run_index], factor)
        series = "all runs" if factor is None else _label(agent_type)
        groups[(series, x)].append(s)
    return {key: pool(parts) for key, parts in groups.items()}


def figure_rows(*, experiment, name: str, summaries: Summaries | None = None) -> list[dict]:
    """[{figure, series, x, n, mean, std, sem, ci_low, ci_high}] of one plot ([] if it has no data)."""
    if name not in FIGURES:
        raise KeyError(name)
    summaries = summaries or experiment_summaries(experiment=experiment)
    pooled = summaries.by_complexity if name == "complexity" else _pooled(summaries, FIGURES[name][2])
    return [{"figure": name, "series": series, "x": x, **s.as_dict()} for (series, x), s in pooled.items()]


def table_rows(*, summaries: Summaries) -> list[dict]:
    """The results table: one row per run and agent type with its factors (those with results so far)."""
    out = []
    for (run_index, agent_type), s in sorted(summaries.by_run_type.items()):
        run = summaries.runs[run_index]
        out.append(
            {
                "run": run_index + 1,
                "grid": f"{run.width}×{run.height}",
                "iterations": run.iterations,
                "agents": run.agents,
                "observation_range": run.observation_range,
                "complexity": run.complexity_label,
                "coordination": run.coordination,
                "agent_type": agent_type,
                **s.as_dict(),
            }
        )
    return out


def figures_available(*, experiment) -> list[str]:
    """The plots that say something for this experiment (a factor plot needs two values or more)."""
    runs = experiment.runs.all()
    names = ["types"]
    if len({r.width for r in runs}) > 1:
        names.append("grid")
    if len({r.agents for r in runs}) > 1:
        names.append("agents")
    if ChunkResult.objects.filter(run__experiment=experiment, complexities__isnull=False).exists():
        names.append("complexity")
    return names


def experiment_results(*, experiment) -> dict:
    """Everything the page draws, as JSON: each plot's rows, the results table, its labels."""
    summaries = experiment_summaries(experiment=experiment)
    return {
        "figures": [
            {
                "name": name,
                "title": FIGURES[name][0],
                "xlabel": FIGURES[name][1],
                "ylabel": YLABEL,
                "categorical": name == "types",
                "rows": _finite(figure_rows(experiment=experiment, name=name, summaries=summaries)),
            }
            for name in figures_available(experiment=experiment)
        ],
        "table": _finite(table_rows(summaries=summaries)),
    }


#: How long a results snapshot (keyed by experiment, status and episodes stored) is shared by viewers.
RESULTS_CACHE_S = 300


def experiment_results_shared(*, experiment) -> dict:
    """:func:`experiment_results`, computed once per state of the experiment (status, episodes stored)
    however many pages ask: while it runs, each stored chunk would otherwise cost every open page a
    read of every chunk."""
    done = selectors.experiment_episodes_done(experiment=experiment)
    key = f"lambdastar:results:{experiment.pk}:{experiment.status}:{done}"
    return cache.get_or_set(key, lambda: experiment_results(experiment=experiment), RESULTS_CACHE_S)


def _finite(rows: list[dict]) -> list[dict]:
    """NaN (one episode: no deviation) is not JSON: null instead."""
    return [{k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()} for row in rows]


def figure_svg(*, experiment, name: str) -> str:
    title, xlabel, _ = FIGURES[name]
    series: dict[str, list[plots.Point]] = defaultdict(list)
    for row in figure_rows(experiment=experiment, name=name):
        series[row["series"]].append(plots.Point(row["x"], row["mean"], row["ci_low"], row["ci_high"]))
    return plots.chart(dict(series), title=title, xlabel=xlabel, ylabel=YLABEL, categorical=name == "types")
