"""ALICE: the Free A.L.I.C.E. AIML set (v1.9, LGPL) shipped inside ``python-aiml``, on its BSD engine.

One kernel per process, loaded on first use (about 98,000 categories; 3-4 s and ~240 MB of memory),
shared by every AIML entry and conversation. Each conversation is its own AIML session (session id =
``context.conversation_key``); its predicates (the interrogator's name, the topic, ``<that>``) live in
the kernel. A process that has no session for a conversation, or one out of step with the history
(another worker answered the last turn), rebuilds it by replaying the interrogator's earlier turns, so
a restart loses nothing. ``<random>`` draws from a generator seeded by the conversation key and turn
number, so the replay reproduces the same state and a turn's answer does not depend on the worker.

Hardened for judges: ``<system>`` (runs a shell command), ``<learn>`` (loads files) and
``<javascript>``/``<gossip>`` do nothing; ``<id/>`` does not reveal the session id (the conversation key).
Bot predicates (``<bot name="..."/>``) come from the entry's ``persona`` over a human default persona,
per conversation, so entries with different personas share the kernel.
"""

from __future__ import annotations

import glob
import os
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping

from ..base import Engine, EngineError, ReplyContext
from ..casual import casual_reply
from ..http import choice_setting

# Without bot predicates ALICE says "My name is Nameless." and "I am a ."; these make it a person.
# An entry's ``persona`` (keys lower-cased) overrides any of them and may add others.
DEFAULT_PERSONA: dict[str, str] = {
    "name": "Sam",
    "gender": "female",
    "age": "24",
    "location": "Leeds",
    "city": "Leeds",
    "country": "England",
    "nationality": "British",
    "birthplace": "York",
    "birthday": "March 3rd",
    "sign": "Pisces",
    "genus": "person",
    "species": "human",
    "kingdom": "animal",
    "phylum": "chordate",
    "class": "mammal",
    "order": "primate",
    "family": "human family",
    "etype": "an ordinary person",
    "master": "my parents",
    "botmaster": "mother",
    "job": "barista",
    "religion": "not very religious",
    "party": "none in particular",
    "feelings": "the usual feelings",
    "emotions": "the usual emotions",
    "favoritefood": "pizza",
    "favoritecolor": "green",
    "favoritemovie": "Amelie",
    "favoritesong": "Dancing Queen",
    "favoriteband": "ABBA",
    "favoritebook": "Pride and Prejudice",
    "kindmusic": "pop",
    "friends": "my flatmates",
    "language": "English",
    "size": "average",
}

HIDDEN_ID = "something I can't see"  # what <id/> says instead of the session id
MAX_SESSIONS = 2000  # sessions kept in memory per process; older ones are rebuilt when needed
_PERSONA = "_arena_persona"  # session predicates of ours (AIML names are upper-case words)
_RNG = "_arena_rng"
_TURNS = "_arena_turns"

_kernel = None
_kernel_lock = threading.Lock()  # guards loading
_lock = threading.RLock()  # guards sessions and every respond() of ours
_sessions: OrderedDict[str, None] = OrderedDict()  # our session ids, least recently used first
LOAD_STATS: dict[str, float] = {}  # seconds and categories of the last load, for logs and reports


def alice_files() -> list[str]:
    """The ALICE ``*.aiml`` files bundled with python-aiml, sorted (``startup.xml`` is not loaded)."""
    import aiml as pyaiml  # absolute import: the python-aiml package, not this module

    directory = os.path.join(os.path.dirname(pyaiml.__file__), "botdata", "alice")
    return sorted(glob.glob(os.path.join(glob.escape(directory), "*.aiml")))


def harden(kernel) -> None:
    """Neutralise the elements a judge could abuse, and route ``<bot>``/``<random>`` per session."""
    processors = kernel._elementProcessors

    def nothing(elem, session_id):
        return ""

    for tag in ("system", "learn", "javascript", "gossip"):
        processors[tag] = nothing
    processors["id"] = lambda elem, session_id: HIDDEN_ID

    def bot(elem, session_id):
        name = elem[1].get("name", "")
        persona = kernel._sessions.get(session_id, {}).get(_PERSONA) or {}
        return persona.get(name, kernel._botPredicates.get(name, ""))

    def pick(elem, session_id):
        items = [e for e in elem[2:] if e[0] == "li"]
        if not items:
            return ""
        rng = kernel._sessions.get(session_id, {}).get(_RNG) or random
        return kernel._processElement(rng.choice(items), session_id)

    processors["bot"] = bot
    processors["random"] = pick


def load_kernel(files: list[str] | None = None):
    """A fresh, hardened kernel that has learned ``files`` (default: the ALICE set)."""
    import aiml as pyaiml

    kernel = pyaiml.Kernel()
    kernel.verbose(False)
    harden(kernel)
    for path in alice_files() if files is None else files:
        kernel.learn(glob.escape(path))
    for name, value in DEFAULT_PERSONA.items():
        kernel.setBotPredicate(name, value)
    return kernel


def get_kernel():
    """The process's ALICE kernel, loaded on first use (thread-safe)."""
    global _kernel
    if _kernel is None:
        with _kernel_lock:
            if _kernel is None:
                start = time.perf_counter()
                kernel = load_kernel()
                LOAD_STATS.update(seconds=time.perf_counter() - start, categories=kernel.numCategories())
                _kernel = kernel
    return _kernel


def persona_predicates(persona: Mapping[str, str]) -> dict[str, str]:
    return {**DEFAULT_PERSONA, **{key.strip().lower(): str(value) for key, value in persona.items()}}


def _respond(kernel, session_id: str, text: str, turn: int, persona: dict[str, str]) -> str:
    kernel._addSession(session_id)
    session = kernel._sessions[session_id]
    session[_PERSONA] = persona
    session[_RNG] = random.Random(f"{session_id}#{turn}")
    try:
        return kernel.respond(text, session_id)
    finally:
        session[_TURNS] = turn + 1


def converse(kernel, context: ReplyContext, persona: Mapping[str, str]) -> str:
    """The kernel's reply to ``context.message`` in the conversation's session (rebuilt if needed)."""
    session_id = context.conversation_key
    predicates = persona_predicates(persona)
    earlier = context.interrogator_turns()
    with _lock:
        session = kernel._sessions.get(session_id)
        if session is None or session.get(_TURNS) != len(earlier):
            kernel._deleteSession(session_id)
            for turn, text in enumerate(earlier):
                _respond(kernel, session_id, text, turn, predicates)
        _sessions[session_id] = None
        _sessions.move_to_end(session_id)
        while len(_sessions) > MAX_SESSIONS:
            kernel._deleteSession(_sessions.popitem(last=False)[0])
        try:
            return _respond(kernel, session_id, context.message, len(earlier), predicates)
        except Exception:
            kernel._deleteSession(session_id)  # half-updated state: rebuild next time
            raise


def forget(conversation_key: str) -> None:
    """Drop a finished conversation's session (optional: sessions are also evicted by age)."""
    with _lock:
        _sessions.pop(conversation_key, None)
        if _kernel is not None:
            _kernel._deleteSession(conversation_key)


class AIMLEngine(Engine):
    name = "aiml"
    label = "ALICE (AIML, Free A.L.I.C.E. set)"
    # The common ``persona`` (name, age, location, ...) sets ALICE's bot predicates; ``style`` "casual"
    # writes its answers as a person chatting would (bots.casual: lower case, contractions, slips).
    settings_spec = {
        "style": choice_setting(
            "plain", ("plain", "casual"), help="'plain' (ALICE as written) or 'casual' (lower case, slips)"
        ),
    }

    def kernel(self):
        return get_kernel()

    def reply(self, context: ReplyContext) -> str:
        persona = {**self.settings["persona"], **context.persona}
        try:
            text = converse(self.kernel(), context, persona)
        except Exception as exc:
            raise EngineError(f"AIML kernel failed: {type(exc).__name__}", transient=False) from exc
        if not isinstance(text, str) or not text.strip():
            raise EngineError("AIML produced no reply", transient=False)
        if self.settings.get("style") == "casual":
            seed = f"{context.conversation_key}#{len(context.interrogator_turns())}"
            return casual_reply(context.message, text, {k.lower(): v for k, v in persona.items()}, seed)
        return text
