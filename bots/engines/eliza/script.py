"""The data model of an ELIZA script (after Weizenbaum, CACM 9(1), 1966) and its small notations.

A script is a set of keywords. A keyword may replace itself in the text (``sub``: I -> YOU), has a
rank, may carry tags (``DLIST``: FATHER is FAMILY), and owns decomposition rules, each with a list
of reassembly rules used in turn. A keyword without rules of its own may link to another keyword's
(``link``: HOW uses WHAT's rules).

Notations used by script modules:

* decomposition pattern, a string of items: ``0`` (any number of words, also none), ``n`` (exactly
  n words), a word, ``(* WANT NEED)`` (one of these words), ``(/FAMILY)`` (a word with this tag).
  Example: ``"0 YOUR 0 (/FAMILY) 0"``.
* reassembly rule: a string of words and part numbers (``"WHO ELSE IN YOUR FAMILY 5"``), or
  ``"=WHAT"`` (go on with keyword WHAT's rules on the same text), or :data:`NEWKEY` (give up this
  keyword, try the next one found in the input), or :func:`pre` (rebuild the text, then go on with
  another keyword's rules).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

ANY = 0  # pattern item matching any number of words


@dataclass(frozen=True)
class OneOf:
    """Pattern item ``(* A B C)``: one word out of a set."""

    words: frozenset[str]


@dataclass(frozen=True)
class Tagged:
    """Pattern item ``(/TAG)``: one word that carries this tag."""

    tag: str


PatternItem = int | str | OneOf | Tagged


@dataclass(frozen=True)
class Template:
    """Reassembly: words and 1-based references to the decomposition's parts."""

    items: tuple[int | str, ...]


@dataclass(frozen=True)
class Goto:
    """Reassembly ``=KEY``: apply keyword KEY's rules to the same text."""

    keyword: str


@dataclass(frozen=True)
class NewKey:
    """Reassembly ``NEWKEY``: this keyword gives up; try the next one on the keystack."""


@dataclass(frozen=True)
class Pre:
    """Reassembly ``PRE``: rebuild the text with ``template``, then apply ``keyword``'s rules to it."""

    template: Template
    keyword: str


Reassembly = Template | Goto | NewKey | Pre
NEWKEY = NewKey()


@dataclass(frozen=True)
class Rule:
    """A decomposition pattern and the reassembly rules used in turn when it matches."""

    pattern: tuple[PatternItem, ...]
    reassemblies: tuple[Reassembly, ...]


@dataclass(frozen=True)
class Keyword:
    word: str
    rank: int = 0
    sub: str | None = None  # replaces the word in the text when scanned
    rules: tuple[Rule, ...] = ()
    link: str | None = None  # keyword whose rules apply when none of ours match ("=" link)

    @property
    def on_keystack(self) -> bool:
        """A keyword with only a substitution is not a candidate for transforming the input."""
        return bool(self.rules or self.link)


@dataclass(frozen=True)
class Memory:
    """MEMORY: when ``keyword`` is the top keyword, one of ``rules``' reassemblies (chosen by a hash
    of the input's last word) is stored, to be said later when an input contains no keyword."""

    keyword: str
    rule: Rule


@dataclass(frozen=True)
class Script:
    name: str
    greeting: str
    keywords: Mapping[str, Keyword]
    tags: Mapping[str, frozenset[str]]  # tag -> words (as they read after substitution)
    memory: Memory
    none: Keyword  # rules used when nothing else applies
    delimiters: frozenset[str] = field(default_factory=lambda: frozenset({",", ".", "BUT"}))

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Raise ValueError on a dangling link, an unknown tag or a part number beyond the pattern."""
        for kw in (*self.keywords.values(), self.none):
            if kw.link and kw.link not in self.keywords:
                raise ValueError(f"{kw.word}: link to unknown keyword {kw.link}")
            for rule in kw.rules:
                self._check_rule(kw.word, rule)
        self._check_rule("MEMORY", self.memory.rule)
        if self.memory.keyword not in self.keywords:
            raise ValueError(f"MEMORY: unknown keyword {self.memory.keyword}")

    def _check_rule(self, where: str, rule: Rule) -> None:
        for item in rule.pattern:
            if isinstance(item, Tagged) and item.tag not in self.tags:
                raise ValueError(f"{where}: unknown tag /{item.tag}")
        for reassembly in rule.reassemblies:
            template = reassembly.template if isinstance(reassembly, Pre) else reassembly
            target = getattr(reassembly, "keyword", None)
            if target is not None and target not in self.keywords:
                raise ValueError(f"{where}: link to unknown keyword {target}")
            if isinstance(template, Template):
                for item in template.items:
                    if isinstance(item, int) and not 1 <= item <= len(rule.pattern):
                        raise ValueError(f"{where}: part {item} beyond pattern {rule.pattern}")


# --- notations ----------------------------------------------------------------------------------

_PATTERN_TOKEN = re.compile(r"\(\s*([*/])([^)]*)\)|(\S+)")


def parse_pattern(text: str) -> tuple[PatternItem, ...]:
    items: list[PatternItem] = []
    for match in _PATTERN_TOKEN.finditer(text):
        kind, inner, word = match.groups()
        if kind == "*":
            items.append(OneOf(frozenset(inner.split())))
        elif kind == "/":
            items.append(Tagged(inner.strip()))
        elif word.isdigit():
            items.append(int(word))
        else:
            items.append(word)
    return tuple(items)


def parse_template(text: str) -> Template:
    return Template(tuple(int(tok) if tok.isdigit() else tok for tok in text.split()))


def pre(template: str, keyword: str) -> Pre:
    return Pre(parse_template(template), keyword)


def _reassembly(item: str | Reassembly) -> Reassembly:
    if not isinstance(item, str):
        return item
    if item.startswith("="):
        return Goto(item[1:].strip())
    return parse_template(item)


def rule(pattern: str, *reassemblies: str | Reassembly) -> Rule:
    """``rule("0 YOU ARE 0", "HOW LONG HAVE YOU BEEN 4", "=WHAT")``."""
    if not reassemblies:
        raise ValueError(f"rule {pattern!r} has no reassembly")
    return Rule(parse_pattern(pattern), tuple(_reassembly(r) for r in reassemblies))


def keyword(word: str, rank: int = 0, *rules: Rule, sub: str | None = None, link: str | None = None) -> Keyword:
    return Keyword(word, rank, sub, tuple(rules), link)


def keyword_table(keywords: Iterable[Keyword]) -> dict[str, Keyword]:
    table: dict[str, Keyword] = {}
    for kw in keywords:
        if kw.word in table:
            raise ValueError(f"keyword {kw.word} defined twice")
        table[kw.word] = kw
    return table
