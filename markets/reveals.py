"""When a conversation market's truth may be revealed, and what its judge said: one interface for
every format.

The arena's own verdict (three-party: which side is human; one-to-one: human or machine, with a
confidence 0-100 = the judge's probability that the pick is right) reveals at once. A format that
collects its verdicts elsewhere (a wager trial: `arena.services.verdicts.verdict_elsewhere`)
registers a source that answers for its interrogations; until it does, the market stays closed and
unsettled (never revealed before the judge has decided). Nor is it revealed while the interrogation's
format keeps the truth from its judges (`arena.services.verdicts.reveal_allowed`: a contest's meetings
until its results are published, a wager session's interviews until its results are): a settled market's
page is public, and its judges could read it there. The markets sweep settles it once the truth is out.
"""

from dataclasses import dataclass

from arena.models import Verdict
from arena.services.verdicts import reveal_allowed


@dataclass(frozen=True)
class JudgeCall:
    """The judge's decision about a market's event ("the witness on `side` is human")."""

    pick: str  # what the judge chose, in the format's words ("left", "right", "human", "machine")
    p_event: float  # the judge's probability of the event, 0..1 (a pick without confidence: 0 or 1)
    confidence: int | None  # 0-100 where the format asks for one
    source: str  # "arena", "wager", ...


_SOURCES: list = []


def reveal_source_register(source) -> None:
    """`source(interrogation_id, side) -> JudgeCall | None`; None: not this format's, or not decided yet."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def _from_verdict(verdict: Verdict, side: str) -> JudgeCall:
    confident = verdict.confidence / 100
    says_event = verdict.choice == ("left" if side == "left" else "human")
    return JudgeCall(
        pick=verdict.choice,
        p_event=confident if says_event else 1 - confident,
        confidence=verdict.confidence,
        source="arena",
    )


def judge_call(*, interrogation_id: int, side: str) -> JudgeCall | None:
    """The judge's decision on the market's event, or None while it is not known, or not to be told yet
    (not revealed)."""
    if not reveal_allowed(interrogation_id):
        return None
    verdict = Verdict.objects.filter(interrogation_id=interrogation_id).first()
    if verdict is not None:
        return _from_verdict(verdict, side)
    for source in _SOURCES:
        call = source(interrogation_id, side)
        if call is not None:
            return call
    return None
