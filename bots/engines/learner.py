"""A Jabberwacky-style learner: it answers with what a human once answered to a similar question.

The corpus holds (prompt, reply, prev_prompt) triples: a judge's question, the human witness's answer,
and the judge's question before it. For a new message the engine scores stored prompts by similarity
to the message, blended with the similarity of their ``prev_prompt`` to the judge's previous message
(``context_weight``, 0.3 by default), drops those under the corpus's threshold, and picks among the
near-ties (seeded by the conversation key and turn, so a repeated question need not get the same
answer and a retried turn gets the same one). No match: ALICE (the aiml engine) answers, and if it
cannot, a stock line.

This module imports no Django. The corpus comes from whoever runs the engine, as ``engine.corpus``
(the arena's engine gateway hands each instance a database-backed one); without it, an empty
:class:`MemoryCorpus`. :func:`scrub` is the rule for what may be stored:
e-mail addresses, URLs and phone numbers are removed, and a text that introduces a name is refused.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..base import Engine, EngineError, ReplyContext, number_setting
from ..http import choice_setting
from .simple import SIMPLE_REPLY

STOCK_LINES = (
    SIMPLE_REPLY,
    "Sorry, what do you mean?",
    "Ha, not sure how to answer that one.",
    "Can we talk about something else?",
    "Why do you ask?",
)
NEAR_TIE = 0.03  # candidates within this of the best score are equally good

# --- what may be stored ------------------------------------------------------------------------

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+", re.I)
_URL = re.compile(
    r"\b(?:https?://|ftp://|www\.)\S+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|edu|gov|io|co|uk|de|fr|info|me|ly)\b(?:/\S*)?",
    re.I,
)
_PHONE = re.compile(r"(?<![\w])\+?\d[\d\s().-]{6,}\d(?![\w])")
_NAME_INTRO = re.compile(r"\b(my name is|my name's|i am called|i'm called|call me)\b", re.I)
MAX_STORED_CHARS = 300


def scrub(text: str) -> str:
    """``text`` without e-mail addresses, URLs or phone numbers; "" when nothing worth storing is left
    or when it introduces a name ("my name is ...")."""
    if not isinstance(text, str) or _NAME_INTRO.search(text):
        return ""
    for pattern in (_EMAIL, _URL, _PHONE):
        text = pattern.sub(" ", text)
    text = " ".join(text.split())
    if len(text) > MAX_STORED_CHARS or not any(ch.isalnum() for ch in text):
        return ""
    return text


# --- the corpus --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    prompt: str
    reply: str
    prev_prompt: str = ""
    id: int | str | None = None


@dataclass(frozen=True)
class Candidate:
    pair: Pair
    score: float  # blended, 0..1


class Corpus(Protocol):
    threshold: float  # scores below this are no match (the scale depends on the similarity measure)

    def candidates(self, message: str, previous: str, *, context_weight: float, limit: int) -> Sequence[Candidate]:
        """Best stored pairs for ``message`` (after ``previous``), best first."""


class MemoryCorpus:
    """Pairs in memory, matched with rapidfuzz (token sort ratio, 0..100 scaled to 0..1)."""

    threshold = 0.6

    def __init__(self, pairs: Iterable[Pair] = ()) -> None:
        self.pairs: list[Pair] = list(pairs)
        self._prompts: list[str] | None = None

    def add(self, pair: Pair) -> None:
        self.pairs.append(pair)
        self._prompts = None

    def __len__(self) -> int:
        return len(self.pairs)

    def candidates(self, message, previous, *, context_weight, limit):
        from rapidfuzz import fuzz, process

        if not self.pairs:
            return []
        if self._prompts is None:  # token_sort_ratio = ratio of the sorted tokens: sort the corpus once
            self._prompts = [_sorted_tokens(p.prompt) for p in self.pairs]
        # a generous first cut on the prompt alone, then the context blend re-ranks it
        found = process.extract(
            _sorted_tokens(message), self._prompts, scorer=fuzz.ratio, processor=None, limit=limit * 4
        )
        prev = _sorted_tokens(previous) if previous else ""
        scored = []
        for _, score, index in found:
            pair = self.pairs[index]
            if prev:
                context = fuzz.ratio(prev, _sorted_tokens(pair.prev_prompt)) if pair.prev_prompt else 0.0
                score = (1 - context_weight) * score + context_weight * context
            scored.append(Candidate(pair, score / 100.0))
        scored.sort(key=lambda c: -c.score)
        return scored[:limit]


def _sorted_tokens(text: str) -> str:
    from rapidfuzz import utils

    return " ".join(sorted(utils.default_process(text).split()))


# --- the engine --------------------------------------------------------------------------------


class LearnerEngine(Engine):
    name = "learner"
    label = "Learner (Jabberwacky-style: replays human answers)"
    version = "1"
    settings_spec = {
        "context_weight": number_setting(0.3, maximum=1.0, help="weight of the previous exchange in matching, 0 to 1"),
        "min_score": number_setting(0.0, maximum=1.0, help="lowest match score accepted (0 = the corpus's default)"),
        "fallback": choice_setting("aiml", ("aiml", "stock"), help="'aiml' (ALICE, then stock lines) or 'stock'"),
    }
    corpus: Corpus | None = None  # set on an instance by the host (the arena's gateway, tests, the bench)

    def __init__(self, settings=None) -> None:
        super().__init__(settings)
        self.last_source = ""  # which pair (or fallback) produced the last reply, for the call log

    def get_corpus(self) -> Corpus:
        return self.corpus if self.corpus is not None else MemoryCorpus()

    def reply(self, context: ReplyContext) -> str:
        turn = len(context.interrogator_turns())
        rng = random.Random(f"{context.conversation_key}#{turn}")
        earlier = context.interrogator_turns()
        previous = earlier[-1] if earlier else ""
        corpus = self.get_corpus()
        threshold = self.settings["min_score"] or corpus.threshold
        found = [
            c
            for c in corpus.candidates(
                context.message, previous, context_weight=self.settings["context_weight"], limit=10
            )
            if c.score >= threshold
        ]
        if found:
            best = max(c.score for c in found)
            chosen = rng.choice([c for c in found if c.score >= best - NEAR_TIE])
            self.last_source = f"learner pair {chosen.pair.id} score {chosen.score:.2f}"
            return chosen.pair.reply
        if self.settings["fallback"] == "aiml":
            from .aiml import AIMLEngine

            try:
                text = AIMLEngine({"persona": self.settings["persona"]}).reply(context)
                self.last_source = "fallback aiml"
                return text
            except EngineError:
                pass
        self.last_source = "fallback stock"
        return rng.choice(STOCK_LINES)
