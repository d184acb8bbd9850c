"""Participants: joining a study (anonymous or logged in), consent, demographics, exit questions,
attention checks and the exclusions they lead to."""

import datetime as dt
import hashlib
import hmac
import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from arena.services import results_version_bump
from core.errors import Closed, InvalidInput, NotAllowed
from studies.models import ConsentRecord, Exclusion, Participant, Study, SurveyAnswer

ANSWER_MAX_CHARS = 1000
LIMITED = "rate_limited"  # the refusal's code when too many new participants came from one address or browser


def device_hash(device_key: str) -> str:
    """The stored form of a browser's device key (its device cookie, or its session key)."""
    return hashlib.sha256(f"studies-device:{device_key}".encode()).hexdigest()[:32] if device_key else ""


def origin_hash(address: str) -> str:
    """The stored form of a client address: keyed with the site's secret, so the table holds no address."""
    if not address:
        return ""
    return hmac.new(settings.SECRET_KEY.encode(), f"studies-origin:{address}".encode(), "sha256").hexdigest()[:32]


def _new_participants_limit(*, device: str, origin: str) -> None:
    """At most STUDIES_PLAY_NEW_PER_ADDRESS new participants from one address and
    STUDIES_PLAY_NEW_PER_DEVICE from one browser in STUDIES_PLAY_NEW_WINDOW_S seconds (every study)."""
    since = timezone.now() - dt.timedelta(seconds=settings.STUDIES_PLAY_NEW_WINDOW_S)
    recent = Participant.objects.filter(created_at__gte=since, simulated=False)
    if origin and recent.filter(origin=origin).count() >= settings.STUDIES_PLAY_NEW_PER_ADDRESS:
        raise NotAllowed("Too many new players from your network just now: please try again later.", code=LIMITED)
    if device and recent.filter(device=device).count() >= settings.STUDIES_PLAY_NEW_PER_DEVICE:
        raise NotAllowed("This browser has started too many times just now: please try again later.", code=LIMITED)


def participant_create(
    *, study: Study, account=None, device: str = "", origin: str = "", simulated: bool = False
) -> Participant:
    """A new participant of an open study (or the person's existing one, where the study allows one
    participation per person and device). Their games run under a fresh arena user of their own, with no
    password and no role: nothing but this study's consoles ever acts for it. New participants are
    limited per address (`origin`) and per browser (`device`): NotAllowed, code "rate_limited"."""
    if study.status != Study.Status.OPEN and not simulated:
        raise Closed("This study is not open.")
    account = account if account is not None and account.is_authenticated else None
    if study.design.one_participation_per_device:
        existing = Participant.objects.filter(study=study)
        if account is not None and existing.filter(account=account).exists():
            return existing.filter(account=account).first()
        if device and existing.filter(device=device).exists():
            return existing.filter(device=device).first()
    if not simulated:
        _new_participants_limit(device=device, origin=origin)
    with transaction.atomic():
        player = get_user_model().objects.create_user(username=f"player-{uuid.uuid4().hex[:20]}")  # unusable password
        return Participant.objects.create(
            study=study, player=player, account=account, device=device, origin=origin, simulated=simulated
        )


def consent_give(*, participant: Participant, agreed) -> Participant:
    if agreed is not True:
        raise InvalidInput("Tick the box to agree, or close the page: nothing is stored until you agree.")
    if participant.stage != Participant.Stage.CONSENT:
        return participant
    text = participant.study.design.consent_text
    now = timezone.now()
    with transaction.atomic():
        ConsentRecord.objects.get_or_create(
            participant=participant,
            defaults={"text_sha256": hashlib.sha256(text.encode()).hexdigest(), "agreed_at": now},
        )
        participant.stage = Participant.Stage.SURVEY
        participant.last_seen_at = now
        participant.save(update_fields=["stage", "last_seen_at"])
    return participant


def _clean_answer(question, raw) -> str:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        if question.required:
            raise InvalidInput(f"Please answer: {question.label}", code="missing")
        return ""
    answer = str(raw).strip()
    if len(answer) > ANSWER_MAX_CHARS or any(ord(ch) < 32 and ch not in "\n\t" for ch in answer):
        raise InvalidInput(f"The answer to {question.label!r} is too long or has control characters.")
    if question.type == "choice" and answer not in question.choices:
        raise InvalidInput(f"{question.label}: choose one of the answers offered.")
    if question.type == "number":
        try:
            value = float(answer)
        except ValueError:
            raise InvalidInput(f"{question.label}: give a number.") from None
        if value != value or not -1e9 < value < 1e9:
            raise InvalidInput(f"{question.label}: give a number.")
    return answer


def survey_submit(*, participant: Participant, phase: str, answers: dict) -> Participant:
    """Store the answers of one phase: "demographics" (with the attention checks; then the lobby opens)
    or "exit". Answers are checked against the study's questions; failing more attention checks than
    the study allows excludes the participant from the analysis (recorded; they may go on playing, so
    nobody learns which question was the check)."""
    design = participant.study.design
    if not isinstance(answers, dict):
        raise InvalidInput("answers must be an object of question key to answer.")
    if phase == SurveyAnswer.Phase.DEMOGRAPHICS:
        if participant.stage == Participant.Stage.CONSENT:
            raise NotAllowed("Agree to the consent form first.")
        questions, checks = design.demographics, design.attention_checks
    elif phase == SurveyAnswer.Phase.EXIT:
        questions, checks = design.exit_questions, ()
    else:
        raise InvalidInput('phase must be "demographics" or "exit".')
    rows = [(phase, q.key, _clean_answer(q, answers.get(q.key)), None) for q in questions]
    failed = 0
    for check in checks:
        given = _clean_answer(check, answers.get(check.key))
        passed = given.strip().lower() == check.answer.strip().lower()
        failed += not passed
        rows.append((SurveyAnswer.Phase.ATTENTION, check.key, given, passed))
    with transaction.atomic():
        for row_phase, key, answer, passed in rows:
            SurveyAnswer.objects.update_or_create(
                participant=participant, phase=row_phase, key=key, defaults={"answer": answer, "passed": passed}
            )
        if phase == SurveyAnswer.Phase.DEMOGRAPHICS and participant.stage == Participant.Stage.SURVEY:
            participant.stage = Participant.Stage.PLAYING
            if failed > design.max_failed_attention_checks:
                participant_exclude(
                    participant=participant,
                    rule="attention_checks",
                    detail=f"failed {failed} of {len(checks)} attention checks",
                )
            participant.save(update_fields=["stage"])
    return participant


def participant_exclude(*, participant: Participant, rule: str, detail: str = "") -> Exclusion:
    """Exclude a participant's verdicts from the analysis; recorded once per rule."""
    exclusion, created = Exclusion.objects.get_or_create(
        participant=participant, rule=rule, defaults={"detail": detail[:300]}
    )
    if created:
        results_version_bump()  # the participant's verdicts leave the results pages
    return exclusion
