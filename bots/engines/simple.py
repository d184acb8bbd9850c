"""Turing Trade's Simple Bot: one answer to every question."""

from __future__ import annotations

from ..base import Engine, ReplyContext

# Exact text from the Turing Trade paper (§2.1, "Simple Bot").
SIMPLE_REPLY = "Hmmm...That's an interesting question."


class SimpleEngine(Engine):
    name = "simple"
    label = "Simple Bot (always the same answer)"

    def reply(self, context: ReplyContext) -> str:
        return SIMPLE_REPLY
