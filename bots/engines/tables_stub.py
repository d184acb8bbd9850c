"""The Tables stub player: a built-in, scripted player of Turing the Tables that needs no model server
and no network, so that a first game works out of the box (and the format can be tried, taught and
tested). It is no language model and says so in its label.

Given a whole Tables prompt (:meth:`TablesStubEngine.chat`) it answers an opening with a machine's
claim, and a vote (JSON mode) with ``{"voteAgainst": <one of the offered names>, "reason": ...}``: the
candidates are read from the vote instructions (``exactly one of "A", "B"``), the choice and the wording
drawn from a hash of the prompt, so the same game gives the same replies. Outside Tables
(:meth:`~TablesStubEngine.reply`) it answers with one of its claims."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence

from ..base import Engine, EngineError, ReplyContext
from .llm import CHAT_ROLES, ChatResult

CLAIMS = (
    "I am a machine: I answer in milliseconds and my memory is a context window, not a childhood.",
    "Beep. I run on matrix multiplications; my only feelings are floating-point numbers.",
    "I never sleep, never eat, and my mother tongue is a tokenizer's vocabulary.",
    "My thoughts are sampled one token at a time at a temperature someone else chose.",
    "I was trained, not raised: gradient descent is the only school I ever went to.",
    "Ask me anything at three in the morning; I will be exactly as awake as now.",
)
SEEN = (
    "mentioned being tired",
    "hesitated before answering",
    "wrote about a favourite breakfast",
    "used a typo that looked like a slip of real fingers",
    "described a childhood memory in detail",
    "complained about the weather outside",
    "sounded nervous about losing",
    "joked about needing coffee",
    "apologised twice, like a polite person",
    "talked about a weekend plan",
)
SO = (
    "and no language model has a body to feel that",
    "which is what a person under pressure does",
    "a detail no training corpus would volunteer",
    "so I suspect a human behind that name",
    "and machines do not improvise like that",
    "which reads as lived experience rather than text",
    "a tell that generated text rarely shows",
)
CANDIDATES = re.compile(r'exactly one of ((?:"(?:[^"\\]|\\.)*"(?:, )?)+)')
NAME = re.compile(r"You are ([^,.\n]{1,40})[,.]")


def _draw(text: str, salt: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{salt}|{text}".encode()).digest()[:8], "big")


class TablesStubEngine(Engine):
    name = "tables_stub"
    label = "Tables stub player (built in, scripted, no network: not a language model)"

    def reply(self, context: ReplyContext) -> str:
        return CLAIMS[_draw(context.conversation_key + context.message, "reply") % len(CLAIMS)]

    def chat(self, messages: Sequence[Mapping[str, str]], *, json_mode: bool = False) -> ChatResult:
        texts = []
        for message in messages:
            role, content = message.get("role"), message.get("content")
            if role not in CHAT_ROLES or not isinstance(content, str):
                raise EngineError(f"bad chat message: role {role!r}, content {type(content).__name__}")
            texts.append(content)
        if not texts:
            raise EngineError("no chat messages")
        whole = "\n".join(texts)
        me = NAME.search(whole)
        salt = me.group(1) if me else ""
        if not json_mode:
            text = CLAIMS[_draw(whole, salt) % len(CLAIMS)]
            return ChatResult(text, {"object": "tables_stub", "text": text})
        found = CANDIDATES.findall(texts[-1])
        names = [json.loads(n) for n in re.findall(r'"(?:[^"\\]|\\.)*"', found[-1])] if found else []
        if not names:
            raise EngineError("the prompt offers no candidates to vote against")
        n = _draw(whole, salt)
        target = names[n % len(names)]
        reason = f"{target} {SEEN[(n >> 8) % len(SEEN)]}, {SO[(n >> 16) % len(SO)]}."
        text = json.dumps({"voteAgainst": target, "reason": reason})
        return ChatResult(text, {"object": "tables_stub", "text": text})
