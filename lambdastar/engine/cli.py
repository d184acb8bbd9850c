"""Command line: ``python -m lambdastar.engine run [options]`` and ``python -m lambdastar.engine warm``.

``run`` writes one JSON object (or CSV row) per agent type with mean, std, sem, optionally the
per-episode scores, and the full configuration; a tqdm progress bar goes to standard error.
Bad options exit with status 2 and a message naming the option.

``warm`` loads every compiled kernel (compiling those numba's on-disk cache lacks) and writes one JSON
object: ``{"rules": [...], "seconds": s}``.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import multiprocessing
import sys
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from .config import AGENT_TYPES, RNGS, RULES, EngineConfig
from .errors import ConfigError, config_errors
from .stats import RunningStats

FLAG_OF = {
    "width": "--width/--grid",
    "height": "--height/--grid",
    "grid": "--grid",
    "complexity": "--complexity",
    "observation_range": "--observation-range",
    "complexity_min": "--complexity",
    "complexity_max": "--complexity",
}


class _Parser(argparse.ArgumentParser):
    """Errors are one line on standard error (no usage block), exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {' '.join(str(message).split())}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m lambdastar.engine", description="Λ* (Lambda Star) intelligence test engine")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("run", help="evaluate agent types and print their scores")
    p.add_argument("--rules", choices=RULES, default="reference-2016")
    p.add_argument("--rng", choices=RNGS, default="pcg64")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--grid", type=int, default=10, metavar="N", help="square grid side (default 10)")
    p.add_argument("--width", type=int, help="grid width (overrides --grid)")
    p.add_argument("--height", type=int, help="grid height (overrides --grid)")
    p.add_argument("--iterations", "-T", type=int, default=50, help="iterations per episode")
    p.add_argument("--agents", "-N", type=int, default=5, help="agents per type")
    p.add_argument("--episodes", "-W", type=int, default=1000)
    p.add_argument("--types", default="all", help=f"'all' or a comma list of: {','.join(AGENT_TYPES)}")
    p.add_argument("--per-episode", action="store_true", help="include per-episode scores")
    p.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    p.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (pcg64 and paper)")
    p.add_argument("--block", type=int, default=0, help="episodes per work unit (default: automatic)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--observation-range", type=int, default=1, help="paper: Moore range k")
    p.add_argument("--complexity", metavar="MIN:MAX", help="paper: pattern complexity band")
    p.add_argument("--coordination", action="store_true", help="paper: coordinated agents")
    p.add_argument("--collision", default="random", help="paper: Good/Evil collision rule")
    w = sub.add_parser("warm", help="compile (or load from the on-disk cache) every kernel, ahead of the work")
    w.add_argument("--rules", choices=RULES, action="append", help="only this rule set's kernels (repeatable)")
    parser.run_parser = p
    return parser


def _complexity(text: str | None, parser: argparse.ArgumentParser):
    if text is None:
        return None, None
    lo, sep, hi = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return (float(lo) if lo.strip() else None), (float(hi) if hi.strip() else None)
    except ValueError:
        parser.error(f"--complexity: expected MIN:MAX (e.g. 2:23), got {text!r}")


def _flag(option: str) -> str:
    return FLAG_OF.get(option, "--" + option.replace("_", "-"))


def config_from_args(args, parser) -> EngineConfig:
    """The checked configuration: every problem of either rule set (the paper rule set's band,
    generator and coordination checks included) exits 2 naming the option, before any work."""
    cmin, cmax = _complexity(args.complexity, parser)
    if args.jobs < 1:
        parser.error("--jobs: must be ≥ 1")
    if args.block < 0:
        parser.error("--block: must be ≥ 0")
    try:
        config = EngineConfig.create(
            rules=args.rules,
            rng=args.rng,
            seed=args.seed,
            width=args.width if args.width is not None else args.grid,
            height=args.height if args.height is not None else args.grid,
            iterations=args.iterations,
            agents=args.agents,
            episodes=args.episodes,
            types=args.types,
            observation_range=args.observation_range,
            complexity_min=cmin,
            complexity_max=cmax,
            coordination=args.coordination,
            collision=args.collision,
        )
        if config.rules == "paper":
            from .runner import paper_module

            paper_module().check_config(config)
    except ConfigError as exc:
        parser.error("; ".join(f"{_flag(e.option)}: {e.message}" for e in config_errors(exc)))
    return config


# --------------------------------------------------------------------------------------------
#: Largest work unit (episodes) of the automatic split: results of a unit are held in memory
#: until consumed, so this keeps memory flat in W.
MAX_UNIT = 50_000


def _unit(config: EngineConfig, agent_type: str, first: int, stop: int) -> np.ndarray:
    from .runner import run

    return run(config, agent_type, range(first, stop))


def work_units(config: EngineConfig, jobs: int = 1, block: int = 0) -> list[tuple[str, int, int]]:
    """``(type, first, stop)`` units in types order then episode order.

    Automatic (``block`` = 0): each type's episodes are split into ``jobs`` contiguous blocks of
    near-equal size (more if a block would exceed :data:`MAX_UNIT` episodes), so every worker gets
    an equal share of every type and there are few, large units."""
    W = config.episodes
    if block > 0:
        bounds = list(range(0, W, block)) + [W]
    else:
        parts = max(jobs, -(-W // MAX_UNIT))
        parts = min(parts, W)
        bounds = [W * k // parts for k in range(parts + 1)]
    return [(t, a, b) for t in config.types for a, b in zip(bounds, bounds[1:]) if b > a]


def _warm(config: EngineConfig) -> None:
    """Load (or compile) the kernels in this process before forking, so workers inherit them."""
    _unit(config.replace(episodes=1), "random", 0, 1)


def iter_results(config: EngineConfig, jobs: int = 1, block: int = 0) -> Iterator[tuple[str, np.ndarray]]:
    """``(type, scores)`` pieces in episode order per type (types in ``config.types`` order).

    pcg64 and paper: episodes are independent, so any ``jobs``/``block`` gives the same numbers.
    ``jobs`` > 1 forks a pool of workers once, after the kernels are loaded in this process."""
    from .runner import glibc_blocks, paper_module

    if config.rules == "reference-2016" and config.rng == "glibc":
        for _, scores, _ in glibc_blocks(config):  # one global stream: sequential
            for t in config.types:
                yield t, scores[t]
        return
    if config.rules == "paper":
        paper_module().check_config(config)  # clear error before any work
    if jobs == 1:
        for t, a, b in work_units(config, 1, block or 2000):
            yield t, _unit(config, t, a, b)
        return
    units = work_units(config, jobs, block)
    _warm(config)
    context = multiprocessing.get_context("fork")
    window = 2 * jobs  # results held at most: memory flat in W
    with ProcessPoolExecutor(max_workers=min(jobs, len(units)), mp_context=context) as pool:
        pending: deque = deque()
        todo = iter(units)
        for t, a, b in itertools.islice(todo, window):
            pending.append((t, pool.submit(_unit, config, t, a, b)))
        while pending:
            t, fut = pending.popleft()
            scores = fut.result()
            nxt = next(todo, None)
            if nxt is not None:
                pending.append((nxt[0], pool.submit(_unit, config, *nxt)))
            yield t, scores


def summarise(
    config: EngineConfig, jobs: int = 1, block: int = 0, per_episode: bool = False, progress: bool = True
) -> list[dict]:
    from tqdm import tqdm

    stats = {t: RunningStats(keep=per_episode) for t in config.types}
    total = config.episodes * len(config.types)
    with tqdm(
        total=total, unit="ep", file=sys.stderr, disable=not progress, desc=f"{config.rules}/{config.rng}"
    ) as bar:
        for t, scores in iter_results(config, jobs, block):
            stats[t].extend(scores)
            bar.update(len(scores))
    rows = []
    for t in config.types:
        s = stats[t]
        row = {"type": t, "mean": s.mean, "std": s.std, "sem": s.sem, "n_episodes": s.count, "config": config.to_dict()}
        if per_episode:
            row["episodes"] = s.kept
        rows.append(row)
    return rows


def write_rows(rows: list[dict], fmt: str, out=None) -> None:
    out = out or sys.stdout
    if fmt == "jsonl":
        for row in rows:
            out.write(json.dumps(row) + "\n")
        return
    config_keys = list(rows[0]["config"]) if rows else []
    header = ["type", "mean", "std", "sem", "n_episodes"] + [k for k in config_keys if k != "types"]
    if rows and "episodes" in rows[0]:
        header.append("episode_scores")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        cfg = row["config"]
        line = [row["type"], repr(row["mean"]), repr(row["std"]), repr(row["sem"]), row["n_episodes"]]
        line += ["" if cfg[k] is None else cfg[k] for k in config_keys if k != "types"]
        if "episodes" in row:
            line.append(";".join(repr(x) for x in row["episodes"]))
        writer.writerow(line)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "warm":
        from .warm import warm

        rules = args.rules or list(RULES)
        print(json.dumps({"rules": rules, "seconds": round(warm(rules), 3)}))
        return 0
    parser = parser.run_parser
    config = config_from_args(args, parser)
    if args.jobs > 1 and config.rules == "reference-2016" and config.rng == "glibc":
        print("note: --rng glibc replays one global stream; running sequentially", file=sys.stderr)
    rows = summarise(config, args.jobs, args.block, args.per_episode, progress=not args.no_progress)
    write_rows(rows, args.format)
    return 0
