"""Benchmark figures as data: each run's JSON result, recorded with where and how it was measured.

Every benchmark takes `--record` (append the run to bench/results/<name>.jsonl) and `--record-to FILE`
(append it to FILE instead); the line of JSON it prints stays exactly what it is. A recorded entry is
one JSON line:

    {"benchmark": "markets", "date": "2026-01-31T12:00:00Z",
     "commit": {"hash": "62f4fe9", "dirty": false},
     "machine": {"cores": 2, "load_average": [1.2, 0.9, 0.8], "cpu_model": "...", "python": "3.12.3",
                 "platform": "Linux-...", "mode": "services"},
     "command": "python -m bench.markets --seconds 2 --record", "argv": ["--seconds", "2", "--record"],
     "figures": {"measures": ..., "headline": {...}, "baseline": {...}, "target": {...}},
     "result": {... the benchmark's JSON, unchanged ...}}

`figures` is read from FIGURES, the one table that says, per benchmark, which of its keys is the
headline figure, which is the baseline measured in the same run, and what the target is (a sentence,
and the checks that decide whether it was met). `dirty` is true when tracked files differ from the
commit (bench/results/ itself aside). `mode` is the platform's mode as the run saw it: "services"
(PostgreSQL and Redis), "embedded" (SQLite, no Redis), or which of the two it had.

Standard library only: the documentation's hook (docs/hooks/bench_figures.py) reads it too.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
NOT_RECORDED = "not recorded yet"


@dataclass(frozen=True)
class Figure:
    """A figure of a result: its key (dots reach into nested objects), a label and a unit."""

    key: str
    label: str
    unit: str = ""


@dataclass(frozen=True)
class Spec:
    """What a benchmark measures, its headline figure, its same-run baseline and its target.

    `checks` decide whether the target was met, each "KEY OP BOUND" with OP one of <= < >= > ==, BOUND
    a number, a key, or "NUMBER * KEY"; all must hold. No checks: the target is a sentence only."""

    measures: str
    headline: Figure
    baseline: Figure | None
    target: str
    checks: tuple[str, ...] = ()


FIGURES: dict[str, Spec] = {
    "chat_latency": Spec(
        "message delivery, one socket to the other, through daphne, PostgreSQL and Redis",
        Figure("p99_ms", "p99", "ms"),
        Figure("floor_p99_ms", "floor p99 (INSERT + bare round trip)", "ms"),
        "p99 ≤ 1.5 × floor p99",
        ("floor_ratio <= 1.5",),
    ),
    "lpp_latency": Spec(
        "LPP keystroke, key directory to the judge's socket",
        Figure("p99_ms", "p99", "ms"),
        Figure("baseline_p99_ms", "bare channel-layer round trip p99", "ms"),
        "p99 ≤ 50 ms",
        ("p99_ms <= target_p99_ms",),
    ),
    "markets": Spec(
        "Turing Trade trades per second, one game",
        Figure("trades_per_s", "one game", "trades/s"),
        Figure("baseline_tps", "single-row UPDATE", "tx/s"),
        "≥ 0.5 × baseline, 0 ledger violations",
        ("ratio >= 0.5", "violations == 0"),
    ),
    "conversation_markets": Spec(
        "crowd-market trades per second on one round's conversations",
        Figure("trades_per_s", "conversation markets", "trades/s"),
        Figure("tt_8_games_tps", "Turing Trade, 8 games", "trades/s"),
        "0 ledger violations (no ratio set)",
        ("violations == 0",),
    ),
    "lambdastar_celery": Spec(
        "Λ* platform overhead over the bare engine, 1 Celery worker",
        Figure("overhead", "overhead", "× bare − 1"),
        Figure("bare_s", "bare engine", "s"),
        "overhead ≤ 0.10, 2 workers ≥ 1.7× 1 worker",
        ("overhead <= 0.1", "speedup_2_workers >= 1.7"),
    ),
    "lambdastar_speed": Spec(
        "Λ* engine speed, local search (reference-2016/pcg64)",
        Figure("reference-2016/pcg64.ls", "ls", "agent-steps/CPU s"),
        None,
        "≥ 10 M agent-steps/s (the plain-Python baseline is printed, not in the JSON)",
        ("reference-2016/pcg64.ls >= 10000000",),
    ),
    "bots": Spec(
        "local bot engines, AIML (A.L.I.C.E.) replies per second",
        Figure("engines.aiml.replies_per_s", "AIML", "replies/s"),
        Figure("engines.simple.replies_per_s", "Simple engine", "replies/s"),
        "none set",
    ),
    "model_loading": Spec(
        "building an append's loaded message: Django's public Model.from_db against the constructor",
        Figure("message.from_db_ms", "Model.from_db, 10,000 messages", "ms"),
        Figure("message.constructor_ms", "constructor + _state, 10,000 messages", "ms"),
        "from_db ≤ 1.1 × the constructor",
        ("message.from_db_ms <= 1.1 * message.constructor_ms",),
    ),
    "ratings": Spec(
        "Bradley–Terry fit with bootstrap intervals",
        Figure("seconds", "arena.stats", "s"),
        Figure("baseline_seconds", "FastChat-style L-BFGS refits", "s"),
        "≥ 10× faster (wall clock)",
        ("speedup >= target_speedup",),
    ),
    "soak": Spec(
        "mixed traffic for a long time: nothing lost, resources flat",
        Figure("lost", "lost", "items"),
        None,
        "0 lost, 0 ledger violations, every resource flat",
        ("lost == 0", "violations == 0", "flat == 1"),
    ),
    "loebner_qualifying": Spec(
        "Loebner qualifying, every entry asked at once",
        Figure("concurrent_s", "all at once", "s"),
        Figure("serial_s", "one entry after another", "s"),
        "about the slowest entry's time (≤ 1.25 × it), not the sum",
        ("concurrent_s <= 1.25 * slowest_entry_s",),
    ),
    "tables": Spec(
        "Turing the Tables, the platform's own time per turn, p95",
        Figure("platform_ms_p95", "p95", "ms"),
        Figure("call_ms_p50", "the turns' LLM calls p50", "ms"),
        "p95 ≤ 10 ms, 2 workers ≥ 1.7× 1 worker",
        ("platform_ms_p95 <= 10", "speedup_2_workers >= 1.7"),
    ),
    "studies": Spec(
        "online studies, message delivery between paired players",
        Figure("p99_ms", "p99", "ms"),
        Figure("baseline_p99_ms", "bare channel-layer round trip p99", "ms"),
        "p99 ≤ 100 ms, lobby wait p99 ≤ the study's drawn wait + 1 s (2 s), ≥ 100 games per core",
        ("p99_ms <= 100", "lobby_wait_p99_ms <= 2000", "games_per_core >= 100"),
    ),
    "long_polls": Spec(
        "pull mode, 200 long polls at once: how far past their wait they answer, p90",
        Figure("p90_overrun_ms", "p90 overrun", "ms"),
        Figure("baseline_overrun_ms", "one poll alone, overrun p50", "ms"),
        "p90 ≤ 1 s past the wait",
        ("p90_overrun_ms <= 1000",),
    ),
}

CHECK = re.compile(r"^\s*(\S+)\s*(<=|>=|==|<|>)\s*(?:([-+0-9.eE]+)\s*\*\s*)?(\S+)\s*$")
OPERATORS = {
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "==": lambda a, b: a == b,
}


# --- reading a result ---------------------------------------------------------------------------------
def lookup(result: dict, key: str):
    """The value at `key` (dots reach into nested objects; a whole key that contains dots wins); None
    when absent."""
    if key in result:
        return result[key]
    head, dot, rest = key.partition(".")
    while dot:
        if head in result and isinstance(result[head], dict):
            return lookup(result[head], rest)
        more, dot, rest = rest.partition(".")
        head = f"{head}.{more}"
    return None


def number(value) -> float | None:
    """A finite number (a bool counts as 0 or 1), else None."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    return None


def bound(result: dict, factor: str | None, operand: str) -> float | None:
    try:
        value = float(operand)
    except ValueError:
        value = number(lookup(result, operand))
    if value is None:
        return None
    return value * float(factor) if factor else value


def check(result: dict, condition: str) -> bool | None:
    """Whether `condition` holds for `result`; None when a figure it needs is absent or not a number."""
    match = CHECK.match(condition)
    if match is None:
        raise ValueError(f"not a check: {condition!r}")
    key, operator, factor, operand = match.groups()
    left, right = number(lookup(result, key)), bound(result, factor, operand)
    if left is None or right is None:
        return None
    return OPERATORS[operator](left, right)


def met(spec: Spec, result: dict) -> bool | None:
    """True when every check holds, False when one fails, None when there are none or one is undecided."""
    outcomes = [check(result, condition) for condition in spec.checks]
    if not outcomes or False in outcomes:
        return False if False in outcomes else None
    return None if None in outcomes else True


def figure(spec_figure: Figure | None, result: dict) -> dict | None:
    if spec_figure is None:
        return None
    return {
        "key": spec_figure.key,
        "label": spec_figure.label,
        "unit": spec_figure.unit,
        "value": lookup(result, spec_figure.key),
    }


def figures(name: str, result: dict) -> dict:
    """The entry's `figures`: what the benchmark measures, its headline, baseline and target."""
    spec = FIGURES[name]
    return {
        "measures": spec.measures,
        "headline": figure(spec.headline, result),
        "baseline": figure(spec.baseline, result),
        "target": {"text": spec.target, "checks": list(spec.checks), "met": met(spec, result)},
    }


# --- where and how it ran -----------------------------------------------------------------------------
def git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def commit() -> dict:
    """The checkout's commit (short hash) and whether tracked files differ from it (the results aside)."""
    status = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)bench/results")
    return {"hash": git("rev-parse", "--short", "HEAD"), "dirty": None if status is None else bool(status)}


def cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def mode(environ=os.environ) -> str:
    """The platform's mode as a run sees it: services (PostgreSQL and Redis), embedded (neither), or which."""
    postgres = (environ.get("DATABASE_URL") or "").split(":", 1)[0] in ("postgres", "postgresql", "pgsql")
    redis = bool(environ.get("REDIS_URL"))
    if postgres and redis:
        return "services"
    if not postgres and not redis:
        return "embedded"
    return "PostgreSQL without Redis" if postgres else "SQLite with Redis"


def machine() -> dict:
    return {
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpu_model": cpu_model(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "mode": mode(),
    }


def command(name: str, argv: list[str]) -> str:
    return shlex.join(["python", "-m", f"bench.{name}", *argv])


# --- recording ----------------------------------------------------------------------------------------
def entry(name: str, result: dict, argv: list[str]) -> dict:
    return {
        "benchmark": name,
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit(),
        "machine": machine(),
        "command": command(name, argv),
        "argv": list(argv),
        "figures": figures(name, result) if name in FIGURES else None,
        "result": result,
    }


def record(name: str, result: dict, argv: list[str], path: Path | str | None = None) -> Path:
    """Append the run as one JSON line to `path` (default bench/results/<name>.jsonl); returns the file."""
    target = Path(path) if path is not None else RESULTS / f"{name}.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry(name, result, argv), ensure_ascii=False) + "\n")
    return target


def add_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """--record and --record-to FILE, the same on every benchmark."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--record",
        action="store_true",
        help="also append the result, the date, the commit, the machine and this command line as one JSON "
        "line to bench/results/<benchmark>.jsonl",
    )
    group.add_argument("--record-to", type=Path, metavar="FILE", help="as --record, appending to FILE instead")
    return parser


def record_if_asked(name: str, result: dict, args: argparse.Namespace, argv: list[str] | None = None) -> Path | None:
    """After the run: record it when --record or --record-to was given (argv: the command line's
    arguments, sys.argv's by default)."""
    if not (getattr(args, "record", False) or getattr(args, "record_to", None)):
        return None
    written = record(name, result, sys.argv[1:] if argv is None else list(argv), args.record_to)
    print(f"{name}: recorded in {written}", file=sys.stderr)
    return written


# --- reading the records ------------------------------------------------------------------------------
def latest(name: str, directory: Path = RESULTS) -> dict | None:
    """The last entry of bench/results/<name>.jsonl; None when there is none. Raises ValueError when the
    last line is not JSON."""
    path = Path(directory) / f"{name}.jsonl"
    try:
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except FileNotFoundError:
        return None
    return json.loads(lines[-1]) if lines else None
