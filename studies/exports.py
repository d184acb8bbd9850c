"""A study's tables as CSV or JSON Lines, with anonymised ids (a participant is P + the start of a random
uuid, never a user id, account or session), one table per event type."""

import json

from arena.models import Message
from core import csvsafe
from studies.models import Exclusion, Game, SurveyAnswer

FORMATS = ("csv", "jsonl")
TABLES = ("games", "messages", "verdicts", "surveys", "exclusions")


def _anon(participant) -> str:
    return participant.anon_id if participant is not None else ""


def _games(study):
    return (
        Game.objects.filter(study=study)
        .select_related("interrogation", "interrogator", "human_witness", "condition")
        .order_by("pk")
    )


def rows_games(study):
    for game in _games(study):
        i = game.interrogation
        yield {
            "game": str(game.public_id),
            "format": study.format,
            "kind": i.kind,
            "interrogator": _anon(game.interrogator),
            "human_witness": _anon(game.human_witness),
            "ai_witness": game.condition.name if game.condition_id else "",
            "persona": game.condition.persona if game.condition_id else "",
            "fallback": game.fallback,
            "voided": game.voided,
            "void_reason": game.void_reason,
            "status": i.status,
            "started_at": i.started_at.isoformat() if i.started_at else "",
            "ended_at": i.ended_at.isoformat() if i.ended_at else "",
            "end_reason": i.end_reason,
        }


def rows_messages(study):
    messages = (
        Message.objects.filter(conversation__interrogation__study_game__study=study)
        .select_related(
            "conversation__interrogation__study_game__condition",
            "conversation__interrogation__study_game__interrogator",
            "conversation__interrogation__study_game__human_witness",
        )
        .order_by("conversation__interrogation", "conversation", "seq")
    )
    for m in messages:
        c = m.conversation
        game = c.interrogation.study_game
        if m.sender_role == Message.Role.INTERROGATOR:
            sender = _anon(game.interrogator)
        else:
            sender = _anon(game.human_witness) if c.witness_human_id else f"AI:{game.condition.name}"
        yield {
            "game": str(game.public_id),
            "conversation": str(c.public_id),
            "side": c.side,
            "witness": "human" if c.witness_human_id else game.condition.name,
            "seq": m.seq,
            "role": m.sender_role,
            "sender": sender,
            "text": m.text,
            "at": m.created_at.isoformat(),
            "hash": m.hash,
        }


def rows_verdicts(study):
    for game in _games(study).filter(interrogation__verdict__isnull=False).select_related("interrogation__verdict"):
        v = game.interrogation.verdict
        sides = {
            c.side: ("human" if c.witness_human_id else game.condition.name)
            for c in game.interrogation.conversations.all()
        }
        yield {
            "game": str(game.public_id),
            "interrogator": _anon(game.interrogator),
            "choice": v.choice,
            "chosen_witness": sides.get(v.choice, ""),
            "correct": v.correct,
            "confidence": v.confidence,
            "reason": v.reason,
            "time_to_decision_s": round(v.time_to_decision_s, 3),
            "decided_at": v.decided_at.isoformat(),
            "voided": game.voided,
        }


def rows_surveys(study):
    answers = (
        SurveyAnswer.objects.filter(participant__study=study)
        .select_related("participant")
        .order_by("participant", "phase", "key")
    )
    for a in answers:
        yield {
            "participant": _anon(a.participant),
            "phase": a.phase,
            "key": a.key,
            "answer": a.answer,
            "passed": "" if a.passed is None else a.passed,
            "answered_at": a.answered_at.isoformat(),
        }


def rows_exclusions(study):
    for e in Exclusion.objects.filter(participant__study=study).select_related("participant").order_by("pk"):
        yield {"participant": _anon(e.participant), "rule": e.rule, "detail": e.detail, "at": e.created_at.isoformat()}


def export_rows(*, study, what: str):
    if what not in TABLES:
        raise ValueError(f"what must be one of {', '.join(TABLES)}")
    return globals()[f"rows_{what}"](study)


def export_write(*, study, what: str, fmt: str, out) -> int:
    """Write the table to the text stream `out`; returns the number of rows."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}")
    count, writer = 0, None
    for row in export_rows(study=study, what=what):
        if fmt == "jsonl":
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            if writer is None:
                writer = csvsafe.DictWriter(out, fieldnames=list(row))
                writer.writeheader()
            writer.writerow(row)
        count += 1
    return count
