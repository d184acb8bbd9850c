"""Verdicts, ranks and the two tests of the rules, per trial and over a session.

"The Computer will be deemed to have passed the 'Turing Test Human Determination Test' if the Computer has
fooled two or more of the three Human Judges into thinking that it is a human."

"each of the three Turing Test Judges will rank the four Candidates with a rank from 1 (least human) to 4
(most human). The computer will be deemed to have passed the 'Turing Test Rank Order Test' if the median
rank of the Computer is equal to or greater than the median rank of two or more of the three Turing Test
Human Foils."  Ties count for the computer (≥).

"The Computer will be deemed to have passed the Turing Test if it passes both".

The rules leave the aggregation over a session's (at least three) trials to the committee: "majority"
(the default: more than half of the trials passed), "all" or "any".

For other numbers than 3 judges and 3 foils (rehearsals) "two or more of three" reads as at least two
thirds, rounded up.
"""

import math
import statistics
from dataclasses import asdict, dataclass

COMPUTER = "computer"
VERDICTS = ("human", "machine")
AGGREGATIONS = ("majority", "all", "any")
MAX_JUDGES = MAX_CANDIDATES = 50
MAX_TRIALS = 1000


class RulesError(ValueError):
    """Input the rules cannot score; the message names the trial and the judge."""


@dataclass(frozen=True)
class TrialScore:
    human_determination: bool
    rank_order: bool
    passed: bool
    fooled: int
    computer_median_rank: float
    foil_median_ranks: dict

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class SessionScore:
    trials: list
    passed: bool
    aggregation: str

    def as_dict(self) -> dict:
        """The `wager score` output: {"trials": [...], "passed": bool}."""
        return {"trials": [t.as_dict() for t in self.trials], "passed": self.passed}


def two_thirds(n: int) -> int:
    """ "two or more of the three": at least ceil(2n/3)."""
    return math.ceil(2 * n / 3)


def _median(values):
    m = statistics.median(values)
    return int(m) if float(m).is_integer() else float(m)


def trial_check(verdicts, ranks, *, trial: int = 1, candidates=None) -> list[str]:
    """Validate one trial's verdicts and ranks; returns the candidates (computer first). Raises RulesError
    naming the trial (1-based) and the judge: every judge gives a verdict on every candidate and ranks them
    all with distinct ranks 1..C; the same judges in both; the same candidates for every judge."""
    where = f"trial {trial}"
    _judges_check(verdicts, ranks, where)
    expected = list(candidates) if candidates else None
    for judge, given in verdicts.items():
        at = f"{where}, judge {judge}"
        if not isinstance(given, dict) or not isinstance(ranks[judge], dict):
            raise RulesError(f"{at}: verdicts and ranks must be objects of candidate → value.")
        if expected is None:
            expected = _candidates_of(given, at)
        _judge_check(given, ranks[judge], expected, at)
    return expected


def _judges_check(verdicts, ranks, where: str) -> None:
    """Verdicts and ranks are objects keyed by the same judges, at least one and at most MAX_JUDGES."""
    if not isinstance(verdicts, dict) or not verdicts:
        raise RulesError(f"{where}: verdicts must be an object with one entry per judge.")
    if not isinstance(ranks, dict) or not ranks:
        raise RulesError(f"{where}: ranks must be an object with one entry per judge.")
    if len(verdicts) > MAX_JUDGES:
        raise RulesError(f"{where}: at most {MAX_JUDGES} judges.")
    for judge in ranks:
        if judge not in verdicts:
            raise RulesError(f"{where}, judge {judge}: ranks but no verdicts.")
    for judge in verdicts:
        if judge not in ranks:
            raise RulesError(f"{where}, judge {judge}: verdicts but no ranks.")


def _candidates_of(given: dict, at: str) -> list[str]:
    """The candidates one judge's verdicts name, computer first: the computer and 1 to MAX_CANDIDATES - 1 foils."""
    if COMPUTER not in given:
        raise RulesError(f"{at}: no verdict on the computer.")
    if not 2 <= len(given) <= MAX_CANDIDATES:
        raise RulesError(f"{at}: from 2 to {MAX_CANDIDATES} candidates (the computer and the foils).")
    return [COMPUTER] + sorted(c for c in given if c != COMPUTER)


def _judge_check(given: dict, ranked: dict, expected: list[str], at: str) -> None:
    """One judge's verdicts and ranks: one of each per expected candidate, valid verdicts, distinct ranks 1..C."""
    for name, table in (("verdict", given), ("rank", ranked)):
        missing = [c for c in expected if c not in table]
        extra = [c for c in table if c not in expected]
        if missing:
            raise RulesError(f"{at}: no {name} for {', '.join(map(str, missing))}.")
        if extra:
            raise RulesError(f"{at}: a {name} for unknown candidate(s) {', '.join(map(str, extra))}.")
    for candidate, verdict in given.items():
        if verdict not in VERDICTS:
            raise RulesError(f'{at}: the verdict on {candidate} must be "human" or "machine", not {verdict!r}.')
    values = []
    for candidate, rank in ranked.items():
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= len(expected):
            raise RulesError(
                f"{at}: the rank of {candidate} must be a whole number from 1 to {len(expected)}, not {rank!r}."
            )
        values.append(rank)
    if len(set(values)) != len(values):
        raise RulesError(f"{at}: each rank from 1 to {len(expected)} must be given once (ranks {sorted(values)}).")


def trial_score(verdicts, ranks, *, trial: int = 1, candidates=None) -> TrialScore:
    names = trial_check(verdicts, ranks, trial=trial, candidates=candidates)
    foils = [c for c in names if c != COMPUTER]
    judges = list(verdicts)
    fooled = sum(verdicts[j][COMPUTER] == "human" for j in judges)
    computer_median = _median([ranks[j][COMPUTER] for j in judges])
    foil_medians = {f: _median([ranks[j][f] for j in judges]) for f in foils}
    beaten = sum(computer_median >= m for m in foil_medians.values())
    hd = fooled >= two_thirds(len(judges))
    ro = beaten >= two_thirds(len(foils))
    return TrialScore(
        human_determination=hd,
        rank_order=ro,
        passed=hd and ro,
        fooled=fooled,
        computer_median_rank=computer_median,
        foil_median_ranks=foil_medians,
    )


def session_passed(passes: list[bool], aggregation: str = "majority") -> bool:
    if aggregation not in AGGREGATIONS:
        raise RulesError(f"aggregation must be one of {', '.join(AGGREGATIONS)}, not {aggregation!r}.")
    if not passes:
        return False
    if aggregation == "all":
        return all(passes)
    if aggregation == "any":
        return any(passes)
    return sum(passes) * 2 > len(passes)


def score_document(document) -> SessionScore:
    """The `wager score` input: {"trials": [{"verdicts": {...}, "ranks": {...}}, ...], "aggregation": ...}."""
    if not isinstance(document, dict):
        raise RulesError('The input must be a JSON object with "trials" (and optionally "aggregation").')
    unknown = set(document) - {"trials", "aggregation"}
    if unknown:
        raise RulesError(f"Unknown key(s): {', '.join(sorted(map(str, unknown)))}.")
    aggregation = document.get("aggregation", "majority")
    if aggregation not in AGGREGATIONS:
        raise RulesError(f"aggregation must be one of {', '.join(AGGREGATIONS)}, not {aggregation!r}.")
    trials = document.get("trials")
    if not isinstance(trials, list) or not trials:
        raise RulesError('"trials" must be a non-empty list.')
    if len(trials) > MAX_TRIALS:
        raise RulesError(f"At most {MAX_TRIALS} trials.")
    scores, candidates = [], None
    for number, trial in enumerate(trials, start=1):
        if not isinstance(trial, dict) or set(trial) - {"verdicts", "ranks"}:
            raise RulesError(f'trial {number}: must be an object with "verdicts" and "ranks" only.')
        score = trial_score(trial.get("verdicts"), trial.get("ranks"), trial=number, candidates=candidates)
        candidates = [COMPUTER, *score.foil_median_ranks]
        scores.append(score)
    return SessionScore(
        trials=scores, passed=session_passed([s.passed for s in scores], aggregation), aggregation=aggregation
    )
