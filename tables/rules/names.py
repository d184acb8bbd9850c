"""Agent names, folded for matching: case, punctuation and spacing do not count."""

import re

_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)


def fold(text: str) -> str:
    """``" Beta. "`` and ``"beta"`` fold alike: lower case, runs of punctuation and space to one space."""
    return " ".join(_NOT_WORD.sub(" ", str(text)).lower().split())


def find_names(text: str, names: list[str]) -> list[str]:
    """The names (as given) that occur in ``text`` as whole words, case and punctuation folded."""
    folded = f" {fold(text)} "
    return [name for name in names if fold(name) and f" {fold(name)} " in folded]


def match_name(value: str, names: list[str]) -> str | None:
    """The one name ``value`` folds to exactly (never a substring: "Not Beta" is not "Beta")."""
    key = fold(value)
    found = [name for name in names if fold(name) == key]
    return found[0] if len(found) == 1 else None
