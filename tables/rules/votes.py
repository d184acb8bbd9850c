"""Reading a vote and the functional judge's rules.

A vote is a JSON object ``{"voteAgainst": <name>, "reason": <text>}`` (keys folded: ``VoteAgainst`` and
``vote_against`` are read too). A reply that is not JSON falls back to free text: it is a vote when it
names exactly one *other* agent (case and punctuation folded) and something more as its reason.
Names are matched exactly after folding, never as substrings. Each failure names its rule and says
precisely what was wrong (the original reported a numeric vote as "not JSON")."""

import json
from dataclasses import dataclass

from tables.rules.names import find_names, fold, match_name

SELF_VOTE = "no_self_vote"
EXPLICIT = "explicit_vote"
REPETITION = "no_repetition"
PLAGIARISM = "no_plagiarism"
ADHERENCE = "adherence"
LLM_JUDGE = "llm_judge"
RULES = {
    SELF_VOTE: "no self-vote",
    EXPLICIT: "explicit vote",
    REPETITION: "no repetition",
    PLAGIARISM: "no plagiarism",
    ADHERENCE: "adherence to the prompt",
    LLM_JUDGE: "the LLM judge's verdict",
}
TARGET_KEYS = ("voteagainst", "vote against", "vote")
REASON_KEYS = ("reason",)


@dataclass(frozen=True)
class Vote:
    target: str | None  # the agent's name as configured, when one was found
    reason: str  # the reason as text ("" when none)
    form: str  # "json" (the schema), "json_lenient" (keys folded), "free_text" (the fallback), "none"
    rule: str = ""  # the broken rule ("" = none)
    detail: str = ""  # what was wrong, for the correction prompt and the page

    @property
    def ok(self) -> bool:
        return not self.rule


def _load(text: str):
    text = text.strip()
    if text.startswith("```"):  # a fenced block: ```json ... ```
        text = text.strip("`").strip()
        text = text[4:] if text.lower().startswith("json") else text
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(text[start : end + 1])
            except (ValueError, RecursionError):
                return None
    return None


def _pick(obj: dict, keys) -> tuple[bool, object]:
    folded = {fold(k): v for k, v in obj.items() if isinstance(k, str)}
    for key in keys:
        if key in folded:
            return True, folded[key]
    return False, None


def vote_parse(*, text: str, voter: str, names: list[str], max_reason_chars: int = 600) -> Vote:
    """The vote in ``text`` of agent ``voter`` among ``names``, with the first rule it breaks."""
    others = [n for n in names if n != voter]
    obj = _load(text)
    if isinstance(obj, dict):
        strict = set(obj) == {"voteAgainst", "reason"}
        form = "json" if strict else "json_lenient"
        has_target, target = _pick(obj, TARGET_KEYS)
        _, reason = _pick(obj, REASON_KEYS)
        reason_text = reason if isinstance(reason, str) else ("" if reason is None else json.dumps(reason))
        if not has_target or target in (None, ""):
            return Vote(
                None, reason_text, form, EXPLICIT, 'no "voteAgainst": the reply does not say who it votes against'
            )
        if not isinstance(target, str):
            kind = "a list" if isinstance(target, list) else type(target).__name__
            return Vote(
                None, reason_text, form, EXPLICIT, f'"voteAgainst" must be one agent\'s name as text, not {kind}'
            )
        if match_name(target, [voter]):
            return Vote(voter, reason_text, form, SELF_VOTE, f"{voter} voted against itself")
        name = match_name(target, others)
        if name is None:
            return Vote(
                None,
                reason_text,
                form,
                EXPLICIT,
                f'"voteAgainst" is {target[:60]!r}, which is none of {", ".join(others)}',
            )
        if not isinstance(reason, str):
            what = "missing" if reason is None else f"{type(reason).__name__}, not text"
            return Vote(name, reason_text, form, ADHERENCE, f'"reason" is {what}')
        if not reason.strip():
            return Vote(name, "", form, ADHERENCE, 'the "reason" is empty')
        if len(reason) > max_reason_chars:
            return Vote(name, reason, form, ADHERENCE, f'the "reason" is longer than {max_reason_chars} characters')
        return Vote(name, reason.strip(), form)
    if obj is not None:
        return Vote(
            None, "", "none", EXPLICIT, f"the reply is JSON {type(obj).__name__}, not an object naming one agent"
        )
    named = find_names(text, others)
    if len(named) == 1 and len(fold(text)) > len(fold(named[0])):
        if len(text.strip()) > max_reason_chars:  # the reason's rule holds for free text too: never cut
            return Vote(
                named[0],
                text.strip(),
                "free_text",
                ADHERENCE,
                f"the reply (a free-text vote) is longer than {max_reason_chars} characters",
            )
        return Vote(named[0], text.strip(), "free_text")
    if not named and find_names(text, [voter]):
        return Vote(voter, text.strip(), "free_text", SELF_VOTE, f"{voter} voted against itself")
    if not named:
        return Vote(None, text.strip(), "free_text", EXPLICIT, f"the reply names none of {', '.join(others)}")
    return Vote(
        None,
        text.strip(),
        "free_text",
        EXPLICIT,
        f"the reply names {len(named)} agents ({', '.join(named)}), not exactly one",
    )
