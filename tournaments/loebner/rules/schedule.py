"""Round schedules: who meets whom in which round, left or right (pure, no Django).

Labels: judges "J1".., entries "E1".., confederates "C1"..; rounds are 1-based. The 2009 formats are
the published tables (the rules' 7-round table, and the 4-round table actually run with 3 entries);
the others are built by ``squares.plan_build``. Left/right is drawn from the seed.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from .formats import Format
from .squares import plan_build, plan_compact

SIDES = ("entry", "confederate")

# The 2009 rules ("The following table shows each round"), in the rules' own order.
TABLE_2009_RULES = (
    "J1E1C1 J2E3C2",
    "J4E1C2 J3E3C1 J2E4C3",
    "J3E1C3 J4E3C4 J1E2C2",
    "J2E1C4 J3E4C2",
    "J2E2C1 J1E3C3",
    "J1E4C4 J4E2C3",
    "J4E4C1 J3E2C4",
)
# The 2009 contest as run with 3 entries (docs/reference/formats.md, from Robitron #12811).
TABLE_2009_AS_RUN = (
    "J1E1C1 J2E3C2 J3E2C4",
    "J1E3C3 J2E2C1 J4E1C2",
    "J1E2C2 J3E1C3 J4E3C4",
    "J2E1C4 J3E3C1 J4E2C3",
)
_TABLES = {"2009-rules": TABLE_2009_RULES, "2009-as-run": TABLE_2009_AS_RUN}
_CELL = re.compile(r"J(\d+)E(\d+)C(\d+)")


@dataclass(frozen=True)
class Meeting:
    round: int  # 1-based
    judge: str  # "J1", "J2", …
    entry: str  # "E1", …
    confederate: str  # "C1", …
    left: str  # "entry" | "confederate"

    @property
    def pair(self) -> tuple[int, str, str, str]:
        return (self.round, self.judge, self.entry, self.confederate)


def _table_plan(table: tuple[str, ...]) -> list[tuple[int, str, str, str]]:
    return [(r, f"J{j}", f"E{e}", f"C{c}") for r, line in enumerate(table, start=1) for j, e, c in _CELL.findall(line)]


def _plan(fmt: Format) -> list[tuple[int, str, str, str]]:
    if fmt.name in _TABLES:
        return _table_plan(_TABLES[fmt.name])
    plan = plan_compact(fmt.entries) if fmt.name == "compact" else plan_build(fmt.entries)
    return [(r + 1, f"J{j + 1}", f"E{e + 1}", f"C{c + 1}") for r, j, e, c in plan]


def schedule_build(fmt: Format, *, seed: int | None = None) -> list[Meeting]:
    """Every meeting of the format, by round (within a round in the table's order, else by judge);
    ``left`` drawn from ``seed`` (the same seed gives the same sides; None draws fresh ones)."""
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    return [Meeting(r, j, e, c, SIDES[rng.random() < 0.5]) for r, j, e, c in _plan(fmt)]


def labels(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{k}" for k in range(1, n + 1)]


def latin_square(meetings: list[Meeting]) -> dict[str, dict[str, str]]:
    """judge -> entry -> confederate, as the rules' matrix (judges rows, entries columns)."""
    square: dict[str, dict[str, str]] = defaultdict(dict)
    for m in meetings:
        square[m.judge][m.entry] = m.confederate
    return dict(square)


def excused(fmt: Format, meetings: list[Meeting]) -> dict[int, list[str]]:
    """round -> the judges, then the confederates, who sit out that round (entries are programs and
    are not listed, as in the rules' table)."""
    everyone = labels("J", fmt.judges) + labels("C", fmt.confederates)
    busy: dict[int, set[str]] = {r: set() for r in range(1, fmt.rounds + 1)}
    for m in meetings:
        busy.setdefault(m.round, set()).update((m.judge, m.confederate))
    return {r: [p for p in everyone if p not in present] for r, present in sorted(busy.items())}


def schedule_problems(fmt: Format, meetings: list[Meeting]) -> list[str]:
    """What is wrong with a schedule for this format; empty when it is valid: labels and rounds in
    range, sides valid, nobody (judge, entry, confederate) twice in a round, each judge meets each entry
    once, each entry each confederate once (at most twice where the format allows it:
    ``entry_confederate_once`` False), each judge each confederate at most once (exactly once when there
    are as many entries as confederates)."""
    problems: list[str] = []
    judges = set(labels("J", fmt.judges))
    entries = set(labels("E", fmt.entries))
    confs = set(labels("C", fmt.confederates))
    for k, m in enumerate(meetings):
        for value, allowed, what in (
            (m.judge, judges, "judge"),
            (m.entry, entries, "entry"),
            (m.confederate, confs, "confederate"),
        ):
            if value not in allowed:
                problems.append(f"meeting {k}: unknown {what} {value!r}")
        if not (isinstance(m.round, int) and 1 <= m.round <= fmt.rounds):
            problems.append(f"meeting {k}: round {m.round!r} outside 1..{fmt.rounds}")
        if m.left not in SIDES:
            problems.append(f"meeting {k}: left must be 'entry' or 'confederate', not {m.left!r}")
    seats = Counter((m.round, who) for m in meetings for who in (m.judge, m.entry, m.confederate))
    problems += [f"round {r}: {who} is in {n} places at once" for (r, who), n in sorted(seats.items()) if n > 1]

    def pairs(a: str, b: str, want: int | None, pool_a: set, pool_b: set, most: int = 1) -> None:
        seen = Counter((getattr(m, a), getattr(m, b)) for m in meetings)
        for x in sorted(pool_a):
            for y in sorted(pool_b):
                n = seen.get((x, y), 0)
                if (want is not None and n != want) or n > most:
                    problems.append(f"{x} meets {y} {n} times, not {want if want is not None else f'at most {most}'}")

    pairs("judge", "entry", 1, judges, entries)
    if fmt.entry_confederate_once:
        pairs("entry", "confederate", 1 if fmt.judges == fmt.confederates else None, entries, confs)
    else:
        pairs("entry", "confederate", None, entries, confs, most=2)
    pairs("judge", "confederate", 1 if fmt.entries == fmt.confederates else None, judges, confs)
    return problems
