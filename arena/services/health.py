"""Machine witnesses' health: one guarded engine call, its log, the per-entry circuit breaker, probes.

Every call of an entry's engine goes through :func:`engine_call` (never raises), is written to
:class:`~arena.models.EngineCall` and feeds the breaker in :class:`~arena.models.EntryHealth`:

- closed (healthy): calls go through; each failure counts, a success resets the count;
- open: after ``ARENA_BOT_BREAKER_FAILURES`` consecutive failures (default 5) the entry is unhealthy
  (reason and time kept for the admin) and its calls are skipped;
- half-open: ``ARENA_BOT_BREAKER_COOLDOWN_S`` (default 60) after it opened, one caller claims a trial
  call (compare-and-set on the open time, so concurrent workers do not all try); success closes the
  breaker, failure opens it for another cool-down.
"""
import logging
import time
import uuid
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.models import EngineCall, Entry, EntryHealth

log = logging.getLogger(__name__)

PROBE_MESSAGE = "Hello! How are you today?"
ERROR_CHARS = 500


def breaker_failures() -> int:
    return settings.ARENA_BOT_BREAKER_FAILURES


def breaker_cooldown() -> timedelta:
    return timedelta(seconds=settings.ARENA_BOT_BREAKER_COOLDOWN_S)


@dataclass
class CallResult:
    outcome: str  # an EngineCall.Outcome value
    text: str = ""
    latency_ms: int = 0
    error: str = ""
    transient: bool = False
    detail: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.outcome == EngineCall.Outcome.OK


def engine_call(entry: Entry, context, *, max_chars: int | None = None) -> CallResult:
    """Ask ``entry``'s engine for a reply and clean it (:func:`bots.sanitize.clean_reply`). Never raises."""
    from bots.base import EngineError
    from bots.registry import get_engine
    from bots.sanitize import clean_reply

    max_chars = max_chars or settings.ARENA_BOT_REPLY_MAX_CHARS
    start = time.perf_counter()
    detail = ""
    try:
        engine = get_engine(entry.engine, entry.settings)
        raw = engine.reply(context)
        text = clean_reply(raw, max_chars=max_chars)
        detail = getattr(engine, "last_source", "") or ""
        if text != raw:
            detail = f"{detail}; reply cleaned ({len(raw) if isinstance(raw, str) else '?'} → {len(text)} chars)".lstrip("; ")
        outcome, error, transient = EngineCall.Outcome.OK, "", False
    except EngineError as exc:
        text, error, transient = "", str(exc), exc.transient
        outcome = EngineCall.Outcome.TIMEOUT if "timed out" in error else EngineCall.Outcome.ERROR
    except Exception as exc:  # a bug or bad settings in an engine must not break the conversation
        log.exception("entry %s (%s): engine raised", entry.pk, entry.engine)
        text, error, transient = "", f"{type(exc).__name__}: {exc}", False
        outcome = EngineCall.Outcome.ERROR
    latency_ms = int((time.perf_counter() - start) * 1000)
    return CallResult(outcome, text, latency_ms, error[:ERROR_CHARS], transient, detail[:200])


def engine_call_log(entry: Entry, result: CallResult, *, kind=EngineCall.Kind.REPLY, conversation=None,
                    trigger_seq=None, attempt=0) -> EngineCall:
    if not result.ok:
        log.warning("entry %s (%s) %s: %s %s", entry.pk, entry.engine, kind, result.outcome, result.error)
    return EngineCall.objects.create(
        entry=entry, conversation=conversation, trigger_seq=trigger_seq, kind=kind, attempt=attempt,
        outcome=result.outcome, transient=result.transient, latency_ms=result.latency_ms,
        error=result.error, detail=result.detail,
    )


# --- the breaker -------------------------------------------------------------------------------


def breaker_allows(entry: Entry) -> bool:
    """True when a call may go through (closed, or this caller claimed the half-open trial)."""
    health, _ = EntryHealth.objects.get_or_create(entry=entry)
    if health.unhealthy_since is None:
        return True
    now = timezone.now()
    if now - health.unhealthy_since < breaker_cooldown():
        return False
    claimed = EntryHealth.objects.filter(pk=health.pk, unhealthy_since=health.unhealthy_since).update(unhealthy_since=now)
    return claimed == 1


def breaker_record(entry: Entry, result: CallResult) -> EntryHealth:
    now = timezone.now()
    with transaction.atomic():
        EntryHealth.objects.get_or_create(entry=entry)
        health = EntryHealth.objects.select_for_update().get(entry=entry)
        if result.ok:
            health.consecutive_failures = 0
            health.unhealthy_since = None
            health.last_ok_at = now
        else:
            health.consecutive_failures += 1
            health.last_error = f"{result.outcome}: {result.error}"[:ERROR_CHARS]
            health.last_error_at = now
            if health.consecutive_failures >= breaker_failures():
                if health.unhealthy_since is None:
                    log.error("entry %s (%s) marked unhealthy: %s", entry.pk, entry.engine, health.last_error)
                health.unhealthy_since = now  # (re)opens: a failed half-open trial waits another cool-down
        health.save()
    return health


def entry_health_reset(*, entry_id: int) -> None:
    """Close the breaker by hand (the organiser fixed the entry)."""
    EntryHealth.objects.filter(entry_id=entry_id).update(consecutive_failures=0, unhealthy_since=None)


# --- probes ------------------------------------------------------------------------------------


def entry_probe(*, entry_id: int, message: str = PROBE_MESSAGE) -> dict:
    """Test an entry with one message outside any conversation; logged and fed to the breaker.

    Returns ``{"outcome", "latency_ms", "reply", "error", "healthy"}``. External engines (pull, lpp)
    are answered by their own programs and cannot be probed this way (outcome "skipped").
    """
    from bots.base import ReplyContext

    entry = Entry.objects.get(pk=entry_id)
    if entry.is_external:
        return {"outcome": EngineCall.Outcome.SKIPPED, "latency_ms": 0, "reply": "",
                "error": "external engine: answered by the entrant's own program", "healthy": None}
    context = ReplyContext(conversation_key=f"probe-{uuid.uuid4()}", history=(), message=message)
    result = engine_call(entry, context)
    engine_call_log(entry, result, kind=EngineCall.Kind.PROBE)
    health = breaker_record(entry, result)
    return {"outcome": result.outcome, "latency_ms": result.latency_ms, "reply": result.text,
            "error": result.error, "healthy": health.healthy}
