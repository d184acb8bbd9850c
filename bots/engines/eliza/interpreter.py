"""The ELIZA interpreter, written for this project from Weizenbaum's 1966 description.

For each input:

1. Scan the words left to right. A keyword's substitution replaces it in the text (I -> YOU, MY ->
   YOUR, ...). A keyword with rules goes on the keystack: on top if its rank is higher than the
   top's, else at the bottom. At a delimiter (comma, period, other end-of-clause punctuation, BUT):
   if a keyword was found, the rest of the input is dropped; if not, the clause so far is dropped.
2. If the top keyword is the MEMORY keyword (MY), one of the MEMORY transformations of the text,
   chosen by a hash of its last word, joins a first-in-first-out queue.
3. Try the keywords in keystack order. A keyword tries its decomposition patterns in order; the first
   that matches splits the text into parts, and its next reassembly rule (each decomposition cycles
   through its own list) builds the reply, or goes on with another keyword's rules (``=KEY``, PRE),
   or gives up this keyword (NEWKEY). A keyword none of whose patterns match follows its link, if any.
4. If no keyword yields a reply, the oldest remembered text is said, else the next NONE line.

The state (each decomposition's position in its list, the memory queue) lives in one :class:`Eliza`
object, so a conversation is reproduced exactly by feeding the same inputs to a fresh one.
"""

from __future__ import annotations

import re
import zlib
from collections import deque

from .script import ANY, Goto, Keyword, NewKey, OneOf, Pre, Rule, Script, Tagged, Template

MAX_LINKS = 20  # =KEY / PRE hops allowed while answering one input (guards against loops in a script)
MAX_MEMORIES = 32
MAX_TOKENS = 150  # longer input is cut: bounds the work of matching a pattern with several 0 items

_TOKEN = re.compile(r"[\w']+(?:-[\w']+)*|[.,;:!?]")
_PUNCTUATION = frozenset(".,;:!?")


def tokenize(text: str) -> list[str]:
    """Upper-case words and end-of-clause punctuation marks; other characters are dropped."""
    text = text.upper().replace("\u2019", "'").replace("\u2018", "'")
    tokens = (tok.strip("'") if tok not in _PUNCTUATION else tok for tok in _TOKEN.findall(text))
    return [tok for tok in tokens if tok]


def _fits(item, word: str, tags) -> bool:
    """Whether one word matches one pattern item that stands for one word: a literal, a set or a tag."""
    if isinstance(item, str):
        return word == item
    if isinstance(item, OneOf):
        return word in item.words
    if isinstance(item, Tagged):
        return word in tags[item.tag]
    raise TypeError(item)


def match(pattern: tuple, words: list[str], tags) -> list[list[str]] | None:
    """Split ``words`` into one part per pattern item, or None. ``0`` takes as few words as it can."""
    parts: list[list[str]] = []
    dead_ends: set[tuple[int, int]] = set()  # (pattern item, word) positions known not to match

    def walk(p: int, w: int) -> bool:
        if p == len(pattern):
            return w == len(words)
        if (p, w) in dead_ends:
            return False
        if not step(p, w):
            dead_ends.add((p, w))
            return False
        return True

    def step(p: int, w: int) -> bool:
        item = pattern[p]
        if isinstance(item, int) and item == ANY:
            for end in range(w, len(words) + 1):
                parts.append(words[w:end])
                if walk(p + 1, end):
                    return True
                parts.pop()
            return False
        if isinstance(item, int):
            end = w + item
            if end > len(words):
                return False
        else:
            end = w + 1
            if w >= len(words) or not _fits(item, words[w], tags):
                return False
        parts.append(words[w:end])
        if walk(p + 1, end):
            return True
        parts.pop()
        return False

    return parts if walk(0, 0) else None


def assemble(template: Template, parts: list[list[str]]) -> list[str]:
    words: list[str] = []
    for item in template.items:
        if isinstance(item, int):
            words.extend(parts[item - 1])
        else:
            words.append(item)
    return words


class Eliza:
    """One conversation's ELIZA. ``respond`` returns the reply in upper case, as the original did."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self._next_index: dict[tuple[str, int], int] = {}  # (keyword, rule number) -> next reassembly
        self.memory: deque[str] = deque(maxlen=MAX_MEMORIES)

    def respond(self, text: str) -> str:
        words, keystack = self._scan(tokenize(text)[:MAX_TOKENS])
        if keystack and keystack[0].word == self.script.memory.keyword:
            self._remember(words)
        for kw in keystack:
            reply = self._apply(kw, words, 0)
            if reply is not None:
                return reply
        if self.memory:
            return self.memory.popleft()
        reply = self._apply(self.script.none, words, 0)
        assert reply is not None, "the NONE keyword must have a rule that always matches"
        return reply

    def _scan(self, tokens: list[str]) -> tuple[list[str], list[Keyword]]:
        keywords, delimiters = self.script.keywords, self.script.delimiters
        words: list[str] = []
        keystack: list[Keyword] = []
        for token in tokens:
            if token in delimiters or token in _PUNCTUATION:
                if keystack:
                    break
                words = []
                continue
            kw = keywords.get(token)
            if kw is not None:
                if kw.sub:
                    token = kw.sub
                if kw.on_keystack and kw not in keystack:
                    if keystack and kw.rank <= keystack[0].rank:
                        keystack.append(kw)
                    else:
                        keystack.insert(0, kw)
            words.append(token)
        return words, keystack

    def _remember(self, words: list[str]) -> None:
        rule = self.script.memory.rule
        parts = match(rule.pattern, words, self.script.tags)
        if parts is None:
            return
        # The original chose the form with a hash of the input's last word; CRC-32 is our stable hash.
        choice = rule.reassemblies[zlib.crc32(words[-1].encode()) % len(rule.reassemblies)]
        if isinstance(choice, Template):
            self.memory.append(" ".join(assemble(choice, parts)))

    def _next(self, kw: Keyword, number: int, rule: Rule):
        key = (kw.word, number)
        index = self._next_index.get(key, 0)
        self._next_index[key] = (index + 1) % len(rule.reassemblies)
        return rule.reassemblies[index]

    def _apply(self, kw: Keyword, words: list[str], hops: int) -> str | None:
        """The reply from ``kw``'s rules, or None to try the next keyword."""
        for number, rule in enumerate(kw.rules):
            parts = match(rule.pattern, words, self.script.tags)
            if parts is None:
                continue
            reassembly = self._next(kw, number, rule)
            if isinstance(reassembly, Template):
                return " ".join(assemble(reassembly, parts))
            if isinstance(reassembly, NewKey):
                return None
            if isinstance(reassembly, Pre):
                return self._follow(reassembly.keyword, assemble(reassembly.template, parts), hops)
            if isinstance(reassembly, Goto):
                return self._follow(reassembly.keyword, words, hops)
            raise TypeError(reassembly)
        if kw.link:
            return self._follow(kw.link, words, hops)
        return None

    def _follow(self, name: str, words: list[str], hops: int) -> str | None:
        if hops >= MAX_LINKS:
            return None
        return self._apply(self.script.keywords[name], words, hops + 1)
