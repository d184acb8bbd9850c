"""The plots of an experiment: their data (rows, also served as CSV) and their SVG.

Runs are pooled along the factors a plot does not show (n, mean, std of the union of samples).
"""
from __future__ import annotations

from collections import defaultdict

from lambdastar import plots, selectors
from lambdastar.models import Aggregate, ChunkResult
from lambdastar.summary import Summary, pool, summarise
from lambdastar.sweep import COLLECTIVE_TYPES

CSV_FIELDS = ["figure", "series", "x", "n", "mean", "std", "sem", "ci_low", "ci_high"]

FIGURES = {
    "types": ("Score per agent type (95 % CI)", "agent type", None),
    "grid": ("Score against grid size", "grid width", "width"),
    "agents": ("Collective against isolated agents as N grows", "agents per type (N)", "agents"),
    "complexity": ("Score against pattern complexity K(μ)", "K(μ)", None),
}


def _label(agent_type: str) -> str:
    return f"{agent_type} (collective)" if agent_type in COLLECTIVE_TYPES else agent_type


def _pooled(experiment, factor: str | None) -> dict[tuple[str, object], Summary]:
    groups: dict[tuple[str, object], list[Summary]] = defaultdict(list)
    aggregates = Aggregate.objects.filter(run__experiment=experiment).select_related("run")
    for a in aggregates.order_by("run__index", "agent_type"):
        x = a.agent_type if factor is None else getattr(a.run, factor)
        series = "all runs" if factor is None else _label(a.agent_type)
        groups[(series, x)].append(Summary(a.episodes, a.mean, a.std))
    return {key: pool(parts) for key, parts in groups.items()}


def _by_complexity(experiment) -> dict[tuple[str, object], Summary]:
    scores: dict[tuple[str, int], list[float]] = defaultdict(list)
    chunks = selectors.experiment_chunk_results(experiment=experiment, fields=("complexities", "scores"),
                                                complexities__isnull=False)
    for _, agent_type, _, complexities, values in chunks:
        label = _label(agent_type)
        for k, score in zip(complexities, values):
            scores[(label, k)].append(score)
    return {key: summarise(values) for key, values in sorted(scores.items(), key=lambda kv: (kv[0][0], kv[0][1]))}


def figure_rows(*, experiment, name: str) -> list[dict]:
    """[{figure, series, x, n, mean, std, sem, ci_low, ci_high}] of one plot ([] if it has no data)."""
    if name not in FIGURES:
        raise KeyError(name)
    summaries = _by_complexity(experiment) if name == "complexity" else _pooled(experiment, FIGURES[name][2])
    return [{"figure": name, "series": series, "x": x, **s.as_dict()} for (series, x), s in summaries.items()]


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


def figure_svg(*, experiment, name: str) -> str:
    title, xlabel, _ = FIGURES[name]
    series: dict[str, list[plots.Point]] = defaultdict(list)
    for row in figure_rows(experiment=experiment, name=name):
        series[row["series"]].append(plots.Point(row["x"], row["mean"], row["ci_low"], row["ci_high"]))
    return plots.chart(dict(series), title=title, xlabel=xlabel, ylabel="mean score per agent and iteration",
                       categorical=name == "types")
