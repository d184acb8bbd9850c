"""The slot plan of a trial: every judge interviews every candidate once, nobody is in two interviews at once.

With J judges and C candidates the plan has n = max(J, C) slots (an edge colouring of the complete bipartite
graph judges × candidates, which needs max(J, C) colours): in slot s (0-based) judge j meets candidate
(j + s) mod n when that is a candidate (with more judges than candidates, some judges rest in some slots).
By the rules (3 judges, 4 candidates, 2 hours) that is four slots of two hours: 8 hours per judge and
24 hours of interviews per trial.
"""

from dataclasses import dataclass

MAX_PEOPLE = 50
MAX_HOURS = 24.0


class PlanError(ValueError):
    """Numbers the plan cannot be made from."""


@dataclass(frozen=True)
class Slot:
    slot: int  # 1-based
    judge: str  # "J1", ...
    candidate: str  # "computer", "F1", ...
    start_h: float
    end_h: float

    def as_dict(self) -> dict:
        return {
            "slot": self.slot,
            "judge": self.judge,
            "candidate": self.candidate,
            "start_h": self.start_h,
            "end_h": self.end_h,
        }


def candidate_labels(candidates: int) -> list[str]:
    """The computer, then the human foils F1, F2, ..."""
    return ["computer"] + [f"F{i}" for i in range(1, candidates)]


def judge_labels(judges: int) -> list[str]:
    return [f"J{i}" for i in range(1, judges + 1)]


def _number(value, what: str, *, low, high, kind=int):
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (kind is int and not float(value).is_integer())
    ):
        raise PlanError(f"{what} must be a {'whole ' if kind is int else ''}number.")
    if not low <= value <= high:
        raise PlanError(f"{what} must be from {low} to {high}.")
    return kind(value)


def slot_plan(*, judges: int, candidates: int, hours: float, break_h: float = 0.0) -> list[Slot]:
    """The plan, ordered by slot then judge. `hours`: one interview's length; `break_h`: the rest between slots."""
    judges = _number(judges, "judges", low=1, high=MAX_PEOPLE)
    candidates = _number(candidates, "candidates", low=2, high=MAX_PEOPLE)
    hours = _number(hours, "hours", low=1 / 60, high=MAX_HOURS, kind=float)
    break_h = _number(break_h, "break", low=0, high=MAX_HOURS, kind=float)
    n = max(judges, candidates)
    names, people = candidate_labels(candidates), judge_labels(judges)
    plan = []
    for s in range(n):
        start = round(s * (hours + break_h), 6)
        for j in range(judges):
            c = (j + s) % n
            if c < candidates:
                plan.append(Slot(s + 1, people[j], names[c], start, round(start + hours, 6)))
    return plan


def plan_check(plan: list[Slot], *, judges: int, candidates: int) -> list[str]:
    """What is wrong with a (possibly hand-moved) plan; empty when every judge meets every candidate exactly
    once and no judge or candidate is in two interviews whose times overlap."""
    problems = []
    pairs = [(s.judge, s.candidate) for s in plan]
    for judge in judge_labels(judges):
        for candidate in candidate_labels(candidates):
            count = pairs.count((judge, candidate))
            if count != 1:
                problems.append(f"{judge} meets {candidate} {count} times (must be once)")
    for key in ("judge", "candidate"):
        by_person: dict[str, list[Slot]] = {}
        for s in plan:
            by_person.setdefault(getattr(s, key), []).append(s)
        for person, slots in by_person.items():
            slots.sort(key=lambda s: s.start_h)
            for a, b in zip(slots, slots[1:]):
                if b.start_h < a.end_h:
                    problems.append(f"{person} is in two interviews at once (slots {a.slot} and {b.slot})")
    for s in plan:
        if s.end_h <= s.start_h:
            problems.append(f"slot {s.slot} {s.judge}–{s.candidate} ends before it starts")
    return problems
