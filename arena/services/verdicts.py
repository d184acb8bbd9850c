from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena import notify
from arena.models import Interrogation, Status, Verdict
from arena.services.messages import clean_text
from arena.services.results import results_version_bump
from arena.services.seals import record_seal_verdict
from core.errors import Closed, InvalidInput, NotAllowed

REASON_MAX_CHARS = 4000

# Contest formats that collect their verdicts themselves (a wager trial: once all of its interviews are
# over, for every candidate at once) register a test of an interrogation id here; the console then offers
# no verdict for those interrogations, and one sent anyway is refused (a verdict would reveal the witness).
_VERDICT_ELSEWHERE: list = []


def verdict_elsewhere_register(test) -> None:
    """`test(interrogation_id) -> bool`: True when that interrogation's verdict is given elsewhere."""
    if test not in _VERDICT_ELSEWHERE:
        _VERDICT_ELSEWHERE.append(test)


def verdict_elsewhere(interrogation_id: int) -> bool:
    return any(test(interrogation_id) for test in _VERDICT_ELSEWHERE)


# When the truth about an interrogation's witnesses may be told: at once by default (a plain interrogation, a
# study's game), later where a format says so (a Loebner contest's meeting: once its results are published; a
# wager interview: once its session's results are). A format registers a test of an interrogation id; while any
# test says no, the judge's console, its pushes and the crowd markets (markets.reveals) tell nobody which witness
# was which, nor whether the judge was right.
_REVEAL_RULES: list = []


def reveal_rule_register(test) -> None:
    """`test(interrogation_id) -> bool`: False while that interrogation's truth must stay hidden; True once it
    may be told, and for every interrogation that is not its format's."""
    if test not in _REVEAL_RULES:
        _REVEAL_RULES.append(test)


def reveal_allowed(interrogation_id: int) -> bool:
    """Whether the truth about the interrogation's witnesses may be told now (every registered rule agrees)."""
    return all(test(interrogation_id) for test in _REVEAL_RULES)


def _clean_confidence(confidence) -> int:
    if isinstance(confidence, bool):
        raise InvalidInput("confidence must be a whole number from 0 to 100.")
    try:
        value = int(confidence)
    except (TypeError, ValueError):
        raise InvalidInput("confidence must be a whole number from 0 to 100.") from None
    if str(confidence).strip() not in (str(value), f"{value}.0") or not 0 <= value <= 100:
        raise InvalidInput("confidence must be a whole number from 0 to 100.")
    return value


def verdict_submit(*, interrogation_id: int, judge, choice, confidence, reason="") -> Verdict:
    """The judge's decision, allowed once, after the conversations have ended. It reveals the truth to the
    judge at once unless the interrogation's format reveals it later (`reveal_allowed`)."""
    from arena.services.interrogations import interrogation_close_if_due

    if not isinstance(reason, str):
        raise InvalidInput("reason must be text.")
    reason = reason.strip()
    if reason:  # none at all, or text by the rules of messages (PostgreSQL's text cannot hold NUL)
        reason = clean_text(
            reason, max_chars=min(REASON_MAX_CHARS, settings.ARENA_MAX_MESSAGE_CHARS * 4), what="reason"
        )
    confidence = _clean_confidence(confidence)
    if verdict_elsewhere(interrogation_id):
        raise NotAllowed("This interview's verdict is given on its contest's page, not here.")
    with transaction.atomic():
        # its record seal read with it (signed again below), the interrogation's row alone locked
        interrogation = (
            Interrogation.objects.select_for_update(of=("self",)).select_related("record_seal").get(pk=interrogation_id)
        )
        if judge is None or judge.pk != interrogation.judge_id:
            raise NotAllowed("Only this interrogation's judge can give its verdict.")
        three_party = interrogation.kind == Interrogation.Kind.THREE_PARTY
        if three_party and choice not in ("left", "right"):
            raise InvalidInput("choice must be 'left' or 'right': the witness you believe is human.")
        if not three_party and choice not in ("human", "machine"):
            raise InvalidInput("choice must be 'human' or 'machine'.")
        # time up and its close lost (a restart): closed here, committed with the verdict (what raises
        # below, still running or a verdict already given, cannot follow a close)
        if interrogation_close_if_due(interrogation_id=interrogation_id, seen=interrogation):
            interrogation.refresh_from_db()
        if interrogation.status != Status.ENDED:
            raise Closed("A verdict can be given once the conversations have ended.")
        if Verdict.objects.filter(interrogation=interrogation).exists():
            raise Closed("The verdict has already been given.")
        conversations = list(interrogation.conversations.select_related("witness_entry"))
        by_side = {c.side: c for c in conversations}
        if three_party:
            correct = not by_side[choice].witness_is_machine
        else:
            correct = (choice == "machine") == by_side["sole"].witness_is_machine
        now = timezone.now()
        verdict = Verdict.objects.create(
            interrogation=interrogation,
            judge=judge,
            choice=choice,
            confidence=confidence,
            reason=reason,
            decided_at=now,
            time_to_decision_s=(now - interrogation.ended_at).total_seconds(),
            correct=correct,
        )
        record_seal_verdict(interrogation=interrogation, verdict=verdict)
        transaction.on_commit(lambda: notify.verdict_given(verdict, conversations))
        results_version_bump()
    return verdict
