"""ELIZA's replies as people write them: the interpreter works in upper case, as the 1966 program did;
a reply sent to a judge is in sentence case ("In what way?"), with "I" capitalised, the names the judge
capitalised kept so ("Tell me more about Paris."), and a question mark on a question.

The judge's own capitals are the only source of proper nouns: a word the judge wrote with a capital
other than at the start of a sentence (or "I") is a name; anything else is lower case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[A-Za-z][\w']*")
_SENTENCE_END = re.compile(r"[.!?]\s*$")
_I_FORMS = {"i", "i'm", "i've", "i'd", "i'll"}
# a reply that starts with one of these asks something: it ends with "?" (ELIZA printed no punctuation)
_ASKING = frozenset(
    """what why how who whom whose where when which do does did don't doesn't didn't are aren't is
isn't was wasn't were weren't can can't could couldn't would wouldn't will won't shall should have has had am
may might""".split()
)
_WH = frozenset("what why how who whom whose where when which".split())  # "In what way?"
_SCRIPT_NAMES = {"ENGLISH": "English"}  # the DOCTOR script's own proper nouns


def proper_nouns(texts: Iterable[str]) -> dict[str, str]:
    """{upper-case word: the judge's spelling} for words written with a capital mid-sentence."""
    names: dict[str, str] = {}
    for text in texts:
        start = True
        for match in re.finditer(r"[A-Za-z][\w']*|[.!?]", text):
            token = match.group()
            if token in ".!?":
                start = True
                continue
            if not start and token[0].isupper() and token.lower() not in _I_FORMS and not token.isupper():
                names.setdefault(token.upper(), token)
            start = False
    return names


def sentence_case(reply: str, names: dict[str, str] | None = None) -> str:
    """The upper-case reply in sentence case, names restored, ended with "?" or "."."""
    names = {**_SCRIPT_NAMES, **(names or {})}
    text = reply.strip()
    if not text:
        return text

    def word(match: re.Match) -> str:
        token = match.group()
        lower = token.lower()
        if lower in _I_FORMS:
            return "I" + lower[1:]
        return names.get(token.upper(), lower)

    text = _WORD.sub(word, text)
    if not _SENTENCE_END.search(text):
        words = [w.lower() for w in _WORD.findall(text)[:3]]
        text += "?" if words and (words[0] in _ASKING or _WH.intersection(words)) else "."
    return re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
