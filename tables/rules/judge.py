"""The LLM judge's answer: ``{"evaluation": "pass"|"fail", "voteAgainst": name, "reason": text}``.
Anything else is garbage, recorded as such (``passed`` None): it decides nothing, and the turn goes on
on the functional judge's verdict. The judge's ``voteAgainst`` is recorded, never counted: the vote
counted is the agent's own."""

from dataclasses import dataclass

from tables.rules.names import fold
from tables.rules.votes import _load, _pick

PASS = {"pass", "passed", "ok", "valid"}
FAIL = {"fail", "failed", "invalid", "reject", "rejected"}


@dataclass(frozen=True)
class JudgeAnswer:
    passed: bool | None  # None: garbage
    vote_against: str = ""
    reason: str = ""


def judge_parse(text: str) -> JudgeAnswer:
    obj = _load(text or "")
    if not isinstance(obj, dict):
        return JudgeAnswer(None, reason="the judge's answer is not a JSON object")
    _, evaluation = _pick(obj, ("evaluation", "verdict"))
    _, target = _pick(obj, ("voteagainst",))
    _, reason = _pick(obj, ("reason",))
    word = fold(evaluation) if isinstance(evaluation, str) else ""
    passed = True if word in PASS else False if word in FAIL else None
    reason = reason if isinstance(reason, str) else ""
    if passed is None:
        return JudgeAnswer(
            None, str(target or "")[:100], f"the judge's evaluation is {str(evaluation)[:40]!r}, not pass or fail"
        )
    return JudgeAnswer(passed, target[:100] if isinstance(target, str) else "", reason[:500])
