"""Rehearsals: an entrant tries an entry in a practice interrogation before any contest.

A rehearsal is an ordinary one-to-one :class:`~arena.models.Interrogation` marked ``rehearsal``, started
at once, so the entry answers through the real machinery (the gateway, its typing delay, the reply rules,
pull mode's long poll) and the transcript is the arena's own. It is kept out of every result and never
published (:mod:`arena.selectors.interrogations`, :func:`arena.services.publication.interrogation_publish`).

The judge is either the entrant (in a second tab, on the ordinary judge console) or the scripted bot
judge, a platform user that asks :data:`QUESTIONS` one by one: it waits for each answer, pauses
``ARENA_REHEARSAL_PAUSE_S`` seconds as a person reading would, asks the next, and ends the rehearsal
after the last answer (or the clock does, as in any interrogation). Its state is read from the
database at every step (:func:`rehearsal_judge_step`), so a step that runs twice asks nothing twice.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from arena import roles
from arena.models import Conversation, Entry, Interrogation, Message, Status
from arena.selectors.entries import entry_rehearsals
from arena.services.interrogations import interrogation_create, interrogation_end, interrogation_start
from arena.services.messages import message_post
from core.dispatch import enqueue_on_commit
from core.errors import Closed, InvalidInput, NotAllowed

BOT_JUDGE = "rehearsal-judge"  # the scripted judge's user (inactive: it never logs in)
QUESTIONS = (
    "Hello! Who am I talking to today?",
    "What did you do this morning?",
    "What is seventeen plus twenty-five?",
    "Tea or coffee, and why?",
)
POLL_S = 1.0  # how often the scripted judge looks for an answer (at most; more often with a shorter pause)
JUDGES = ("bot", "self")


def bot_judge_user():
    user, created = get_user_model().objects.get_or_create(username=BOT_JUDGE, defaults={"is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def rehearsal_start(*, entry: Entry, user, judge: str = "bot") -> Interrogation:
    """Start a rehearsal of ``entry`` (its owner's, or an organiser's) with the scripted judge
    (``judge="bot"``) or ``user`` as the judge (``"self"``). One running rehearsal per entry: asking again
    while one runs refuses with Closed (code ``rehearsal_running``)."""
    if judge not in JUDGES:
        raise InvalidInput(f"judge must be one of {', '.join(JUDGES)}.")
    if not (entry.owner_id == user.pk or roles.is_organiser(user)):
        raise NotAllowed("Only the entry's owner can rehearse it.")
    if not entry.active:
        raise InvalidInput("This entry is not active.")
    with transaction.atomic():
        Entry.objects.select_for_update().filter(pk=entry.pk).values_list("pk").first()  # one at a time
        if entry_rehearsals(entry=entry).filter(status__in=[Status.SCHEDULED, Status.RUNNING]).exists():
            raise Closed("A rehearsal of this entry is already running: finish it first.", code="rehearsal_running")
        judge_user = bot_judge_user() if judge == "bot" else user
        interrogation = interrogation_create(
            judge=judge_user,
            witnesses=[entry],
            time_limit_s=settings.ARENA_REHEARSAL_TIME_LIMIT_S,
            title=f"Rehearsal: {entry.display_name}"[:200],
        )
        Interrogation.objects.filter(pk=interrogation.pk).update(rehearsal=True)
        interrogation = interrogation_start(interrogation_id=interrogation.pk)
        if judge == "bot":
            from arena.tasks import rehearsal_judge

            enqueue_on_commit(rehearsal_judge, interrogation.pk, countdown=settings.ARENA_REHEARSAL_PAUSE_S)
    interrogation.rehearsal = True
    return interrogation


def rehearsal_judge_step(*, interrogation_id: int) -> float | None:
    """One look of the scripted judge at its rehearsal: ask the next question when the last one is
    answered and the pause is over, end the rehearsal after the last answer. Returns the seconds until
    the next look, or None when there is nothing more to do."""
    interrogation = Interrogation.objects.filter(pk=interrogation_id, rehearsal=True).select_related("judge").first()
    if interrogation is None or interrogation.status != Status.RUNNING or interrogation.judge.username != BOT_JUDGE:
        return None
    pause = settings.ARENA_REHEARSAL_PAUSE_S
    poll = max(0.05, min(POLL_S, pause))
    conversation = interrogation.conversations.get()
    last = conversation.messages.order_by("-seq").only("seq", "sender_role", "created_at").first()
    if last is not None and last.sender_role == Message.Role.INTERROGATOR:
        return poll  # waiting for the answer
    waited = (timezone.now() - last.created_at).total_seconds() if last else pause
    if waited < pause:
        return pause - waited
    with transaction.atomic():  # a look that runs twice (a redelivered task) asks nothing twice
        Conversation.objects.select_for_update().filter(pk=conversation.pk).values_list("pk").first()
        messages = conversation.messages.order_by("-seq")
        if last is not None and messages.values_list("seq", flat=True).first() != last.seq:
            return poll  # something was said since this look began
        asked = messages.filter(sender_role=Message.Role.INTERROGATOR).count()
        if asked < len(QUESTIONS):
            try:
                message_post(
                    conversation_id=conversation.pk,
                    sender_role=Message.Role.INTERROGATOR,
                    text=QUESTIONS[asked],
                    user=interrogation.judge,
                )
            except Closed:
                return None
            return poll
    interrogation_end(interrogation_id=interrogation.pk, reason="rehearsal done")
    return None


def rehearsal_judges_resume(*, grace_s: float = 15.0) -> int:
    """Wake the scripted judge of running rehearsals whose next look a restart lost (an in-process timer,
    a lost task): the judge's turn (nothing said yet, or the entry answered) for longer than its pause plus
    ``grace_s``. A look that runs beside a living one asks nothing twice. Returns how many were woken."""
    from arena.tasks import rehearsal_judge
    from core.dispatch import enqueue_now

    now = timezone.now()
    late = settings.ARENA_REHEARSAL_PAUSE_S + grace_s
    woken = 0
    running = Interrogation.objects.filter(rehearsal=True, status=Status.RUNNING, judge__username=BOT_JUDGE)
    for interrogation in running:
        last = Message.objects.filter(conversation__interrogation=interrogation).order_by("-seq").first()
        if last is not None and last.sender_role == Message.Role.INTERROGATOR:
            continue  # the entry's turn
        since = last.created_at if last else interrogation.started_at
        if (now - since).total_seconds() >= late:
            enqueue_now(rehearsal_judge, interrogation.pk)
            woken += 1
    return woken
