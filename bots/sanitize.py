"""Make an engine's raw output safe and plain before it is stored as a chat message."""

from __future__ import annotations

import html
import re
import unicodedata

from .base import EngineError

# Whole elements whose content is not text for a reader.
_DROP_ELEMENTS = re.compile(
    r"<\s*(script|style|iframe|object|embed|template|noscript)\b[^>]*>.*?<\s*/\s*\1\s*>", re.I | re.S
)
_UNCLOSED_ELEMENT = re.compile(r"<\s*(script|style|iframe|object|embed|template|noscript)\b.*", re.I | re.S)
_COMMENT = re.compile(r"<!--.*?(-->|$)", re.S)
_TAG = re.compile(r"</?[A-Za-z!?/][^<>]*>")
_BREAK_TAG = re.compile(r"<\s*(br|/p|/div|/li|/tr|/h[1-6])\b[^>]*>", re.I)
# Invisible format characters that reorder or hide text (bidi overrides, zero-width spaces, BOM).
_HIDDEN = dict.fromkeys(
    [*range(0x200B, 0x200D), 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2060, 0x2070), 0xFEFF]
)


def _strip_markup(text: str) -> str:
    for _ in range(2):  # a second pass for markup that was entity-encoded (&lt;script&gt;)
        text = _DROP_ELEMENTS.sub(" ", text)
        text = _UNCLOSED_ELEMENT.sub(" ", text)
        text = _COMMENT.sub(" ", text)
        text = _BREAK_TAG.sub(" ", text)
        text = _TAG.sub("", text)
        text = html.unescape(text)
    return text.replace("<", "").replace(">", "") if _TAG.search(text) else text


def _drop_controls(text: str) -> str:
    text = text.translate(_HIDDEN)
    return "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cs", "Co", "Cn")
    )


def clean_reply(text: str, *, max_chars: int) -> str:
    """Plain, single-line text of at most ``max_chars`` characters.

    Strips markup (dropping the content of script/style elements), decodes entities, removes control
    and invisible characters, collapses whitespace and caps the length at a word boundary where one
    is near. Raises :class:`EngineError` (not transient) when nothing is left.
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    if not isinstance(text, str):
        raise EngineError(f"engine returned {type(text).__name__}, not text")
    text = unicodedata.normalize("NFC", _drop_controls(_strip_markup(text)))
    text = " ".join(text.split())
    if len(text) > max_chars:
        cut = text[: max_chars + 1]
        space = cut.rfind(" ")
        text = cut[:space] if space >= max_chars * 0.6 else text[:max_chars]
        text = text.rstrip()
    if not text:
        raise EngineError("reply is empty after cleaning")
    return text
