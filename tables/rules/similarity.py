"""Repetition (an agent's own earlier messages) and plagiarism (other agents' messages), measured with
rapidfuzz: the symmetric normalised Levenshtein similarity of whole texts (the original divided by the new
text's length only) and the partial ratio, which catches a fragment copied out of a longer message.
Thresholds come from the game's configuration; everything is compared as text."""
from dataclasses import dataclass

from rapidfuzz import fuzz, utils
from rapidfuzz.distance import Levenshtein

from tables.rules.votes import PLAGIARISM, REPETITION


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


def copies_find(*, text: str, author: str, earlier: list[tuple[str, str]], thresholds: Thresholds) -> Match:
    """The first copy ``text`` makes of ``earlier`` ((author, text) pairs): the agent's own (repetition)
    or another's (plagiarism); with the highest similarity seen when there is none."""
    best = 0.0
    for who, old in earlier:
        similarity, copied = score(text, old, thresholds)
        best = max(best, similarity)
        if copied:
            return Match(REPETITION if who == author else PLAGIARISM, similarity, who, str(old))
    return Match("", best)
