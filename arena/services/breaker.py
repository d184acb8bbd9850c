"""Machines' health: the call log and the per-entry circuit breaker.

Every call of an entry's engine is made by the gateway (:mod:`arena.services.engines`), written to
:class:`~arena.models.EngineCall` here and fed to the breaker in :class:`~arena.models.EntryHealth`:

- closed (healthy): calls go through; each failure counts, a success resets the count;
- open: after ``ARENA_BOT_BREAKER_FAILURES`` consecutive failures (default 5) the entry is unhealthy
  (reason and time kept for the admin) and its calls are skipped;
- half-open: ``ARENA_BOT_BREAKER_COOLDOWN_S`` (default 60) after it opened, one caller claims a trial
  call (compare-and-set on the open time, so concurrent workers do not all try); success closes the
  breaker, failure opens it for another cool-down.
"""

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from arena.models import EngineCall, Entry, EntryHealth
from core import metrics
from core.db import Statement, batched, insert_if_updated, statements_run, update_where

log = logging.getLogger(__name__)

ERROR_CHARS = 500
SUBJECT_CHARS = 100


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
    public_error: str = ""  # what an entrant may see of ``error`` ("" = ``error`` itself may be shown)

    @property
    def ok(self) -> bool:
        return self.outcome == EngineCall.Outcome.OK


def engine_call_log(
    entry: Entry,
    result: CallResult,
    *,
    kind=EngineCall.Kind.REPLY,
    subject: str = "",
    conversation=None,
    trigger_seq=None,
    attempt=0,
) -> EngineCall:
    """One row of the call log; ``subject`` says what the call was for ("conversation 7 message 3",
    "markets game 3 question 5"), since not every call belongs to a conversation."""
    row = _call_row(
        entry, result, kind=kind, subject=subject, conversation=conversation, trigger_seq=trigger_seq, attempt=attempt
    )
    row.save(force_insert=True)
    metrics.ENGINE_CALLS.labels(engine=entry.engine, outcome=result.outcome).inc()
    return row


def _call_row(
    entry: Entry,
    result: CallResult,
    *,
    kind=EngineCall.Kind.REPLY,
    subject: str = "",
    conversation=None,
    trigger_seq=None,
    attempt=0,
) -> EngineCall:
    if not result.ok:
        log.warning("entry %s (%s) %s %s: %s %s", entry.pk, entry.engine, kind, subject, result.outcome, result.error)
    return EngineCall(
        entry=entry,
        subject=subject[:SUBJECT_CHARS],
        conversation=conversation,
        trigger_seq=trigger_seq,
        kind=kind,
        attempt=attempt,
        outcome=result.outcome,
        transient=result.transient,
        latency_ms=result.latency_ms,
        error=result.error,
        public_error=public_error_text(result),
        detail=result.detail,
    )


def engine_call_record(entry: Entry, result: CallResult, *, subject: str, attempt: int = 0, flush: bool = True) -> None:
    """A call's log and the breaker fed with it, in one transaction (one commit, one WAL flush, not two).

    ``flush`` False: outside a caller's transaction on PostgreSQL, that commit does not wait for its WAL
    flush (``synchronous_commit`` off for that transaction alone), for a caller whose own later commit
    makes it durable (the WAL is flushed in order). Never inside a caller's transaction: ``SET LOCAL``
    would last until the caller's commit.

    A healthy entry's success (the common case) is one round trip where :func:`core.db.batched`: one
    statement that moves the breaker's ``last_ok_at`` if it is closed and clean and, only then, inserts
    the log's row (:func:`core.db.insert_if_updated`). Otherwise (a failure, a breaker with failures
    counted, no breaker row yet) nothing of it is written, and the log and :func:`breaker_record` follow
    in one transaction."""
    relaxed = not flush and connection.vendor == "postgresql" and not connection.in_atomic_block
    if result.ok and batched():
        statements = [Statement("SET LOCAL synchronous_commit TO OFF")] if relaxed else []
        statements.append(
            insert_if_updated(
                update_where(EntryHealth, _CLEAN | {"entry": entry.pk}, last_ok_at=timezone.now()),
                _call_row(entry, result, subject=subject, attempt=attempt),
            )
        )
        if statements_run(statements)[-1][0]:
            metrics.ENGINE_CALLS.labels(engine=entry.engine, outcome=result.outcome).inc()
            return
    with transaction.atomic():
        if relaxed:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        engine_call_log(entry, result, subject=subject, attempt=attempt)
        breaker_record(entry, result)


def public_error_text(result: CallResult) -> str:
    """What the entry's owner may be told of a failure: the neutral text, never what answered."""
    return "" if result.ok else (result.public_error or result.error)[:ERROR_CHARS]


# --- the breaker -------------------------------------------------------------------------------


def breaker_allows(entry: Entry) -> bool:
    """True when a call may go through (closed, or this caller claimed the half-open trial). A closed
    breaker (the common case) costs one small read, not the ORM's get_or_create."""
    with connection.cursor() as cursor:
        cursor.execute(_breaker_closed_sql(), [entry.pk])
        row = cursor.fetchone()
    if row is not None and row[0]:
        return True
    health, _ = EntryHealth.objects.get_or_create(entry=entry)
    if health.unhealthy_since is None:
        return True
    now = timezone.now()
    if now - health.unhealthy_since < breaker_cooldown():
        return False
    claimed = EntryHealth.objects.filter(pk=health.pk, unhealthy_since=health.unhealthy_since).update(
        unhealthy_since=now
    )
    return claimed == 1


def breaker_record(entry: Entry, result: CallResult) -> EntryHealth:
    now = timezone.now()
    if result.ok:  # the common case, a healthy entry answering: one statement, no lock, same outcome
        if _breaker_clean(entry).update(last_ok_at=now):
            return EntryHealth(entry=entry, consecutive_failures=0, unhealthy_since=None, last_ok_at=now)
    with transaction.atomic():
        EntryHealth.objects.get_or_create(entry=entry)
        health = EntryHealth.objects.select_for_update().get(entry=entry)
        if result.ok:
            health.consecutive_failures = 0
            health.unhealthy_since = None
            health.last_ok_at = now
        else:
            health.consecutive_failures += 1
            # shown to the entrant by the API: the neutral text; the detail stays in the call log
            health.last_error = f"{result.outcome}: {public_error_text(result)}"[:ERROR_CHARS]
            health.last_error_at = now
            if health.consecutive_failures >= breaker_failures():
                if health.unhealthy_since is None:
                    log.error(
                        "entry %s (%s) marked unhealthy: %s: %s", entry.pk, entry.engine, result.outcome, result.error
                    )
                health.unhealthy_since = now  # (re)opens: a failed half-open trial waits another cool-down
        health.save()
    return health


def _breaker_closed_sql() -> str:
    qn, meta = connection.ops.quote_name, EntryHealth._meta
    column = meta.get_field("unhealthy_since").column
    return f"SELECT {qn(column)} IS NULL FROM {qn(meta.db_table)} WHERE {qn(meta.get_field('entry').column)} = %s"


_CLEAN = {"consecutive_failures": 0, "unhealthy_since": None}


def _breaker_clean(entry: Entry):
    """The entry's breaker if closed with no failure counted: a success there changes only ``last_ok_at``."""
    return EntryHealth.objects.filter(entry=entry, **_CLEAN)


def entry_health_reset(*, entry_id: int) -> None:
    """Close the breaker by hand (the organiser fixed the entry)."""
    EntryHealth.objects.filter(entry_id=entry_id).update(consecutive_failures=0, unhealthy_since=None)
