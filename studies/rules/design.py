"""A study's design: its JSON configuration, validated, with defaults filled in (pure, no Django).

Every refusal is a :class:`DesignError` naming the key and what it should be, so a researcher can fix a
preregistered file from the message alone.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from fractions import Fraction

TWO_PARTY, THREE_PARTY = "two-party", "three-party"
STRICT, FREE = "strict", "free"
FALLBACK_AI, FALLBACK_CANCEL = "ai", "cancel"
HUMAN = "human"  # the human witnesses' name in every analysis
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.+-]{0,59}\Z")
KEY = re.compile(r"[a-z][a-z0-9_]{0,39}\Z")
QUESTION_TYPES = ("text", "choice", "number")
DEFAULT_IDENTITY_WORDS = (
    "openai",
    "chatgpt",
    "gpt-3",
    "gpt-4",
    "gpt4",
    "anthropic",
    "claude",
    "llama",
    "meta ai",
    "gemini",
    "bard",
    "mistral",
    "ai21",
    "jurassic",
    "cohere",
    "language model",
    "large language model",
)


class DesignError(ValueError):
    """A configuration that cannot be run as it stands."""


@dataclass(frozen=True)
class Witness:
    name: str
    engine: str
    settings: dict
    persona: str = ""  # the condition's label, e.g. "PERSONA" or "NO-PERSONA" ("" when none)
    label: str = ""  # what players are told it was ("" : "an AI"); `name` stays internal


@dataclass(frozen=True)
class Question:
    key: str
    label: str
    type: str = "text"
    choices: tuple[str, ...] = ()
    required: bool = True
    answer: str = ""  # attention checks: the answer that passes


@dataclass(frozen=True)
class Design:
    format: str
    minutes: float
    witnesses: tuple[Witness, ...]
    human_witness_share: float
    games_per_participant: int
    seed: int
    title: str = "Human or AI?"
    max_message_chars: int = 300
    turn_taking: str = STRICT
    role_switching: bool = True
    repeat_partners: bool = False
    human_wait_s: float = 30.0  # the longest wait for a partner (the draws' upper bound)
    min_wait_s: float = 5.0  # the shortest wait (the draws' lower bound)
    fallback: str = FALLBACK_AI
    games_per_day: int = 40
    consent_text: str = (
        "This is a research study. Your messages and answers are stored and analysed under an "
        "anonymous id; they may be published without anything that identifies you."
    )
    demographics: tuple[Question, ...] = ()
    exit_questions: tuple[Question, ...] = ()
    attention_checks: tuple[Question, ...] = ()
    max_failed_attention_checks: int = 0
    identity_words: tuple[str, ...] = DEFAULT_IDENTITY_WORDS
    one_participation_per_device: bool = False
    spectator_markets: bool = False  # the public may watch games (spectator_delay_s behind) and bet on them
    spectator_delay_s: float = 60.0
    extra: dict = field(default_factory=dict)  # keys the platform does not read, kept with the study

    @property
    def time_limit_s(self) -> int:
        return max(10, round(self.minutes * 60))

    @property
    def witness_names(self) -> tuple[str, ...]:
        return tuple(w.name for w in self.witnesses)

    def as_config(self) -> dict:
        """The configuration as JSON data (what `design_read` reads back to the same design)."""
        data = asdict(self)
        extra = data.pop("extra")
        for key in ("witnesses", "demographics", "exit_questions", "attention_checks", "identity_words"):
            data[key] = list(data[key])
        for key in ("demographics", "exit_questions", "attention_checks"):
            data[key] = [{**q, "choices": list(q["choices"])} for q in data[key]]
        return {**extra, **data}


def _number(config, key, default, *, low, high, integer=False):
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise DesignError(f"{key} must be a number from {low} to {high}, not {value!r}.")
    if integer and int(value) != value:
        raise DesignError(f"{key} must be a whole number, not {value!r}.")
    if not low <= value <= high:
        raise DesignError(f"{key} must be from {low} to {high}, not {value!r}.")
    return int(value) if integer else float(value)


def _choice(config, key, default, options):
    value = config.get(key, default)
    if value not in options:
        raise DesignError(f"{key} must be one of {', '.join(map(repr, options))}, not {value!r}.")
    return value


def _flag(config, key, default):
    value = config.get(key, default)
    if not isinstance(value, bool):
        raise DesignError(f"{key} must be true or false, not {value!r}.")
    return value


def _text(config, key, default, *, max_chars):
    value = config.get(key, default)
    if not isinstance(value, str) or len(value) > max_chars:
        raise DesignError(f"{key} must be text of at most {max_chars} characters.")
    return value.strip()


def _witnesses(raw) -> tuple[Witness, ...]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= 50:
        raise DesignError("witnesses must be a list of 1 to 50 AI witnesses, each {name, engine, settings}.")
    witnesses, seen = [], set()
    for i, item in enumerate(raw):
        where = f"witnesses[{i}]"
        if not isinstance(item, dict):
            raise DesignError(f"{where} must be an object {{name, engine, settings}}.")
        name, engine, settings = item.get("name"), item.get("engine"), item.get("settings", {})
        if not isinstance(name, str) or not NAME.match(name) or name.lower() == HUMAN:
            raise DesignError(
                f"{where}.name must be 1-60 letters, digits, spaces or ._+- (and not 'human'), not {name!r}."
            )
        if name in seen:
            raise DesignError(f"{where}.name {name!r} is used twice.")
        seen.add(name)
        if not isinstance(engine, str) or not engine:
            raise DesignError(f"{where}.engine must name a bot engine (e.g. 'simple', 'eliza', 'llm').")
        if not isinstance(settings, dict):
            raise DesignError(f"{where}.settings must be an object.")
        persona = item.get("persona", item.get("condition", ""))
        if not isinstance(persona, str) or len(persona) > 40:
            raise DesignError(f"{where}.persona must be a short label such as 'PERSONA' or 'NO-PERSONA'.")
        label = item.get("label", "")
        if not isinstance(label, str) or len(label.strip()) > 60 or any(ord(ch) < 32 for ch in label):
            raise DesignError(f"{where}.label must be what players are told it was, at most 60 characters.")
        witnesses.append(Witness(name=name, engine=engine, settings=settings, persona=persona, label=label.strip()))
    return tuple(witnesses)


def _questions(raw, key, *, attention=False) -> tuple[Question, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > 30:
        raise DesignError(f"{key} must be a list of at most 30 questions.")
    questions, seen = [], set()
    for i, item in enumerate(raw):
        where = f"{key}[{i}]"
        if not isinstance(item, dict):
            raise DesignError(f"{where} must be an object {{key, label, type}}.")
        qkey, label, qtype = item.get("key"), item.get("label"), item.get("type", "text")
        if not isinstance(qkey, str) or not KEY.match(qkey) or qkey in seen:
            raise DesignError(f"{where}.key must be a unique lower-case identifier, not {qkey!r}.")
        seen.add(qkey)
        if not isinstance(label, str) or not label.strip() or len(label) > 300:
            raise DesignError(f"{where}.label must be the question's text (at most 300 characters).")
        if qtype not in QUESTION_TYPES:
            raise DesignError(f"{where}.type must be one of {', '.join(QUESTION_TYPES)}.")
        choices = item.get("choices", [])
        if qtype == "choice" and (
            not isinstance(choices, list)
            or not 2 <= len(choices) <= 30
            or not all(isinstance(c, str) and 0 < len(c) <= 100 for c in choices)
        ):
            raise DesignError(f"{where}.choices must list 2 to 30 short answers.")
        answer = item.get("answer", "")
        if attention and (not isinstance(answer, str) or not answer):
            raise DesignError(f"{where}.answer must be the answer that passes the check.")
        questions.append(
            Question(
                key=qkey,
                label=label.strip(),
                type=qtype,
                choices=tuple(choices) if qtype == "choice" else (),
                required=bool(item.get("required", True)),
                answer=answer if attention else "",
            )
        )
    return tuple(questions)


KNOWN_KEYS = {
    "format",
    "minutes",
    "witnesses",
    "human_witness_share",
    "games_per_participant",
    "seed",
    "title",
    "max_message_chars",
    "turn_taking",
    "role_switching",
    "repeat_partners",
    "human_wait_s",
    "min_wait_s",
    "fallback",
    "games_per_day",
    "consent_text",
    "demographics",
    "exit_questions",
    "attention_checks",
    "max_failed_attention_checks",
    "identity_words",
    "one_participation_per_device",
    "spectator_markets",
    "spectator_delay_s",
}


def design_read(config) -> Design:
    """The design of a configuration (a dict from JSON); raises DesignError naming what is wrong."""
    if not isinstance(config, dict):
        raise DesignError("A study configuration is a JSON object.")
    seed = config.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise DesignError(
            f"seed must be a whole number from 0 to 2^63-1 (it makes the study repeatable), not {seed!r}."
        )
    identity = config.get("identity_words", list(DEFAULT_IDENTITY_WORDS))
    if not isinstance(identity, list) or not all(isinstance(w, str) and 0 < len(w.strip()) <= 60 for w in identity):
        raise DesignError("identity_words must be a list of words or phrases (model or vendor names).")
    title = _text(config, "title", "Human or AI?", max_chars=200) or "Human or AI?"
    consent = _text(config, "consent_text", Design.consent_text, max_chars=20_000)
    if not consent:
        raise DesignError("consent_text must not be empty: participants read it before they agree.")
    longest_wait = _number(config, "human_wait_s", 30, low=0, high=3600)
    shortest_wait = _number(config, "min_wait_s", min(5.0, longest_wait), low=0, high=3600)
    if shortest_wait > longest_wait:
        raise DesignError(
            f"min_wait_s ({shortest_wait:g}) must not be more than human_wait_s ({longest_wait:g}): "
            "every wait is drawn between the two."
        )
    return Design(
        format=_choice(config, "format", TWO_PARTY, (TWO_PARTY, THREE_PARTY)),
        minutes=_number(config, "minutes", 5, low=0.5, high=60),
        witnesses=_witnesses(config.get("witnesses")),
        human_witness_share=_number(config, "human_witness_share", 0.5, low=0, high=1),
        games_per_participant=_number(config, "games_per_participant", 4, low=1, high=1000, integer=True),
        seed=seed,
        title=title,
        max_message_chars=_number(config, "max_message_chars", 300, low=1, high=1000, integer=True),
        turn_taking=_choice(config, "turn_taking", STRICT, (STRICT, FREE)),
        role_switching=_flag(config, "role_switching", True),
        repeat_partners=_flag(config, "repeat_partners", False),
        human_wait_s=longest_wait,
        min_wait_s=shortest_wait,
        fallback=_choice(config, "fallback", FALLBACK_AI, (FALLBACK_AI, FALLBACK_CANCEL)),
        games_per_day=_number(config, "games_per_day", 40, low=1, high=10_000, integer=True),
        consent_text=consent,
        demographics=_questions(config.get("demographics"), "demographics"),
        exit_questions=_questions(config.get("exit_questions"), "exit_questions"),
        attention_checks=_questions(config.get("attention_checks"), "attention_checks", attention=True),
        max_failed_attention_checks=_number(config, "max_failed_attention_checks", 0, low=0, high=30, integer=True),
        identity_words=tuple(w.strip().lower() for w in identity),
        one_participation_per_device=_flag(config, "one_participation_per_device", False),
        spectator_markets=_flag(config, "spectator_markets", False),
        spectator_delay_s=_number(config, "spectator_delay_s", 60, low=0, high=3600),
        extra={k: v for k, v in config.items() if k not in KNOWN_KEYS},
    )


def share_fraction(share: float) -> Fraction:
    """The human-witness share as a small fraction (at most 1/100 off), for whole ticket blocks."""
    return Fraction(share).limit_denominator(100)
