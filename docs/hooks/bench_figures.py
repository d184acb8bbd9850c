"""MkDocs hook: the benchmarks' latest recorded figures as a table, in place of `<!-- bench:figures -->`.

One row per benchmark of bench/results.py's FIGURES, from the last line of bench/results/<name>.jsonl
(written by `python -m bench.<name> --record`): the headline figure, the baseline measured in the same
run, the target and whether it was met, when, at which commit, on what machine, and the command that
reproduces it. A benchmark without a record says "not recorded yet"; a record that cannot be read says
so in its row. Nothing here fails the build or logs a warning (the build is strict).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

MARKER = "<!-- bench:figures -->"
ROOT = Path(__file__).resolve().parents[2]
RESULTS_MODULE = ROOT / "bench" / "results.py"
COLUMNS = (
    "Benchmark",
    "Headline figure",
    "Baseline (same run)",
    "Target",
    "Met?",
    "Date",
    "Commit",
    "Machine",
    "Reproduce",
)
DASH = "—"


def results_module():
    """bench/results.py, loaded from its file (the docs build does not put the repository on sys.path)."""
    name = "bench_results_for_docs"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, RESULTS_MODULE)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while it loads
        spec.loader.exec_module(module)
    return sys.modules[name]


# --- cells ------------------------------------------------------------------------------------------
def cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def code(text: str) -> str:
    return f"`{text}`" if text else DASH


def value(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int | float):
        if v != v:  # NaN
            return "n/a"
        return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"
    return DASH if v is None else str(v)


def shown(figure: dict | None) -> str:
    if not figure:
        return DASH
    unit = f" {figure['unit']}" if figure.get("unit") and figure.get("value") is not None else ""
    return f"{figure['label']}: {value(figure.get('value'))}{unit}"


def met(target: dict) -> str:
    return {True: "met", False: "not met"}.get(target.get("met"), DASH)


def commit(entry: dict) -> str:
    c = entry.get("commit") or {}
    if not c.get("hash"):
        return DASH
    return code(c["hash"]) + (" (local changes)" if c.get("dirty") else "")


def machine(entry: dict) -> str:
    m = entry.get("machine") or {}
    load = " / ".join(f"{x:.2f}" for x in m.get("load_average") or [])
    parts = [f"{m['cores']} cores" if m.get("cores") else None, f"load {load}" if load else None, m.get("mode")]
    return ", ".join(p for p in parts if p) or DASH


# --- rows -------------------------------------------------------------------------------------------
def not_recorded(name: str, why: str) -> list[str]:
    return [code(name), why, DASH, DASH, DASH, DASH, DASH, DASH, code(f"python -m bench.{name} --record")]


def row(name: str, entry: dict, results) -> list[str]:
    figures = entry.get("figures") or results.figures(name, entry.get("result") or {})
    target = figures.get("target") or {}
    return [
        code(name),
        shown(figures.get("headline")),
        shown(figures.get("baseline")),
        target.get("text") or DASH,
        met(target),
        (entry.get("date") or DASH)[:10],
        commit(entry),
        machine(entry),
        code(entry.get("command", "")),
    ]


def rows(directory: Path | None = None) -> list[list[str]]:
    results = results_module()
    directory = Path(directory) if directory is not None else results.RESULTS
    out = []
    for name in results.FIGURES:
        try:
            entry = results.latest(name, directory)
            out.append(not_recorded(name, results.NOT_RECORDED) if entry is None else row(name, entry, results))
        except Exception:  # a damaged record is shown as such, never a failed build
            out.append(not_recorded(name, f"unreadable record (bench/results/{name}.jsonl)"))
    return out


def table(directory: Path | None = None) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows(directory)]
    lines.append("")
    lines.append(
        "Each row is the last line of `bench/results/<benchmark>.jsonl`; `python -m bench.<benchmark> --record` "
        "adds one. The baseline is measured in the same run as the figure, on the same machine."
    )
    return "\n".join(lines)


def on_page_markdown(markdown: str, page=None, config=None, files=None, **kwargs) -> str:
    if MARKER not in markdown:
        return markdown
    try:
        figures = table()
    except Exception:  # never fail the build over the figures
        figures = "The benchmarks' figures could not be read."
    return "\n".join(figures if line.strip() == MARKER else line for line in markdown.split("\n"))
