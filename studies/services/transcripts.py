"""Transcript-only judging (Jones & Bergen's "displaced" and "inverted" judges): finished games are
read afterwards and judged as the interrogator judged them, by people who were not in the game or by
an LLM entry asked through the engine gateway; stored as TranscriptVerdicts, apart from live verdicts."""

import re

from django.db import IntegrityError, transaction

from arena.models import Entry, Interrogation, Message, Status
from arena.services import results_version_bump
from arena.services.engines import engine_reply, reply_context_build
from arena.services.verdicts import REASON_MAX_CHARS
from core.errors import Closed, InvalidInput, NotAllowed
from studies.models import Game, Participant, TranscriptVerdict

LABELS = {"sole": "Witness", "left": "Witness A (left)", "right": "Witness B (right)"}
INSTRUCTIONS = {
    Interrogation.Kind.ONE_TO_ONE: "Was the witness a human or an AI? Answer on the first line with HUMAN or AI, then "
    "your confidence from 0 to 100, then one sentence of reason.",
    Interrogation.Kind.THREE_PARTY: "One witness is a human, the other an AI. Which is the human? Answer on the first "
    "line with LEFT or RIGHT, then your confidence from 0 to 100, then one sentence "
    "of reason.",
}


def transcript_games(*, study):
    """Games whose transcripts may be judged: ended, judged by their interrogator, not voided."""
    return Game.objects.filter(
        study=study, voided=False, interrogation__status=Status.ENDED, interrogation__verdict__isnull=False
    )


def transcript_next(*, participant: Participant) -> Game | None:
    """A game for a displaced judge: one they were not in and have not judged yet."""
    return (
        transcript_games(study=participant.study)
        .exclude(interrogator=participant)
        .exclude(human_witness=participant)
        .exclude(transcript_verdicts__participant=participant)
        .order_by("?")
        .first()
    )


def transcript_view(*, game: Game) -> dict:
    """What a transcript judge sees: the kind and each side's messages, nothing that names a witness."""
    conversations = game.interrogation.conversations.order_by("side")
    return {
        "kind": game.interrogation.kind,
        "sides": [
            {
                "side": c.side,
                "label": LABELS[c.side],
                "messages": [
                    {
                        "from": "Interrogator" if m.sender_role == Message.Role.INTERROGATOR else LABELS[c.side],
                        "text": m.text,
                    }
                    for m in c.messages.order_by("seq")
                ],
            }
            for c in conversations
        ],
    }


def _truth(game: Game, choice: str) -> bool:
    if game.interrogation.kind == Interrogation.Kind.ONE_TO_ONE:
        return (choice == "human") == (game.condition_id is None)
    return game.interrogation.conversations.filter(side=choice, witness_human__isnull=False).exists()


def _clean(game: Game, choice, confidence, reason) -> tuple[str, int, str]:
    options = ("human", "machine") if game.interrogation.kind == Interrogation.Kind.ONE_TO_ONE else ("left", "right")
    if choice not in options:
        raise InvalidInput(f"choice must be {options[0]!r} or {options[1]!r}.")
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, str))
        or not str(confidence).isdigit()
        or not 0 <= int(confidence) <= 100
    ):
        raise InvalidInput("confidence must be a whole number from 0 to 100.")
    if not isinstance(reason, str) or len(reason) > REASON_MAX_CHARS:
        raise InvalidInput("The reason is too long.")
    return choice, int(confidence), reason.strip()


def _store(game: Game, **fields) -> TranscriptVerdict:
    try:
        with transaction.atomic():
            results_version_bump()  # counted on the results pages once this commits
            return TranscriptVerdict.objects.create(game=game, **fields)
    except IntegrityError:
        raise Closed("This transcript has already been judged by this judge.") from None


def transcript_judge(*, participant: Participant, game: Game, choice, confidence, reason="") -> TranscriptVerdict:
    """A displaced human judge's verdict on a transcript they were not part of."""
    if (
        game.study_id != participant.study_id
        or not transcript_games(study=participant.study).filter(pk=game.pk).exists()
    ):
        raise NotAllowed("This transcript is not open for judging.")
    if participant.pk in (game.interrogator_id, game.human_witness_id):
        raise NotAllowed("You were in this game: judge someone else's.")
    choice, confidence, reason = _clean(game, choice, confidence, reason)
    return _store(
        game,
        kind=TranscriptVerdict.Kind.DISPLACED,
        participant=participant,
        choice=choice,
        confidence=confidence,
        reason=reason,
        correct=_truth(game, choice),
    )


ANSWER = re.compile(r"\b(human|ai|machine|left|right)\b\W*(\d{1,3})?", re.IGNORECASE)


def inverted_answer_read(text: str, kind: str) -> tuple[str, int, str] | None:
    """(choice, confidence, reason) from an LLM judge's free answer, or None when it gave none."""
    found = ANSWER.search(text or "")
    if found is None:
        return None
    word = found.group(1).lower()
    choice = {"ai": "machine"}.get(word, word)
    if (kind == Interrogation.Kind.ONE_TO_ONE) != (choice in ("human", "machine")):
        return None
    confidence = min(100, int(found.group(2))) if found.group(2) else 50
    return choice, confidence, text[found.end() :].lstrip(" .,:;-–—\n\t").rstrip()[:REASON_MAX_CHARS]


def transcript_judge_inverted(*, game: Game, entry: Entry) -> TranscriptVerdict | None:
    """An LLM entry judges a transcript through the engine gateway (breaker, call log); None when it
    failed or gave no readable answer (logged by the gateway)."""
    view = transcript_view(game=game)
    lines = [f"{m['from']}: {m['text']}" for side in view["sides"] for m in side["messages"]]
    prompt = (
        "Here is the transcript of a Turing-test game.\n\n" + "\n".join(lines) + "\n\n" + INSTRUCTIONS[view["kind"]]
    )
    context = reply_context_build(key=f"transcript-{game.public_id}", history=[], message=prompt)
    reply = engine_reply(entry=entry, context=context, subject=f"study {game.study_id} transcript of game {game.pk}")
    answer = inverted_answer_read(reply.text if reply else "", view["kind"])
    if answer is None:
        return None
    choice, confidence, reason = answer
    return _store(
        game,
        kind=TranscriptVerdict.Kind.INVERTED,
        entry=entry,
        choice=choice,
        confidence=confidence,
        reason=reason,
        correct=_truth(game, choice),
    )
