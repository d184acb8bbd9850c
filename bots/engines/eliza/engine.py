"""ELIZA as a bot engine: stateless across calls and processes.

The conversation's state (each decomposition's rotation, the MEMORY queue) is rebuilt on every call
by replaying the interrogator's earlier turns from ``context.history`` through a fresh interpreter,
so any worker can answer any conversation and a restart loses nothing. The reply goes out in sentence
case (``casing``), with the names the interrogator capitalised.
"""

from __future__ import annotations

from ...base import Engine, ReplyContext
from .casing import proper_nouns, sentence_case
from .doctor import DOCTOR
from .interpreter import Eliza


class ElizaEngine(Engine):
    name = "eliza"
    label = "ELIZA (Weizenbaum 1966, DOCTOR script)"
    # No keys of its own: the common ``persona`` (name, ...) is accepted and ignored, as ELIZA
    # never speaks of itself.
    script = DOCTOR

    def conversation(self, context: ReplyContext) -> Eliza:
        """An interpreter in the state it had after the conversation's earlier interrogator turns."""
        eliza = Eliza(self.script)
        for text in context.interrogator_turns():
            eliza.respond(text)
        return eliza

    def reply(self, context: ReplyContext) -> str:
        reply = self.conversation(context).respond(context.message)
        return sentence_case(reply, proper_nouns([*context.interrogator_turns(), context.message]))
