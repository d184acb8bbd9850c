"""The Loebner Prize final formats (pure, no Django). Sources: the Loebner Prize rules of 2009 and
the published formats of later contests (docs/reference/formats.md).

| name          | N x N x N | rounds | mode         | minutes (round/review/break) | ranking     |
|---------------|-----------|--------|--------------|------------------------------|-------------|
| 2009-rules    | 4 4 4     | 7      | sequential   | 5 per witness / 10 / 5       | 2009        |
| 2009-as-run   | 3 4 4     | 4      | sequential   | 5 per witness / 5 / 5        | all-entities|
| 2012          | 4 4 4     | 4      | simultaneous | 25 / 5 / 5                   | None        |
| aisb          | 4 4 4     | 4      | simultaneous | 25 / 5 / 5                   | mean-rank   |
| generic       | N N N     | N..N+2 | simultaneous | 25 / 5 / 5                   | 2009        |
| compact       | N N N     | N      | simultaneous | 25 / 5 / 5                   | 2009        |

``generic`` meets every pairing exactly once (its Latin square); where no orthogonal array exists (N = 2,
6, 10, …) its rounds are packed greedily and people sit out. ``compact`` keeps everyone busy instead: N
rounds of N meetings for every N, each judge meeting each entry and each confederate once; where
``generic`` would leave people idle, each entry meets half the confederates twice
(``entry_confederate_once`` False). ``rules.preview`` shows what each format becomes for a contest.

Rankings (``Format.ranking``), the ``ranks`` a judge gives and how the winner is found:
* ``"2009"``: each judge ranks the entities it called non-human (entries or confederates), 4 (k) most
  human ... 1 least; winner = most times judged human (column total), tie-break = the higher mean rank
  among the judges who called it non-human.
* ``"mean-rank"`` (2014-2016): each judge ranks the entries it met, 1 = most human; winner = lowest
  mean rank, tie-break = column total.
* ``"points"`` (2017-2018): each judge gives the entries it met k ... 1 points, k = most human; winner =
  most points, tie-break = column total.
* ``"all-entities"`` (2009 as run: Levy 4.5, Carpenter 5, Embar 5.5): each judge ranks every entity it
  met, machines and humans, 1 = most human; winner = lowest mean rank, tie-break = column total.
* ``None``: no ranks; winner = column total, a tie goes to the organiser.
The review and break minutes of 2009-as-run, 2012 and aisb are not in the stored sources (the 2009 run's
20-minute rounds were 10 minutes of talk, 5 of judging, 5 of reseating); they are settings to adjust.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .squares import MAX_N, orthogonal_array, plan_build

FORMATS: tuple[str, ...] = ("2009-rules", "2009-as-run", "2012", "aisb", "generic", "compact")
SIZED: tuple[str, ...] = ("generic", "compact")  # formats sized by their number of entries (N x N x N)
RANKINGS: tuple[str | None, ...] = ("2009", "mean-rank", "points", "all-entities", None)
MODES = ("sequential", "simultaneous")


@dataclass(frozen=True)
class Format:
    name: str  # "2009-rules" | "2009-as-run" | "2012" | "aisb" | "generic" | "compact"
    entries: int
    judges: int
    confederates: int
    rounds: int
    mode: str  # "sequential" (left 5 min then right 5 min, 2009) | "simultaneous" (2012 on)
    round_minutes: float  # per witness when sequential; for the whole round when simultaneous
    review_minutes: float
    break_minutes: float
    ranking: str | None  # see the module's docstring
    silver_at_risk: bool = True  # 2009: 5-minute tests, so the silver medal was not at risk
    entry_confederate_once: bool = True  # False: an entry may meet a confederate twice (compact, N = 2 mod 4)

    @property
    def talk_minutes(self) -> float:
        """Minutes of conversation in one round (both witnesses)."""
        return self.round_minutes * (2 if self.mode == "sequential" else 1)

    @property
    def slot_minutes(self) -> float:
        """Minutes from one round's start to the next's: talk, review, break."""
        return self.talk_minutes + self.review_minutes + self.break_minutes


_FIXED = {
    "2009-rules": Format("2009-rules", 4, 4, 4, 7, "sequential", 5, 10, 5, "2009", silver_at_risk=False),
    "2009-as-run": Format("2009-as-run", 3, 4, 4, 4, "sequential", 5, 5, 5, "all-entities", silver_at_risk=False),
    "2012": Format("2012", 4, 4, 4, 4, "simultaneous", 25, 5, 5, None),
    "aisb": Format("aisb", 4, 4, 4, 4, "simultaneous", 25, 5, 5, "mean-rank"),
}

_KEEP = object()


def _generic(entries: int) -> Format:
    rounds = max(r for r, *_ in plan_build(entries)) + 1
    return Format("generic", entries, entries, entries, rounds, "simultaneous", 25, 5, 5, "2009")


def _compact(entries: int) -> Format:
    once = orthogonal_array(entries) is not None
    return Format(
        "compact", entries, entries, entries, entries, "simultaneous", 25, 5, 5, "2009", entry_confederate_once=once
    )


def format_get(name: str, *, entries: int | None = None, ranking: object = _KEEP) -> Format:
    """The named format; ``entries`` is required for (and only changes) ``generic`` and ``compact``; ``ranking``
    overrides the format's default (e.g. ``format_get("aisb", ranking="points")`` for 2017-2018).
    ValueError naming what is wrong."""
    if name not in FORMATS:
        raise ValueError(f"unknown format {name!r}: choose one of {', '.join(FORMATS)}")
    if name in SIZED:
        if entries is None:
            raise ValueError(f"format {name} needs the number of entries (--entries N)")
        if isinstance(entries, bool) or not isinstance(entries, int) or not 2 <= entries <= MAX_N:
            raise ValueError(f"entries must be a whole number from 2 to {MAX_N}, not {entries!r}")
        fmt = _generic(entries) if name == "generic" else _compact(entries)
    else:
        fmt = _FIXED[name]
        if entries is not None and entries != fmt.entries:
            raise ValueError(f"format {name} has {fmt.entries} entries, not {entries!r}")
    if ranking is not _KEEP:
        if ranking not in RANKINGS:
            raise ValueError(f"unknown ranking {ranking!r}: choose one of " + ", ".join(str(r) for r in RANKINGS))
        fmt = replace(fmt, ranking=ranking)
    return fmt
