"""A casual writing style for a rule-based witness (pure Python): what a person typing fast in a chat
does to a tidy sentence. Lower case, no full stop at the end, common contractions, at most two
sentences, and now and then a slip of the fingers (two neighbouring letters swapped), seeded by the
conversation and turn so a retried turn reads the same."""

from __future__ import annotations

import random
import re

CONTRACTIONS = (
    (r"\bI am\b", "im"),
    (r"\bdo not\b", "dont"),
    (r"\bdoes not\b", "doesnt"),
    (r"\bcannot\b", "cant"),
    (r"\bcan not\b", "cant"),
    (r"\bit is\b", "its"),
    (r"\bthat is\b", "thats"),
    (r"\bwhat is\b", "whats"),
    (r"\byou are\b", "ur"),
    (r"\bI don't know\b", "idk"),
    (r"\bto be honest\b", "tbh"),
    (r"\bgoing to\b", "gonna"),
)
# Questions every interrogator asks, answered from the persona before the rule set is asked (ALICE's
# own answers to these say it was "activated in 1995"): (pattern, answers with persona fields).
PERSONA_ANSWERS = (
    (r"\bhow old\b|\byour age\b", ("{age}", "im {age}", "{age} why")),
    (r"\bare (you|u) (a |an )?(bot|robot|ai|computer|machine|human|real)\b", ("no lol", "haha what", "um no?")),
    (r"\bwhere (do|d) (you|u) live\b|\bwhere are (you|u) from\b", ("{location}", "{location} hbu", "near {location}")),
    (r"\b(what is|whats|what's) (your|ur) name\b", ("{name}", "its {name}", "{name} u?")),
    (r"\bwhat do (you|u) do\b|\byour job\b", ("{job}", "im a {job}", "{job} unfortunately")),
)
ROBOTIC = re.compile(r"\b(activated|botmaster|chat robot|my programm|artificial intelligence|alice)\b", re.I)
EVASIVE = ("idk", "not sure tbh", "haha why", "hmm what do u mean", "no idea lol")
SLIP_CHANCE = 0.3  # the share of replies with one slip of the fingers
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _slip(text: str, rng: random.Random) -> str:
    words = [(m.start(), m.group()) for m in re.finditer(r"[a-z]{5,}", text)]
    if not words:
        return text
    start, word = words[rng.randrange(len(words))]
    i = rng.randrange(1, len(word) - 2)
    swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return text[:start] + swapped + text[start + len(word) :]


def persona_answer(question: str, persona: dict, seed: str) -> str | None:
    """The persona's own answer to one of the questions everyone asks, or None."""
    rng = random.Random(f"{seed}:persona")
    for pattern, answers in PERSONA_ANSWERS:
        if re.search(pattern, question, re.IGNORECASE):
            fields = [a for a in answers if all(f in persona for f in re.findall(r"{(\w+)}", a))]
            if fields:
                return fields[rng.randrange(len(fields))].format(**{k: str(v).lower() for k, v in persona.items()})
    return None


def casual_reply(question: str, rule_answer: str, persona: dict, seed: str) -> str:
    """A casual witness's answer: the persona's own where it has one, else the rule set's (an evasive
    line where that gives the machine away), written as a chatter types."""
    own = persona_answer(question, persona, seed)
    if own is not None:
        return own
    if ROBOTIC.search(rule_answer):
        rule_answer = EVASIVE[random.Random(f"{seed}:evasive").randrange(len(EVASIVE))]
    return casual_style(rule_answer, seed)


def casual_style(text: str, seed: str) -> str:
    """``text`` as a casual chatter types it (``seed``: the conversation and turn)."""
    rng = random.Random(seed)
    sentences = [s for s in _SENTENCE_END.split(" ".join(text.split())) if s][:2]
    text = " ".join(sentences)
    for pattern, short in CONTRACTIONS:
        text = re.sub(pattern, short, text, flags=re.IGNORECASE)
    text = text.lower().replace("'", "")
    text = text.rstrip(".")
    if rng.random() < SLIP_CHANCE:
        text = _slip(text, rng)
    return text or "hmm"
