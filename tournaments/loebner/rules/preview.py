"""What a format becomes for a contest's people, before its schedule is built (pure, no Django): how many
rounds, how many meetings in each, and who sits each round out; and the formats that keep everyone busy.

A 2-finalist ``generic`` contest is 4 rounds of one meeting each, half its people idle in every round;
``compact`` is 2 rounds with everyone in each. ``format_preview`` says so for one format,
``formats_preview`` for all of them, the busiest first.

Idle means seated and not in a meeting of that round: judges ``J…`` and confederates ``C…`` beyond those
the format needs sit out every round, as do entries ``E…`` beyond its entries.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .formats import FORMATS, SIZED, Format, format_get
from .schedule import labels, schedule_build


@dataclass(frozen=True)
class RoundPreview:
    number: int  # 1-based
    meetings: int
    idle_judges: tuple[str, ...]
    idle_confederates: tuple[str, ...]
    idle_entries: tuple[str, ...]

    @property
    def idle(self) -> tuple[str, ...]:
        """Everyone who sits this round out: judges, confederates, then entries."""
        return self.idle_judges + self.idle_confederates + self.idle_entries


@dataclass(frozen=True)
class Preview:
    format: str
    finalists: int
    judges: int  # seated
    confederates: int  # seated
    rounds: tuple[RoundPreview, ...]  # empty when the format cannot take this many finalists
    problems: tuple[str, ...]  # why the schedule cannot be built with these people; empty when it can
    slot_minutes: float = 0.0  # one round: talk, review, break
    entry_confederate_once: bool = True  # False: an entry meets some confederates twice (compact)

    @property
    def buildable(self) -> bool:
        return not self.problems

    @property
    def idle_rounds(self) -> tuple[RoundPreview, ...]:
        return tuple(r for r in self.rounds if r.idle)

    @property
    def busy(self) -> bool:
        """Buildable, and nobody (judge, confederate or entry) sits out any round."""
        return self.buildable and bool(self.rounds) and not self.idle_rounds

    @property
    def minutes(self) -> float:
        return len(self.rounds) * self.slot_minutes

    @property
    def summary(self) -> str:
        """One line: "2 rounds of 2 meetings; nobody sits out", or what is wrong."""
        if not self.rounds:
            return self.problems[0] if self.problems else "no rounds"
        sizes = sorted({r.meetings for r in self.rounds})
        per = f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
        text = f"{_n(len(self.rounds), 'round')} of {per} meeting{'s' if sizes[-1] != 1 else ''}"
        idle = self.idle_rounds
        text += f"; someone sits out {_n(len(idle), 'round')} of {len(self.rounds)}" if idle else "; nobody sits out"
        return text if self.buildable else f"{text} ({'; '.join(self.problems)})"


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def _count(value: object, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} must be a whole number of at least 0, not {value!r}")
    return value


def format_preview(
    name: str, *, finalists: int, judges: int | None, confederates: int | None, lengths: dict | None = None
) -> Preview:
    """What format ``name`` becomes with ``finalists`` entries and the judges and confederates seated:
    its rounds (meetings, and who sits out each), and the problems that stop the schedule being built
    (the format takes another number of entries, or needs more judges or confederates than are seated).
    ``judges`` or ``confederates`` None: as many as the format needs (none seated yet). ``lengths``
    overrides the format's round, review and break minutes (a contest's own). ValueError for an unknown
    format or a count that is not a whole number."""
    finalists = _count(finalists, "finalists")
    judges = _count(judges, "judges")
    confederates = _count(confederates, "confederates")
    if name not in FORMATS:
        format_get(name)  # raises, naming the formats
    try:
        fmt = format_get(name, entries=finalists if name in SIZED else None)
    except ValueError as exc:
        return Preview(name, finalists, judges, confederates, (), (str(exc),))
    if name not in SIZED and finalists != fmt.entries:
        problem = f"format {name} has {fmt.entries} entries, not {finalists}"
        return Preview(name, finalists, judges, confederates, (), (problem,))
    judges = fmt.judges if judges is None else judges
    confederates = fmt.confederates if confederates is None else confederates
    if lengths:
        fmt = dataclasses.replace(fmt, **{k: v for k, v in lengths.items() if v is not None})
    problems = [
        f"it needs {need} {what} ({seated or 'none'} seated)"
        for need, seated, what in ((fmt.judges, judges, "judges"), (fmt.confederates, confederates, "confederates"))
        if seated < need
    ]
    return Preview(
        name,
        finalists,
        judges,
        confederates,
        _rounds(fmt, finalists, judges, confederates),
        tuple(problems),
        fmt.slot_minutes,
        fmt.entry_confederate_once,
    )


def _rounds(fmt: Format, finalists: int, judges: int, confederates: int) -> tuple[RoundPreview, ...]:
    meetings = schedule_build(fmt, seed=0)  # the sides do not matter here
    seated = {
        "J": labels("J", max(judges, fmt.judges)),
        "C": labels("C", max(confederates, fmt.confederates)),
        "E": labels("E", max(finalists, fmt.entries)),
    }
    rounds = []
    for number in range(1, fmt.rounds + 1):
        mine = [m for m in meetings if m.round == number]
        busy = {label for m in mine for label in (m.judge, m.confederate, m.entry)}
        idle = {prefix: tuple(x for x in people if x not in busy) for prefix, people in seated.items()}
        rounds.append(RoundPreview(number, len(mine), idle["J"], idle["C"], idle["E"]))
    return tuple(rounds)


def formats_preview(
    *, finalists: int, judges: int | None, confederates: int | None, lengths: dict | None = None
) -> list[Preview]:
    """Every format's preview, best first: those that keep everyone busy, then the others that can be
    built, then those that cannot; fewer rounds first, then in the order of ``FORMATS``."""
    previews = [
        format_preview(name, finalists=finalists, judges=judges, confederates=confederates, lengths=lengths)
        for name in FORMATS
    ]
    return sorted(
        previews,
        key=lambda p: (not p.busy, not p.buildable, not p.rounds, len(p.rounds), FORMATS.index(p.format)),
    )


def format_busy(*, finalists: int, judges: int | None, confederates: int | None) -> str | None:
    """The name of a format that keeps everyone busy with these people (the fewest rounds), or None."""
    best = formats_preview(finalists=finalists, judges=judges, confederates=confederates)[0]
    return best.format if best.busy else None
