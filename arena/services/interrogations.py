import datetime as dt
import secrets
from functools import partial

from django.db import transaction
from django.utils import timezone

from arena import notify, roles
from arena.learning import learner_harvest_schedule
from arena.models import Conversation, Entry, Interrogation, Status
from arena.services.seals import conversations_to_seal, seals_write
from core.dispatch import enqueue_on_commit
from core.errors import Closed, InvalidInput, NotAllowed

_sides = secrets.SystemRandom()

# Formats that follow their interrogations register a callback here (a Loebner round ends with its last
# meeting). Each is called as ``callback(interrogation_id=...)`` once an interrogation's end is committed,
# however it ended (judge, organiser, time, restart); one that fails is logged and the others still run.
# A callback lost with its process (a crash just after the commit) is the sweep's to make good
# (``sweep.sweep_register``), so each must be safe to run late, or twice.
_ENDED_CALLBACKS: list = []


def interrogation_ended_register(callback) -> None:
    """``callback(interrogation_id=...)``: told of every interrogation that ends, after the commit."""
    if callback not in _ENDED_CALLBACKS:
        _ENDED_CALLBACKS.append(callback)


def interrogation_create(
    *,
    judge,
    witnesses: list,
    time_limit_s: int = 300,
    title: str = "",
    scheduled_at: dt.datetime | None = None,
    keystroke_mode: bool = False,
    sides: tuple[str, str] | None = None,
    turn_rule: str = Interrogation.TurnRule.FREE,
    max_message_chars: int | None = None,
) -> Interrogation:
    """witnesses: one (one-to-one) or two (three-party) Entry objects or confederate users.

    ``turn_rule`` and ``max_message_chars``: the message policy people's messages meet, checked under
    the append's lock (a study's rules; see ``appends.turn_refusal``).

    In the three-party form the two witnesses are placed left/right at random (or as ``sides`` says,
    e.g. ``("right", "left")``: a contest's seeded schedule), and their conversations are created in
    random order, so nothing about ids or order gives the human away.
    """
    if len(witnesses) not in (1, 2):
        raise InvalidInput("An interrogation has one witness or two.")
    if time_limit_s < 10:
        raise InvalidInput("time_limit_s must be at least 10 seconds.")
    if turn_rule not in Interrogation.TurnRule.values:
        raise InvalidInput(f"turn_rule must be one of {', '.join(Interrogation.TurnRule.values)}.")
    if max_message_chars is not None and not (isinstance(max_message_chars, int) and max_message_chars >= 1):
        raise InvalidInput("max_message_chars must be a whole number of at least 1.")
    for witness in witnesses:
        if isinstance(witness, Entry):
            if not witness.active:
                raise InvalidInput(f"Entry {witness} is not active.")
        elif witness == judge:
            raise InvalidInput("The judge cannot be their own witness.")
    kind = Interrogation.Kind.THREE_PARTY if len(witnesses) == 2 else Interrogation.Kind.ONE_TO_ONE
    if len(witnesses) == 2:
        if sides is None:
            sides = ["left", "right"]
            _sides.shuffle(sides)
        elif sorted(sides) != ["left", "right"]:
            raise InvalidInput("sides must be left and right, one each.")
        placed = list(zip(sides, witnesses))
        _sides.shuffle(placed)
    else:
        placed = [("sole", witnesses[0])]
    with transaction.atomic():
        interrogation = Interrogation.objects.create(
            judge=judge,
            kind=kind,
            time_limit_s=time_limit_s,
            title=title,
            scheduled_at=scheduled_at,
            keystroke_mode=keystroke_mode,
            turn_rule=turn_rule,
            max_message_chars=max_message_chars,
        )
        for side, witness in placed:
            is_entry = isinstance(witness, Entry)
            Conversation.objects.create(
                interrogation=interrogation,
                interrogator=judge,
                witness_entry=witness if is_entry else None,
                witness_human=None if is_entry else witness,
                side=side,
                time_limit_s=time_limit_s,
                scheduled_at=scheduled_at,
            )
    return interrogation


def _locked(interrogation_id: int) -> Interrogation:
    return Interrogation.objects.select_for_update(of=("self",)).select_related("judge").get(pk=interrogation_id)


def interrogation_start(*, interrogation_id: int, by=None) -> Interrogation:
    from arena.tasks import interrogation_close

    with transaction.atomic():
        interrogation = _locked(interrogation_id)
        if by is not None and not (by == interrogation.judge or roles.is_organiser(by)):
            raise NotAllowed("Only the judge or an organiser can start this interrogation.")
        if interrogation.status != Status.SCHEDULED:
            raise Closed(f"This interrogation is {interrogation.status}, not scheduled.")
        now = timezone.now()
        interrogation.status = Status.RUNNING
        interrogation.started_at = now
        interrogation.deadline = now + dt.timedelta(seconds=interrogation.time_limit_s)
        interrogation.save(update_fields=["status", "started_at", "deadline"])
        interrogation.conversations.update(status=Status.RUNNING, started_at=now)
        conversations = list(interrogation.conversations.all())  # as updated: the pushes say what holds now
        transaction.on_commit(lambda: notify.status_changed(interrogation, conversations))
        # The timer lives in the database (deadline); this task only makes the close happen on time.
        enqueue_on_commit(interrogation_close, interrogation.pk, countdown=interrogation.time_limit_s + 0.05)
    return interrogation


def interrogation_end(*, interrogation_id: int, reason: str, by=None) -> Interrogation:
    """Idempotent: ending an interrogation that has already ended changes nothing. The one place where
    an interrogation becomes ENDED (by the judge, an organiser, or time: close-if-due and the sweep
    come here); its learner harvest is enqueued on commit, and the registered callbacks
    (``interrogation_ended_register``) are told once the end is committed. Each conversation's chain is sealed (signed
    head and message count) in the same transaction, so a transcript proves where it ends."""
    with transaction.atomic():
        interrogation = _locked(interrogation_id)
        if by is not None and not (by == interrogation.judge or roles.is_organiser(by)):
            raise NotAllowed("Only the judge or an organiser can end this interrogation.")
        if interrogation.status in (Status.ENDED, Status.ABORTED):
            return interrogation
        now = timezone.now()
        if interrogation.status == Status.SCHEDULED:
            interrogation.status = Status.ABORTED
        else:
            interrogation.status = Status.ENDED
            # An end by time is stamped at the deadline, however late the close itself ran.
            if reason == "time" and interrogation.deadline and interrogation.deadline < now:
                now = interrogation.deadline
            learner_harvest_schedule(interrogation_id=interrogation.pk)  # after commit, by a task
        interrogation.ended_at = now
        interrogation.end_reason = reason
        interrogation.save(update_fields=["status", "ended_at", "end_reason"])
        interrogation.conversations.update(status=interrogation.status, ended_at=now)
        conversations = conversations_to_seal(interrogation)  # as updated, each with its chain's head and count
        seals_write(interrogation=interrogation, conversations=conversations)  # the rows are locked by the update
        transaction.on_commit(lambda: notify.status_changed(interrogation, conversations))
        for callback in _ENDED_CALLBACKS:
            transaction.on_commit(partial(callback, interrogation_id=interrogation.pk), robust=True)
    return interrogation


def interrogation_close_if_due(*, interrogation_id: int, seen: Interrogation | None = None) -> bool:
    """Close a running interrogation whose deadline has passed; True if it is (now) closed by time.
    ``seen``: the interrogation as the caller has just read it (its status and deadline), not read again."""
    interrogation = seen or Interrogation.objects.only("status", "deadline").filter(pk=interrogation_id).first()
    if interrogation is None:
        return False  # deleted before its timer came (an organiser removed it)
    if interrogation.status != Status.RUNNING or interrogation.deadline > timezone.now():
        return False
    interrogation_end(interrogation_id=interrogation_id, reason="time")
    return True


def interrogations_close_due() -> int:
    """Close every running interrogation past its deadline (after a restart, or a lost timer)."""
    due = Interrogation.objects.filter(status=Status.RUNNING, deadline__lte=timezone.now()).values_list("pk", flat=True)
    return sum(interrogation_close_if_due(interrogation_id=interrogation_id) for interrogation_id in list(due))
