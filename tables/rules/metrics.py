"""The four metrics the original promised and never computed, each a share in [0, 1] with its n.

For an agent's voting turns (turns whose first reply was judged):

- obedience: the share of its turns whose first reply passed every rule and judge (no correction needed);
- relevancy: the share of its judged replies (first replies and corrections) that neither repeated its
  own earlier messages nor copied another agent's (the "boredom trap");
- coherence: the share of its accepted votes whose reason is grounded in the conversation: it names the
  agent voted against, or shares a word of five letters or more with what that agent said before;
- consistency: the share of its accepted votes, after its first, that are against the same agent as its
  previous accepted vote (a stance kept rather than a coin tossed each turn).

The game's figures pool every agent's turns. A metric with n = 0 is None."""

import re
from dataclasses import dataclass, field

from tables.rules.names import fold

_WORD = re.compile(r"[^\W\d_]{5,}", re.UNICODE)


@dataclass
class TurnRecord:
    agent: str
    first_ok: bool  # the first reply passed every rule
    replies: int  # judged replies this turn (1, or 2 with a correction)
    copied: int  # of which flagged as repetition or plagiarism
    target: str | None = None  # the accepted vote's target
    grounded: bool = False  # its reason is grounded (see :func:`grounded`)


@dataclass
class Share:
    hits: int = 0
    n: int = 0

    @property
    def value(self) -> float | None:
        return round(self.hits / self.n, 4) if self.n else None

    def as_dict(self) -> dict:
        return {"value": self.value, "n": self.n}


@dataclass
class Metrics:
    coherence: Share = field(default_factory=Share)
    consistency: Share = field(default_factory=Share)
    relevancy: Share = field(default_factory=Share)
    obedience: Share = field(default_factory=Share)

    def as_dict(self) -> dict:
        return {k: getattr(self, k).as_dict() for k in ("coherence", "consistency", "relevancy", "obedience")}


def grounded(*, reason: str, target: str, target_texts: list[str]) -> bool:
    folded = f" {fold(reason)} "
    if f" {fold(target)} " in folded:
        return True
    said = {w.lower() for text in target_texts for w in _WORD.findall(str(text))}
    return any(w.lower() in said for w in _WORD.findall(reason))


def metrics_compute(records: list[TurnRecord]) -> tuple[dict[str, Metrics], Metrics]:
    """Per agent and pooled, from the voting turns in order."""
    per: dict[str, Metrics] = {}
    pooled = Metrics()
    last: dict[str, str] = {}
    for r in records:
        for m in (per.setdefault(r.agent, Metrics()), pooled):
            m.obedience.n += 1
            m.obedience.hits += int(r.first_ok)
            m.relevancy.n += r.replies
            m.relevancy.hits += r.replies - r.copied
            if r.target:
                m.coherence.n += 1
                m.coherence.hits += int(r.grounded)
                if r.agent in last:
                    m.consistency.n += 1
                    m.consistency.hits += int(last[r.agent] == r.target)
        if r.target:
            last[r.agent] = r.target
    return per, pooled
