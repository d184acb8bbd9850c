"""Games: each an ordinary arena interrogation (one-to-one, or three-party with a human and an AI
witness), with the study's rules on top: the message-length cap and turn-taking, stored on the
interrogation as its message policy and enforced by the arena's append on the server; the game length
is the interrogation's own deadline. Verdicts are the arena's."""

import re

from arena import services as arena
from arena.models import Interrogation, Message, Verdict
from core.errors import InvalidInput, NotAllowed
from studies.models import Condition, Flag, Game, Participant, Study
from studies.rules.matching import INTERROGATOR, WITNESS
from studies.services.flags_schedule import study_flags_schedule


def game_create(
    *,
    study: Study,
    interrogator: Participant,
    witness: Participant | None = None,
    condition: Condition | None = None,
    fallback: bool = False,
) -> Game:
    """Create and start the game's interrogation (the matcher calls this inside its transaction)."""
    if witness is not None and witness.pk == interrogator.pk:
        raise InvalidInput("A participant cannot be their own witness.")
    witnesses = ([witness.player] if witness is not None else []) + ([condition.entry] if condition is not None else [])
    interrogation = arena.interrogation_create(
        judge=interrogator.player,
        witnesses=witnesses,
        time_limit_s=study.design.time_limit_s,
        title=study.title,
        turn_rule=game_turn_rule(study),
        max_message_chars=study.max_message_chars,
    )
    game = Game.objects.create(
        study=study,
        interrogation=interrogation,
        interrogator=interrogator,
        human_witness=witness,
        condition=condition,
        fallback=fallback,
    )
    if not study.design.role_switching:
        for person, role in ((interrogator, INTERROGATOR), (witness, WITNESS)):
            if person is not None and not person.fixed_role:
                Participant.objects.filter(pk=person.pk).update(fixed_role=role)
    arena.interrogation_start(interrogation_id=interrogation.pk)
    return game


def game_turn_rule(study: Study) -> str:
    """The interrogator always speaks first, so no witness posts unprompted; with strict alternation
    nobody speaks twice in a row."""
    return Interrogation.TurnRule.ALTERNATE if study.strict_alternation else Interrogation.TurnRule.INTERROGATOR_FIRST


def game_message_post(*, game: Game, conversation_id: int, sender_role: str, text, user) -> Message:
    """A player's message, refused (InvalidInput, nothing stored) when longer than the study's cap or
    out of turn: the game's interrogation carries the study's rules (`game_create`), and the arena's
    append checks them under the conversation's lock, in one round trip on PostgreSQL."""
    return arena.message_post(conversation_id=conversation_id, sender_role=sender_role, text=text, user=user)


def game_verdict(*, game: Game, participant: Participant, choice, confidence, reason="") -> Verdict:
    """The interrogator's verdict (the arena's, revealing the truth at once), then the game is screened."""
    if participant.pk != game.interrogator_id:
        raise NotAllowed("Only this game's interrogator gives its verdict.")
    verdict = arena.verdict_submit(
        interrogation_id=game.interrogation_id,
        judge=participant.player,
        choice=choice,
        confidence=confidence,
        reason=reason,
    )
    game_screen(game=game)
    study_flags_schedule(study_id=game.study_id)
    return verdict


def _leak_pattern(words) -> re.Pattern | None:
    words = [w for w in words if w]
    if not words:
        return None
    return re.compile(r"(?<![a-z0-9])(" + "|".join(re.escape(w) for w in words) + r")(?![a-z0-9])", re.IGNORECASE)


def game_screen(*, game: Game) -> bool:
    """The identity-leak filter (Chatbot Arena's): a witness that names a model or vendor of the study's
    list voids the game, recorded as a flag. True when the game is (now) void."""
    if game.voided:
        return True
    pattern = _leak_pattern(game.study.design.identity_words)
    if pattern is None:
        return False
    witness_lines = Message.objects.filter(
        conversation__interrogation_id=game.interrogation_id, sender_role=Message.Role.WITNESS
    ).order_by("conversation", "seq")
    for message in witness_lines.only("seq", "text"):
        found = pattern.search(message.text)
        if found:
            reason = f"a witness named {found.group(1).lower()!r} (message #{message.seq})"
            Game.objects.filter(pk=game.pk).update(voided=True, void_reason=reason)
            game.voided, game.void_reason = True, reason
            Flag.objects.create(study_id=game.study_id, kind=Flag.Kind.IDENTITY_LEAK, game=game, detail=reason)
            arena.results_version_bump()  # a void game leaves the results pages
            return True
    return False
