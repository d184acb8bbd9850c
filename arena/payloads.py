"""The shapes of everything pushed to browsers, one function per audience.

Judge payloads name witnesses only by side ("left"/"right"/"sole"); nothing in them says which one is
human, nor an entry's name, nor any database id, until the verdict is in and the interrogation's format
lets the truth be told (see `judge_reveal`, and `arena.services.verdicts.reveal_allowed`: a contest's
judges learn it when its results are published).
"""

from django.utils import timezone

from core.payloads import iso


def clock(interrogation) -> dict:
    return {
        "status": interrogation.status,
        "deadline": iso(interrogation.deadline),
        "now": iso(timezone.now()),
        "time_limit_s": interrogation.time_limit_s,
        "keystroke_mode": interrogation.keystroke_mode,
        "end_reason": interrogation.end_reason or None,
    }


# --- judge -----------------------------------------------------------------------------------
def judge_message(message, side: str) -> dict:
    return {
        "type": "message",
        "side": side,
        "seq": message.seq,
        "from": "you" if message.sender_role == "interrogator" else "witness",
        "text": message.text,
        "at": iso(message.created_at),
    }


def judge_typing(side: str) -> dict:
    return {"type": "typing", "side": side}


def judge_keys(side: str, keys: list[str]) -> dict:
    return {"type": "keys", "side": side, "keys": keys}


def held_sides(interrogation, conversations) -> list[str]:
    """The sides a running interrogation holds for now (a sequential round's other half, a paused round):
    nobody writes there until the format opens them (arena.services.timing.conversations_hold)."""
    if interrogation.status != "running":
        return []
    return sorted(c.side for c in conversations if c.status == "scheduled")


def judge_status(interrogation, conversations) -> dict:
    return {"type": "status", **clock(interrogation), "held": held_sides(interrogation, conversations)}


def judge_verdict(verdict) -> dict | None:
    if verdict is None:
        return None
    return {"choice": verdict.choice, "confidence": verdict.confidence, "reason": verdict.reason}


def judge_reveal(conversations) -> dict:
    return {
        c.side: {
            "kind": "machine" if c.witness_is_machine else "human",
            "name": c.witness_entry.display_name if c.witness_is_machine else "a human confederate",
        }
        for c in conversations
    }


# --- confederate (a human witness) -----------------------------------------------------------
def witness_message(message) -> dict:
    return {
        "type": "message",
        "seq": message.seq,
        "from": "you" if message.sender_role == "witness" else "judge",
        "text": message.text,
        "at": iso(message.created_at),
    }


def witness_typing() -> dict:
    return {"type": "typing"}


def witness_keys(keys: list[str]) -> dict:
    return {"type": "keys", "keys": keys}


def witness_status(interrogation, conversation) -> dict:
    return {"type": "status", **clock(interrogation), "held": bool(held_sides(interrogation, [conversation]))}


# --- organiser's live view -------------------------------------------------------------------
KIND_LABELS = {"three_party": "Three-party", "one_to_one": "One-to-one"}  # as an organiser reads them
MONITOR_STATUS_LABELS = {"running": "Running", "ended": "Ended, awaiting the verdict", "scheduled": "Scheduled"}


def monitor_interrogation(interrogation) -> dict:
    return {
        "id": interrogation.pk,
        "title": str(interrogation),
        "judge": interrogation.judge.get_username(),
        "kind": interrogation.kind,
        "kind_label": KIND_LABELS.get(interrogation.kind, interrogation.kind),
        **clock(interrogation),
        "status_label": MONITOR_STATUS_LABELS.get(interrogation.status, interrogation.status),
    }


def monitor_message(message, conversation, *, witness_label: str | None = None) -> dict:
    return {
        "type": "message",
        "interrogation": conversation.interrogation_id,
        "side": conversation.side,
        "witness": conversation.witness_label if witness_label is None else witness_label,
        "witness_kind": "machine" if conversation.witness_is_machine else "human",
        "seq": message.seq,
        "from": message.sender_role,
        "text": message.text,
        "at": iso(message.created_at),
    }


def monitor_status(interrogation) -> dict:
    return {"type": "status", "interrogation": monitor_interrogation(interrogation)}


def monitor_verdict(verdict) -> dict:
    return {
        "type": "verdict",
        "interrogation": verdict.interrogation_id,
        "choice": verdict.choice,
        "confidence": verdict.confidence,
        "correct": verdict.correct,
        "reason": verdict.reason,
    }


# --- spectators (the delayed feed): sides only, never a witness's name or kind before the reveal ---
SPECTATOR_LABELS = {"left": "left", "right": "right", "sole": "candidate"}


def spectator_message(message, side: str) -> dict:
    return {
        "type": "message",
        "side": side,
        "witness": SPECTATOR_LABELS.get(side, side),
        "seq": message.seq,
        "from": "judge" if message.sender_role == "interrogator" else "witness",
        "text": message.text,
        "at": iso(message.created_at),
    }


def spectator_status(interrogation, delay_s: float) -> dict:
    return {
        "type": "status",
        "status": interrogation.status,
        "delay_s": delay_s,
        "started_at": iso(interrogation.started_at),
        "deadline": iso(interrogation.deadline),
        "now": iso(timezone.now()),
    }
