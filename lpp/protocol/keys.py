"""LPP key names <-> characters (docs/reference/protocols.md).

Letters and digits travel literally; every other printable ASCII character,
Return, BackSpace and Tab have a case-sensitive special name (the X11 keysym).
``Return`` stands for ``"\\n"``, ``BackSpace`` for ``"\\b"`` and ``Tab`` for ``"\\t"``.

The writer (:func:`name_for`, :func:`names_for_text`) emits canonical names only.
The reader (:func:`char_for`) also accepts the variants third-party clients
wrote (``tab``, ``return``, ``quotedl``, ``quotedble``) and any literal
one-character name (the 2012 logs contain a literal space); anything else is
unknown and yields ``None`` so that callers report and skip it.
"""

from __future__ import annotations

import string
import unicodedata

RETURN = "\n"
BACKSPACE = "\b"
TAB = "\t"

#: The 36 special names of the rules, canonical spelling.
SPECIAL_NAMES: dict[str, str] = {
    "braceleft": "{",
    "braceright": "}",
    "bracketleft": "[",
    "bracketright": "]",
    "parenleft": "(",
    "parenright": ")",
    "space": " ",
    "comma": ",",
    "period": ".",
    "greater": ">",
    "less": "<",
    "slash": "/",
    "backslash": "\\",
    "bar": "|",
    "quotedbl": '"',
    "quoteright": "'",
    "Tab": TAB,
    "equal": "=",
    "underscore": "_",
    "plus": "+",
    "minus": "-",
    "exclam": "!",
    "at": "@",
    "numbersign": "#",
    "dollar": "$",
    "percent": "%",
    "asterisk": "*",
    "asciicircum": "^",
    "asciitilde": "~",
    "quoteleft": "`",
    "ampersand": "&",
    "colon": ":",
    "semicolon": ";",
    "question": "?",
    "Return": RETURN,
    "BackSpace": BACKSPACE,
}

#: Misspellings seen in third-party clients (docs/reference/protocols.md), accepted when reading.
LENIENT_NAMES: dict[str, str] = {
    "tab": TAB,
    "return": RETURN,
    "quotedl": '"',
    "quotedble": '"',
}

LITERAL = frozenset(string.ascii_letters + string.digits)
_NAME_OF = {char: name for name, char in SPECIAL_NAMES.items()}

#: Typographic characters a reply may contain, folded to ASCII before encoding.
_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2026": "...",
        "\u00a0": " ",
        "\r": None,
    }
)


def name_for(char: str) -> str:
    """The canonical key name of one character; ``ValueError`` if it has none."""
    if char in LITERAL:
        return char
    try:
        return _NAME_OF[char]
    except KeyError:
        raise ValueError(f"no LPP key name for {char!r}") from None


def char_for(name: str) -> str | None:
    """The character a (possibly non-canonical) key name stands for, or ``None``."""
    if name in LITERAL:
        return name
    char = SPECIAL_NAMES.get(name) or LENIENT_NAMES.get(name)
    if char is not None:
        return char
    if len(name) == 1 and name.isprintable() and name in _NAME_OF:
        return name  # a literal one-character name such as " " or "?"
    return None


def to_ascii(text: str) -> str:
    """Fold ``text`` to what LPP can carry: typographic quotes and dashes become
    ASCII, accents are dropped, other characters without a key name vanish."""
    folded = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(c for c in folded if c in LITERAL or c in _NAME_OF)


def names_for_text(text: str) -> list[str]:
    """Canonical key names for ``text`` (folded with :func:`to_ascii`);
    a newline becomes ``Return``."""
    return [name_for(c) for c in to_ascii(text)]
