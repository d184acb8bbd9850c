"""The one engine gateway: every reply of every machine, for every app, is asked for here.

This is the only module of the apps that imports :mod:`bots.registry`. It offers:

- the registry, for forms and validation: :func:`engine_choices_list`, :func:`engine_settings_validate`,
  :func:`engine_secret_keys`; :func:`engine_standalone_reply` (an engine outside any entry);
- :func:`reply_context_build`: what an engine is asked, built from plain (role, text) pairs, so that no
  other app needs :mod:`bots`;
- :func:`entry_engine_build`: an entry's engine, with what the host lends it (the learner's database
  corpus, :class:`arena.learning.DatabaseCorpus`);
- :func:`engine_ask`: one call of an entry's engine, its reply cleaned (:func:`bots.sanitize.clean_reply`);
  never raises, logs nothing (the ``talk`` command uses it as is);
- :func:`engine_reply`: the guarded reply path of every app (interrogation witnesses, the Turing Trade
  target): circuit breaker, :class:`~arena.models.EngineCall` log, retries with backoff, cleaning, the
  reading and typing delays (:meth:`bots.typing_delay.TypingModel.schedule`: the typing indicator only
  after the witness could have read the judge's message);
- :func:`engine_chat`: the same guards (breaker, call log, retries) for a caller that owns the whole
  prompt and wants the raw reply, latency and token counts (Turing the Tables);
- :func:`entry_probe`: one logged call outside any conversation (the admin's health probe);
- :func:`entry_model_check`: whether an entry's server is reachable and has its model, at no completion's
  cost where the engine can (the llm engine's ``GET /models``), for an organiser about to use it;
- :func:`outbound_policy`: the addresses engines may call (``ARENA_OUTBOUND_ALLOW``), lent to every
  engine built here and applied to URL settings when they are validated;
- for the reply tasks: :func:`reply_queue_pick` (the heavy-engine queue) and :func:`reply_task_run` (how
  a bound Celery task hops to that queue and retries with backoff).
"""

import json
import logging
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from django.conf import settings

from arena.learning import DatabaseCorpus
from arena.models import EngineCall, Entry
from arena.services.breaker import (
    ERROR_CHARS,
    CallResult,
    breaker_allows,
    breaker_record,
    engine_call_log,
    engine_call_record,
)
from bots.base import Engine, EngineError, EngineSettingsError, ReplyContext, Turn
from bots.netpolicy import AddressNotAllowed, OutboundPolicy, allow_hint, outbound_settings_check
from bots.registry import UnknownEngine, engine_choices, engine_class, get_engine
from bots.typing_delay import TypingModel
from core.dispatch import enqueue_now

log = logging.getLogger(__name__)

OUTBOUND_SETTING = "ARENA_OUTBOUND_ALLOW"  # the setting that allows non-public ranges (named in refusals)
BREAKER_OPEN = "circuit breaker open"  # engine_chat's error while an entry's breaker is open
HEAVY_ENGINES = frozenset({"aiml", "learner"})  # ALICE's kernel: ~240 MB and ~4 s to load per process
PROBE_MESSAGE = "Hello! How are you today?"
INTERNAL_ERROR = "engine failed (internal error)"  # what an entrant is told of an engine's bug


# --- the outbound policy ---------------------------------------------------------------------------


def outbound_policy() -> OutboundPolicy:
    """What engines that call out (webhook, llm) may reach: public addresses, and the ranges the
    organiser allows in ``ARENA_OUTBOUND_ALLOW``."""
    return OutboundPolicy.allowing(*settings.ARENA_OUTBOUND_ALLOW)


def engine_build(name: str, engine_settings: Mapping | None) -> Engine:
    """A new engine with the host's outbound policy lent to it (an engine that calls out and is built
    anywhere else gets the strict one)."""
    engine = get_engine(name, engine_settings)
    if hasattr(engine, "outbound"):
        engine.outbound = outbound_policy()
    return engine


# --- the registry --------------------------------------------------------------------------------


def reply_context_build(
    *, key: str, history: Iterable[tuple[str, str]], message: str, persona: Mapping | None = None
) -> ReplyContext:
    """The context of a reply: ``history`` as (role, text) pairs in order, role "interrogator" (the one
    asking) or "witness" (the machine); ``key`` names the conversation (engines seed their choices by it)."""
    turns = tuple(Turn(role=role, text=text) for role, text in history)
    persona = {k: str(v) for k, v in (persona or {}).items()}
    return ReplyContext(conversation_key=key, history=turns, message=message, persona=persona)


def engine_standalone_reply(
    *, engine: str, engine_settings: Mapping | None, key: str
) -> Callable[[Iterable[tuple[str, str]], str], str]:
    """An engine outside any entry, as a callable ``reply(history, message) -> text`` (the
    ``python -m lpp.entry`` tool runs one as an LPP program): replies cleaned as every reply is, but no
    breaker or call log, since there is no entry to keep them for. Raises
    :class:`bots.registry.UnknownEngine` (a KeyError) or :class:`bots.base.EngineSettingsError` (a
    ValueError) at once; the callable raises :class:`bots.base.EngineError` when the engine fails."""
    from bots.sanitize import clean_reply

    instance = engine_build(engine, dict(engine_settings or {}))
    max_chars = settings.ARENA_BOT_REPLY_MAX_CHARS

    def reply(history: Iterable[tuple[str, str]], message: str) -> str:
        context = reply_context_build(key=key, history=history, message=message)
        return clean_reply(instance.reply(context), max_chars=max_chars)

    return reply


def engine_choices_list() -> list[tuple[str, str]]:
    """``(name, label)`` of every registry engine, for a choice field."""
    return engine_choices()


def engine_settings_help(*, engine: str) -> list[tuple[str, str]]:
    """``(key, help)`` of a registry engine's own settings (the common persona and typing keys left out)."""
    return [(key, spec.help) for key, spec in engine_class(engine).settings_spec.items()]


def engine_settings_validate(*, engine: str, settings: Mapping) -> dict:
    """Cleaned settings (defaults filled in); raises KeyError (unknown engine) or ValueError (bad settings,
    a URL whose host is an address :func:`outbound_policy` refuses among them)."""
    cls = engine_class(engine)
    cleaned = cls.validate_settings(settings)
    outbound_settings_check(cls, cleaned, outbound_policy(), OUTBOUND_SETTING)
    return cleaned


def engine_secret_keys(*, engine: str) -> tuple[str, ...]:
    """The settings keys an engine keeps secret (never shown back); () for an unknown engine."""
    try:
        return tuple(getattr(engine_class(engine), "secret_keys", ()))
    except (UnknownEngine, ImportError, TypeError):
        return ()


def entry_engine_build(*, entry: Entry) -> Engine:
    """A new instance of ``entry``'s engine with its settings. An engine that reads a corpus (the learner)
    gets the arena's database corpus; every engine gets :func:`outbound_policy`. Raises like
    :func:`engine_standalone_reply`."""
    engine = engine_build(entry.engine, entry.settings)
    if hasattr(engine, "corpus"):
        engine.corpus = DatabaseCorpus()
    return engine


# --- one call ------------------------------------------------------------------------------------


def engine_ask(*, entry: Entry, context: ReplyContext, max_chars: int | None = None) -> CallResult:
    """Ask ``entry``'s engine for a reply and clean it (:func:`bots.sanitize.clean_reply`). Never raises;
    logs nothing and leaves the breaker alone (:func:`engine_reply` does both).

    A failure has two texts: ``error``, the detail (an HTTP status, an exception's name: the organiser's,
    kept in :class:`~arena.models.EngineCall`), and ``public_error``, what an entrant may be told (the
    engine's neutral category, :attr:`bots.base.EngineError.public_text`), which never says what answered
    at an address."""
    from bots.sanitize import clean_reply

    max_chars = max_chars or settings.ARENA_BOT_REPLY_MAX_CHARS
    start = time.perf_counter()
    detail = public = ""
    try:
        engine = entry_engine_build(entry=entry)
        raw = engine.reply(context)
        text = clean_reply(raw, max_chars=max_chars)
        detail = getattr(engine, "last_source", "") or ""
        if text != raw:
            detail = (
                f"{detail}; reply cleaned ({len(raw) if isinstance(raw, str) else '?'} → {len(text)} chars)".lstrip(
                    "; "
                )
            )
        outcome, error, transient = EngineCall.Outcome.OK, "", False
    except EngineError as exc:
        text, error, transient, public = "", str(exc), exc.transient, exc.public_text
        outcome = EngineCall.Outcome.TIMEOUT if "timed out" in error else EngineCall.Outcome.ERROR
    except Exception as exc:  # a bug or bad settings in an engine must not break the conversation
        log.exception("entry %s (%s): engine raised", entry.pk, entry.engine)
        text, error, transient = "", f"{type(exc).__name__}: {exc}", False
        # stored settings the engine refuses are the entrant's own; a bug's text is the organiser's
        public = f"bad settings: {exc}" if isinstance(exc, EngineSettingsError) else INTERNAL_ERROR
        outcome = EngineCall.Outcome.ERROR
    latency_ms = int((time.perf_counter() - start) * 1000)
    return CallResult(
        outcome, text, latency_ms, error[:ERROR_CHARS], transient, detail[:200], public_error=public[:ERROR_CHARS]
    )


# --- the guarded reply path ----------------------------------------------------------------------


@dataclass(frozen=True)
class EngineReply:
    text: str  # cleaned
    delay_s: float  # seconds after the judge's message when it is shown (reading, thinking, typing)
    typing: TypingModel  # the entry's typing model (keystroke mode types the reply itself)
    typing_after_s: float = 0.0  # seconds after the judge's message when typing starts (reading, thinking)


def retry_countdown(*, attempt: int) -> float | None:
    """Seconds before retry number ``attempt + 1`` of a transient failure, or None when none is left.

    Exponential backoff with jitter: base * 2**attempt * U(0.8, 1.2); ``ARENA_BOT_RETRIES`` retries
    (default 2) from ``ARENA_BOT_RETRY_BASE_S`` (default 1 s).
    """
    if attempt >= settings.ARENA_BOT_RETRIES:
        return None
    return settings.ARENA_BOT_RETRY_BASE_S * 2**attempt * random.uniform(0.8, 1.2)


def reply_cap(interrogation) -> int:
    """The most characters a machine's reply may have: the platform's cap, or the interrogation's message
    policy's when that is smaller (a study's cap binds machines as it binds people: length is no tell)."""
    cap = settings.ARENA_BOT_REPLY_MAX_CHARS
    own = interrogation.max_message_chars
    return min(cap, own) if own else cap


def engine_reply(
    *,
    entry: Entry,
    context: ReplyContext,
    subject: str,
    conversation=None,
    trigger_seq=None,
    attempt: int = 0,
    retry: Callable[[float], None] | None = None,
    max_chars: int | None = None,
) -> EngineReply | None:
    """Ask ``entry``'s engine for its reply to ``context``, guarded; None when there is none.

    Skipped (and logged as skipped) while the entry's circuit breaker is open. Every call is logged in
    :class:`~arena.models.EngineCall` with ``subject`` (and ``conversation``/``trigger_seq`` for a
    conversation) and fed to the breaker. A transient failure with retries left calls
    ``retry(countdown)`` (:func:`reply_task_run` makes one for a task) before None is returned. The reply
    is cut to ``max_chars`` (default: the platform's cap).
    """
    call = dict(subject=subject, conversation=conversation, trigger_seq=trigger_seq, attempt=attempt)
    if not breaker_allows(entry):
        engine_call_log(entry, CallResult(EngineCall.Outcome.SKIPPED, error=BREAKER_OPEN), **call)
        return None
    result = engine_ask(entry=entry, context=context, max_chars=max_chars)
    engine_call_log(entry, result, **call)
    breaker_record(entry, result)
    if not result.ok:
        countdown = retry_countdown(attempt=attempt) if result.transient else None
        if countdown is not None and retry is not None:
            retry(countdown)
        return None
    model = typing_model_load(entry=entry)
    typing_after_s, delay_s = model.schedule(context.message, result.text, random.Random())
    return EngineReply(result.text, delay_s, model, typing_after_s)


_chat_engines = threading.local()
CHAT_ENGINES_KEPT = 32


def _chat_engine(entry: Entry) -> Engine:
    """``entry``'s engine, kept per thread while its settings stay the same: building an llm engine
    builds an HTTP client (its TLS context alone takes tens of ms), which a game's every turn would pay."""
    cache = getattr(_chat_engines, "cache", None)
    if cache is None:
        cache = _chat_engines.cache = {}
    key = (
        entry.pk,
        entry.engine,
        json.dumps(entry.settings, sort_keys=True, default=str),
        tuple(settings.ARENA_OUTBOUND_ALLOW),
    )
    engine = cache.get(key)
    if engine is None:
        if len(cache) >= CHAT_ENGINES_KEPT:
            cache.clear()
        engine = cache[key] = entry_engine_build(entry=entry)
    return engine


@dataclass(frozen=True)
class ChatReply:
    """What :func:`engine_chat` got: ``ok`` with the text (cleaned), the server's raw response, latency
    and token counts of the call that answered; or not ``ok`` with the last ``error``. ``attempts``
    counts the calls made (each one is a row of the call log). ``latency_ms`` is whole milliseconds, as
    the call log keeps it; ``latency_exact_ms`` the same latency unrounded, for a caller that subtracts
    the calls' time from its own (a truncated figure would count up to 1 ms a call as the caller's)."""

    ok: bool
    text: str = ""
    raw: dict | None = None
    latency_ms: int = 0
    tokens_in: int | None = None
    tokens_out: int | None = None
    error: str = ""
    attempts: int = 0
    latency_exact_ms: float = 0.0
    cut_from: int = 0  # the reply's whole length when the engine cut it to its ``max_reply_chars``; 0 = whole


def engine_chat(
    *,
    entry: Entry,
    messages: list[dict],
    subject: str,
    json_mode: bool = False,
    sleep: Callable[[float], None] = time.sleep,
    flush: bool = True,
) -> ChatReply:
    """One guarded call of ``entry``'s engine with the caller's whole prompt (``messages``: role
    system/user/assistant, text content), for callers that own their prompts (Turing the Tables).

    As :func:`engine_reply`: skipped while the breaker is open, every call logged in
    :class:`~arena.models.EngineCall` with ``subject`` and fed to the breaker; a transient failure
    (timeout, unreachable, 5xx) is tried again after :func:`retry_countdown` (in this thread: the caller
    is a task) until none is left. Only engines with a ``chat`` method (the llm engine) can answer;
    never raises.

    ``flush`` False: each attempt's log and breaker still commit at once (other workers see the breaker),
    but PostgreSQL does not wait for that commit's WAL flush (``synchronous_commit`` off for that one
    transaction), for a caller whose own later commit makes them durable: the WAL is flushed in order,
    so the caller's synchronous commit flushes this one too (a Tables turn's outcome). Only a crash of
    the database server before then loses the log, with the caller's unwritten work that needed it.
    (:func:`arena.services.breaker.engine_call_record`: a healthy entry's success costs one round trip.)"""
    from bots.sanitize import clean_reply

    attempt = 0
    while True:
        if not breaker_allows(entry):
            engine_call_log(
                entry,
                CallResult(EngineCall.Outcome.SKIPPED, error=BREAKER_OPEN),
                subject=subject,
                attempt=attempt,
            )
            return ChatReply(False, error=BREAKER_OPEN, attempts=attempt + 1)
        reply, transient = None, False
        start = time.perf_counter()
        try:
            engine = _chat_engine(entry)
            if not hasattr(engine, "chat"):
                raise EngineError(f"engine {entry.engine!r} cannot take a whole prompt")
            start = time.perf_counter()  # the call's latency, not the engine's construction
            answer = engine.chat(messages, json_mode=json_mode)
            text = clean_reply(answer.text, max_chars=max(len(answer.text), 1))
            reply = (text, answer.raw, answer.tokens_in, answer.tokens_out, getattr(answer, "cut_from", 0))
            outcome, error = EngineCall.Outcome.OK, ""
        except EngineError as exc:
            error, transient = str(exc), exc.transient
            outcome = EngineCall.Outcome.TIMEOUT if "timed out" in error else EngineCall.Outcome.ERROR
        except Exception as exc:  # an engine's bug must not break the caller
            log.exception("entry %s (%s): chat raised", entry.pk, entry.engine)
            error, outcome = f"{type(exc).__name__}: {exc}", EngineCall.Outcome.ERROR
        exact_ms = (time.perf_counter() - start) * 1000
        latency_ms = int(exact_ms)
        result = CallResult(outcome, reply[0] if reply else "", latency_ms, error[:ERROR_CHARS], transient)
        engine_call_record(entry, result, subject=subject, attempt=attempt, flush=flush)
        if reply is not None:
            return ChatReply(
                True,
                reply[0],
                reply[1],
                latency_ms,
                reply[2],
                reply[3],
                attempts=attempt + 1,
                latency_exact_ms=exact_ms,
                cut_from=reply[4],
            )
        countdown = retry_countdown(attempt=attempt) if transient else None
        if countdown is None:
            return ChatReply(
                False, latency_ms=latency_ms, error=error[:ERROR_CHARS], attempts=attempt + 1, latency_exact_ms=exact_ms
            )
        sleep(countdown)
        attempt += 1


def typing_model_load(*, entry: Entry) -> TypingModel:
    """The entry's human-like typing model (``think_s``, ``per_char_s``, ``jitter`` in its settings)."""
    return TypingModel.from_settings(entry.settings)


def entry_probe(*, entry_id: int, message: str = PROBE_MESSAGE, for_organiser: bool = False) -> dict:
    """Test an entry with one message outside any conversation; logged and fed to the breaker.

    Returns ``{"outcome", "latency_ms", "reply", "error", "healthy"}``. ``error`` is the neutral text an
    entrant may see ("address not allowed", "no valid reply (...)"), never what answered; the detail is
    in the call log, and in ``error`` when ``for_organiser`` (the admin's probe action). External
    engines (pull, lpp) are answered by their own programs and cannot be probed this way (outcome
    "skipped").
    """
    entry = Entry.objects.get(pk=entry_id)
    if entry.is_external:
        return {
            "outcome": EngineCall.Outcome.SKIPPED,
            "latency_ms": 0,
            "reply": "",
            "error": "external engine: answered by the entrant's own program",
            "healthy": None,
        }
    context = ReplyContext(conversation_key=f"probe-{uuid.uuid4()}", history=(), message=message)
    result = engine_ask(entry=entry, context=context)
    engine_call_log(entry, result, kind=EngineCall.Kind.PROBE, subject="probe")
    health = breaker_record(entry, result)
    return {
        "outcome": result.outcome,
        "latency_ms": result.latency_ms,
        "reply": result.text,
        "error": result.error if for_organiser else result.public_error,
        "healthy": health.healthy,
    }


def entry_model_check(*, entry: Entry) -> dict:
    """Whether ``entry``'s server is reachable and has its model, for an organiser about to use it, at
    no completion's cost where the engine can (the llm engine: ``GET /models``, one minimal call only on a
    server without it). Logged in the call log as a probe; a success closes the entry's breaker (a failure
    leaves it be). Engines without a network check (the built-in ones) pass. Returns ``{"ok", "how",
    "error"}``: ``error`` says what failed and, for an address the outbound policy refuses, how to allow it
    (:data:`OUTBOUND_SETTING`)."""
    start = time.perf_counter()
    try:
        engine = entry_engine_build(entry=entry)
        check = getattr(engine, "model_check", None)
        how = check() if check else "no network check needed"
        result = CallResult(EngineCall.Outcome.OK, detail=how[:200])
        error = ""
    except AddressNotAllowed as exc:
        how, error = "", f"{exc}; {allow_hint(exc.address, OUTBOUND_SETTING)}"
        result = CallResult(EngineCall.Outcome.ERROR, error=str(exc)[:ERROR_CHARS])
    except EngineError as exc:
        how, error = "", str(exc)
        outcome = EngineCall.Outcome.TIMEOUT if "timed out" in error else EngineCall.Outcome.ERROR
        result = CallResult(outcome, error=error[:ERROR_CHARS], transient=exc.transient)
        if exc.transient:  # nothing answered in time: say what to look at
            error += "; is the server running, and is base_url its OpenAI-compatible root (e.g. http://host:11434/v1)?"
    except Exception as exc:  # bad stored settings or an engine's bug: refused, not raised
        log.exception("entry %s (%s): model check raised", entry.pk, entry.engine)
        how, error = "", f"{type(exc).__name__}: {exc}"
        result = CallResult(EngineCall.Outcome.ERROR, error=error[:ERROR_CHARS])
    result.latency_ms = int((time.perf_counter() - start) * 1000)
    engine_call_log(entry, result, kind=EngineCall.Kind.PROBE, subject="model check")
    if result.ok:  # a server found working closes a breaker a past failure left open
        breaker_record(entry, result)
    return {"ok": result.ok, "how": how, "error": error}


# --- the reply tasks: heavy-engine queue, retries ------------------------------------------------


def reply_queue_pick(*, engine: str | None) -> str:
    """The Celery queue for replies of this engine: ``ARENA_BOTS_QUEUE`` (e.g. "bots", served by
    ``celery -A config worker -Q bots``) for engines that load ALICE, so web-facing workers never pay
    its memory; "" (the default queue) otherwise, or when that setting is empty."""
    queue = settings.ARENA_BOTS_QUEUE
    return queue if queue and engine in HEAVY_ENGINES else ""


def reply_task_run(*, task, args: tuple, attempt: int, queue: str, compose: Callable[..., bool]) -> bool:
    """The body of a bound reply task called as ``task(*args, attempt)``; ``compose(attempt=, retry=)``
    asks :func:`engine_reply` and schedules the delivery.

    A heavy engine's reply hops to ``queue`` (its own workers) unless it is already there or runs
    in-process. ``retry(countdown)`` tries a transient failure again later: Celery's retry with a
    countdown on a worker, a fresh in-process timer in the embedded default (where Celery's eager
    retry would not wait).
    """
    request = task.request
    attempt = max(attempt, request.retries or 0)
    if queue and not request.is_eager and (request.delivery_info or {}).get("routing_key") != queue:
        task.apply_async(args=(*args, attempt), queue=queue)
        return False

    def retry(countdown: float) -> None:
        if request.is_eager:
            enqueue_now(task, *args, attempt + 1, countdown=countdown)
        else:
            raise task.retry(countdown=countdown)

    return compose(attempt=attempt, retry=retry)
