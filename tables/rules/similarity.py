"""Repetition (an agent's own earlier messages) and plagiarism (other agents' messages), measured with
rapidfuzz: the symmetric normalised Levenshtein similarity of whole texts (the original divided by the new
text's length only) and the partial ratio, which catches a fragment copied out of a longer message.
Thresholds come from the game's configuration; everything is compared as text.

A game's earlier messages are kept in :class:`Earlier`, each processed once as it is said; a new reply
is compared with all of them at once (``rapidfuzz.process.cdist`` for the whole texts; the partial
ratio, the costly one, only where it can still decide: with a score cut-off below which it can neither
reach the threshold nor beat the highest similarity already seen)."""

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz, process, utils
from rapidfuzz.distance import Levenshtein

from tables.rules.votes import PLAGIARISM, REPETITION

# rapidfuzz applies a cut-off with its own rounding: asked a little below, it returns the exact score
# of every pair at or above the cut-off we mean (and 0 for the pairs that cannot matter)
CUTOFF_MARGIN = 1e-3


@dataclass(frozen=True)
class Thresholds:
    similarity: float = 0.75  # normalised Levenshtein similarity, 0..1, at or above which texts are copies
    partial: float = 90.0  # rapidfuzz partial ratio, 0..100, for fragments
    partial_min_chars: int = 30  # shorter texts are only compared whole

    def check(self) -> "Thresholds":
        if not 0 < self.similarity <= 1:
            raise ValueError("similarity threshold must be in (0, 1]")
        if not 0 < self.partial <= 100:
            raise ValueError("partial threshold must be in (0, 100]")
        if not 1 <= self.partial_min_chars <= 10_000:
            raise ValueError("partial_min_chars must be 1 to 10000")
        return self


@dataclass(frozen=True)
class Match:
    rule: str  # REPETITION or PLAGIARISM or ""
    score: float  # the highest similarity found, 0..1
    author: str = ""
    text: str = ""


def score(new: str, old: str, thresholds: Thresholds) -> tuple[float, bool]:
    """(similarity 0..1, copied?) of two texts."""
    a, b = utils.default_process(str(new)), utils.default_process(str(old))
    if not a or not b:
        return 0.0, False
    whole = Levenshtein.normalized_similarity(a, b)
    partial = 0.0
    if min(len(a), len(b)) >= thresholds.partial_min_chars:
        partial = fuzz.partial_ratio(a, b) / 100
    best = max(whole, partial)
    return best, whole >= thresholds.similarity or partial * 100 >= thresholds.partial


class Earlier:
    """The earlier messages of a game in order, (author, text) as said, each processed once."""

    def __init__(self, pairs: Iterable[tuple[str, str]] = ()):
        self.authors: list[str] = []
        self.texts: list = []
        self.processed: list[str] = []
        for author, text in pairs:
            self.add(author, text)

    def add(self, author: str, text) -> None:
        self.authors.append(author)
        self.texts.append(text)
        self.processed.append(utils.default_process(str(text)))

    def __len__(self) -> int:
        return len(self.texts)

    def __iter__(self):
        return iter(zip(self.authors, self.texts))


def copies_find(
    *, text: str, author: str, earlier: "Earlier | Iterable[tuple[str, str]]", thresholds: Thresholds
) -> Match:
    """The first copy ``text`` makes of ``earlier`` (an :class:`Earlier`, or (author, text) pairs): the
    agent's own (repetition) or another's (plagiarism); with the highest similarity seen when there is
    none. The same answer as :func:`score` applied to each earlier message in turn."""
    if not isinstance(earlier, Earlier):
        earlier = Earlier(earlier)
    a = utils.default_process(str(text))
    if not a or not len(earlier):
        return Match("", 0.0)
    olds = earlier.processed
    whole = process.cdist([a], olds, scorer=Levenshtein.normalized_similarity, dtype=np.float64, workers=1)[0]
    whole = [float(w) if b else 0.0 for w, b in zip(whole, olds)]  # an empty text is no match
    copied_whole = next((i for i, w in enumerate(whole) if w >= thresholds.similarity), None)
    last = len(olds) - 1 if copied_whole is None else copied_whole
    best = max(whole)
    for i in range(last + 1):
        b = olds[i]
        if i != copied_whole and (not b or min(len(a), len(b)) < thresholds.partial_min_chars):
            continue
        if min(len(a), len(b)) >= thresholds.partial_min_chars:
            # below this a partial ratio neither copies nor (when no whole text is copied) beats ``best``;
            # the whole copy's own partial ratio counts only above its whole similarity
            floor = whole[i] * 100 if i == copied_whole else min(thresholds.partial, best * 100)
            partial = fuzz.partial_ratio(a, b, score_cutoff=max(0.0, floor - CUTOFF_MARGIN)) / 100
        else:
            partial = 0.0
        if i == copied_whole or partial * 100 >= thresholds.partial:
            who = earlier.authors[i]
            rule = REPETITION if who == author else PLAGIARISM
            return Match(rule, max(whole[i], partial), who, str(earlier.texts[i]))
        best = max(best, partial)
    return Match("", best)
