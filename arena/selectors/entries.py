"""Reads for an entry's owner (its page and the API): health, the call log, transcripts, rehearsals.

Only what the owner may see: the neutral text of each failure (``EngineCall.public_error``), never the
organisers' detail (an HTTP status, an exception, what answered at an address).
"""

import math
from datetime import timedelta

from django.conf import settings
from django.db.models import Count
from django.utils import timezone

from arena import roles
from arena.models import EngineCall, Entry, EntryHealth, Interrogation, Message

WINDOW = timedelta(days=1)
RECENT_ERRORS = 5


def entry_for_viewer(*, entry_id, user) -> Entry | None:
    """The entry when ``user`` owns it or organises; None otherwise (shown as "no such entry")."""
    entry = Entry.objects.filter(pk=entry_id).select_related("owner").first()
    if entry is None or not user.is_authenticated:
        return None
    if entry.owner_id == user.pk or roles.is_organiser(user):
        return entry
    return None


def percentile(ordered: list, q: float):
    """The nearest-rank percentile ``q`` (0–100] of an ascending list; None when it is empty."""
    if not ordered:
        return None
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def breaker_state(health: EntryHealth | None, now=None) -> str:
    """closed (calls go through), open (calls skipped), half_open (the next call is a trial)."""
    if health is None or health.unhealthy_since is None:
        return "closed"
    now = now or timezone.now()
    cooldown = timedelta(seconds=settings.ARENA_BOT_BREAKER_COOLDOWN_S)
    return "open" if now - health.unhealthy_since < cooldown else "half_open"


def call_data(call: EngineCall) -> dict:
    return {
        "id": call.pk,
        "at": call.created_at,
        "kind": call.kind,
        "subject": call.subject,
        "attempt": call.attempt,
        "outcome": call.outcome,
        "latency_ms": call.latency_ms,
        "error": call.public_error,
        "detail": call.detail,
    }


def entry_calls(*, entry: Entry):
    """The entry's engine calls, newest first."""
    return EngineCall.objects.filter(entry=entry).order_by("-created_at", "-pk")


def entry_health_report(*, entry: Entry) -> dict:
    """Breaker state, failures, last error, the last day's calls by outcome and latency percentiles (of
    the calls that answered), and the latest failures."""
    now = timezone.now()
    health = EntryHealth.objects.filter(entry=entry).first()
    day = entry_calls(entry=entry).filter(created_at__gte=now - WINDOW)
    latencies = sorted(day.filter(outcome=EngineCall.Outcome.OK).values_list("latency_ms", flat=True))
    outcomes = {row["outcome"]: row["n"] for row in day.values("outcome").annotate(n=Count("pk")).order_by()}
    failures = entry_calls(entry=entry).exclude(outcome=EngineCall.Outcome.OK)[:RECENT_ERRORS]
    return {
        "breaker": breaker_state(health, now),
        "healthy": health is None or health.healthy,
        "consecutive_failures": health.consecutive_failures if health else 0,
        "unhealthy_since": health.unhealthy_since if health else None,
        "last_error": health.last_error if health else "",
        "last_error_at": health.last_error_at if health else None,
        "last_ok_at": health.last_ok_at if health else None,
        "window_s": int(WINDOW.total_seconds()),
        "calls": {outcome: outcomes.get(outcome, 0) for outcome in EngineCall.Outcome.values},
        "latency_ms": {
            "n": len(latencies),
            "p50": percentile(latencies, 50),
            "p95": percentile(latencies, 95),
            "p99": percentile(latencies, 99),
        },
        "recent_errors": [call_data(call) for call in failures],
    }


def entry_transcripts(*, entry: Entry):
    """The published interrogations (never rehearsals) in which the entry was a witness."""
    return (
        Interrogation.objects.filter(
            published_at__isnull=False,
            rehearsal=False,
            conversations__witness_entry=entry,
        )
        .distinct()
        .order_by("-published_at")
    )


def entry_rehearsals(*, entry: Entry):
    return (
        Interrogation.objects.filter(rehearsal=True, conversations__witness_entry=entry)
        .select_related("judge")
        .order_by("-created_at")
    )


def rehearsal_progress(*, entry: Entry, public_id) -> dict | None:
    """Where one of the entry's rehearsals stands: its status (and why it ended), the judge's questions
    and the entry's answers so far; None when the entry has no such rehearsal."""
    interrogation = entry_rehearsals(entry=entry).filter(public_id=public_id).first()
    if interrogation is None:
        return None
    said = dict(
        Message.objects.filter(conversation__interrogation=interrogation)
        .values_list("sender_role")
        .annotate(n=Count("pk"))
    )
    return {
        "interrogation": interrogation.public_id,
        "status": interrogation.status,
        "end_reason": interrogation.end_reason,
        "deadline": interrogation.deadline,
        "questions": said.get(Message.Role.INTERROGATOR, 0),
        "answers": said.get(Message.Role.WITNESS, 0),
    }


def rehearsal_for_viewer(*, public_id, user) -> Interrogation | None:
    """A rehearsal whose entry ``user`` owns (or any, for an organiser), with its conversation's messages."""
    interrogation = Interrogation.objects.filter(public_id=public_id, rehearsal=True).first()
    if interrogation is None or not user.is_authenticated:
        return None
    conversation = interrogation.conversations.select_related("witness_entry").first()
    entry = conversation.witness_entry if conversation else None
    if entry is None or not (entry.owner_id == user.pk or roles.is_organiser(user)):
        return None
    interrogation.sole = conversation
    return interrogation
