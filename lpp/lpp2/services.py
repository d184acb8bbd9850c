"""LPP2 writes: the contest set-up (``manage.py lpp2 setup``), the control panel's rounds, messages into
the meetings' arena interrogations (arena's ``message_post``, so consoles, transcripts and seals are the
arena's), the judges' robot picks and final scores, and socket presence. Refusals raise core.errors
with a message that names why (sent back on ``TargetError``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from arena import roles
from arena.models import Entry, Message
from arena.services import message_post
from arena.setup import ensure_role_groups
from core.errors import Closed, InvalidInput, NotAllowed
from lpp.lpp2 import selectors
from lpp.models import Lpp2Contest, Lpp2Identity, Lpp2Problem, Lpp2Score, Lpp2Socket
from lpp.protocol import lpp2 as wire
from tournaments.loebner.models import Contest, ContestEntry, JudgeRank, Judgment, Meeting, Participant, Round
from tournaments.loebner.services import participants_assign, round_finish, round_start, schedule_create

log = logging.getLogger("lpp.lpp2")
PANEL_ROUND_MINUTES = 240  # the panel ends its rounds (endRound); the arena's deadline only backs it up
LINE_MAX_CHARS = 16_000  # a line's content; the reference had no cap (socket.io's buffer), the payload has 20,000
PROBLEMS_KEPT = 2_000  # problems stored per round (a client refused in a loop stores no more; the log has them)


def _user(username: str, role: str):
    user, _ = get_user_model().objects.get_or_create(username=username)
    user.groups.add(Group.objects.get(name=role))
    return user


def lpp2_contest_setup(*, name: str, secret: str, driver: str = Lpp2Contest.Driver.PANEL) -> Lpp2Contest:
    """A four-judge ``aisb`` contest in its finals, schedule built, served on /socket.io/ (the active one),
    whose identities judge0…3, ai0…3, conf0…3, CONTROLLER and webcast all use ``secret``. An existing
    contest of that name is kept, renamed with the time of the reset (its data is research data)."""
    name, secret = (name or "").strip(), secret or ""
    if not name or len(name) > 150:
        raise InvalidInput("The contest name must be 1 to 150 characters.")
    if not secret or len(secret) > wire.MAX_FIELD_CHARS:
        raise InvalidInput(f"The secret must be 1 to {wire.MAX_FIELD_CHARS} characters.")
    ensure_role_groups()
    with transaction.atomic():
        old = Contest.objects.filter(name=name).first()
        if old is not None:
            old.name = f"{name} (reset {timezone.now():%Y-%m-%d %H:%M:%S})"[:200]
            old.save(update_fields=["name"])
        Lpp2Contest.objects.filter(active=True).update(active=False)
        contest = Contest.objects.create(
            name=name,
            format_name="aisb",
            status=Contest.Status.FINALS,
            round_minutes=PANEL_ROUND_MINUTES if driver == Lpp2Contest.Driver.PANEL else None,
        )
        entrant = _user("lpp2-entrant", roles.ENTRANT)
        now = timezone.now()
        for i in range(4):
            entry = Entry.objects.create(
                owner=entrant, display_name=f"{name[:80]} #{contest.pk} ai{i} (LPP2)", engine="lpp2"
            )
            item = ContestEntry.objects.create(
                contest=contest,
                entry=entry,
                received_at=now,
                rights_statement=True,
                compliance=ContestEntry.Check.COMPLIANT,
                qualified=True,
                finalist=True,
            )
            Participant.objects.create(
                contest=contest, label=f"E{i + 1}", kind=Participant.Kind.ENTRY, contest_entry=item
            )
        participants_assign(
            contest_id=contest.pk,
            judges=[_user(f"lpp2-judge{i}", roles.JUDGE) for i in range(4)],
            confederates=[_user(f"lpp2-conf{i}", roles.CONFEDERATE) for i in range(4)],
        )
        schedule_create(contest_id=contest.pk)
        return lpp2_contest_connect(contest_id=contest.pk, secret=secret, driver=driver)


def lpp2_contest_connect(*, contest_id: int, secret: str, driver: str = Lpp2Contest.Driver.PANEL) -> Lpp2Contest:
    """Serve an existing Loebner contest (finals scheduled) over LPP2, as the one /socket.io/ serves: an
    identity for each participant (J1 = judge0, E1 = ai0, C1 = conf0) plus CONTROLLER and webcast, all with
    ``secret`` (the organiser changes each in the admin). Participants on the platform's consoles keep
    playing there: any of them may connect over LPP2 instead."""
    if not secret or len(secret) > wire.MAX_FIELD_CHARS:
        raise InvalidInput(f"The secret must be 1 to {wire.MAX_FIELD_CHARS} characters.")
    if driver not in Lpp2Contest.Driver.values:
        raise InvalidInput(f"driver must be one of {', '.join(Lpp2Contest.Driver.values)}.")
    with transaction.atomic():
        contest = Contest.objects.select_for_update().get(pk=contest_id)
        if not contest.rounds.exists():
            raise Closed("Build the contest's schedule first: LPP2 partners come from its meetings.")
        if Lpp2Contest.objects.filter(contest=contest).exists():
            raise Closed("This contest is served over LPP2 already.")
        Lpp2Contest.objects.filter(active=True).update(active=False)
        lpp2 = Lpp2Contest.objects.create(contest=contest, driver=driver)
        for participant in contest.participants.all():
            _identity(lpp2, wire.name_for(participant.kind, participant.label), secret, participant)
        for special in (wire.CONTROLLER, wire.WEBCAST):
            _identity(lpp2, special, secret, None)
    return lpp2


def _identity(lpp2, name, secret, participant) -> Lpp2Identity:
    identity = Lpp2Identity(lpp2=lpp2, name=name, participant=participant)
    identity.secret_set(secret)
    identity.save()
    return identity


# --- the control panel ------------------------------------------------------------------------
def _panel(lpp2_id: int) -> Lpp2Contest:
    lpp2 = Lpp2Contest.objects.select_for_update().select_related("contest").get(pk=lpp2_id)
    if lpp2.driver != Lpp2Contest.Driver.PANEL:
        raise Closed("This contest's rounds follow the platform's schedule, not the control panel.")
    return lpp2


def lpp2_round_new(*, lpp2_id: int) -> dict:
    """The panel's newRound: the next round becomes current (Not Started); its partners map."""
    with transaction.atomic():
        lpp2 = _panel(lpp2_id)
        number, round_ = selectors.round_current(lpp2=lpp2)
        if selectors.round_status(round_) == wire.RUNNING:
            raise Closed(f"Round {number} is running: end it first (endRound).")
        following = lpp2.contest.rounds.filter(number=number + 2).first()
        if following is None:
            raise Closed(f"There is no round {number + 1}: the contest has {lpp2.contest.rounds.count()} rounds.")
        lpp2.round_number = number + 1
        lpp2.save(update_fields=["round_number"])
        return selectors.partners(lpp2=lpp2, round_=following)


def lpp2_round_start(*, lpp2_id: int) -> Round:
    with transaction.atomic():
        lpp2 = _panel(lpp2_id)
        number, round_ = selectors.round_current(lpp2=lpp2)
        if round_ is None:
            raise Closed("No round yet: send newRound first.")
        return round_start(round_id=round_.pk)


def lpp2_round_end(*, lpp2_id: int) -> Round:
    """The panel's endRound: the round's conversations end now and the round is over (no review wait:
    the judges score on LPP2 with ``score``)."""
    with transaction.atomic():
        lpp2 = _panel(lpp2_id)
        number, round_ = selectors.round_current(lpp2=lpp2)
        if round_ is None or round_.status not in (Round.Status.RUNNING, Round.Status.PAUSED):
            raise Closed(f"Round {number} is not running.")
        return round_finish(round_id=round_.pk)  # its meetings end, and with them the round


# --- participants -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """A stored line as its recipients' sockets get it: the partner ``to`` and the webcasts watching
    ``judge`` in round ``number``; ``data`` is the ``message`` event's payload."""

    conversation_id: int
    seq: int
    to: str
    judge: str
    number: int
    data: str
    layer_copy_here: bool = True  # False: the channel layer does not bring it to its sender's hub as well


def _meeting_of(lpp2: Lpp2Contest, identity: Lpp2Identity) -> tuple[int, Meeting]:
    number, round_ = selectors.round_current(lpp2=lpp2)
    if round_ is None:
        raise Closed("No round has begun (roundNumber -1).")
    field = {
        Participant.Kind.JUDGE: "judge",
        Participant.Kind.ENTRY: "entry",
        Participant.Kind.CONFEDERATE: "confederate",
    }[identity.participant.kind]
    meeting = (
        round_.meetings.filter(**{field: identity.participant})
        .select_related("judge__user", "entry", "confederate__user", "interrogation")
        .first()
    )
    if meeting is None:
        raise NotAllowed(f"{identity.name} has no partner in round {number}.")
    return number, meeting


def lpp2_message_send(*, lpp2: Lpp2Contest, identity: Lpp2Identity, to, content, number: int | None = None) -> Line:
    """One line from an LPP2 client into its meeting's conversation with ``to`` in round ``number`` (the
    current one when not given): the stored line, and what its sender's process relays at once. The hot
    path: the seats come from ``selectors.contest_static``, the round from ``selectors.line_target_cached``;
    arena's ``message_post`` checks that the conversation runs, in one statement on PostgreSQL.

    The text is stored and relayed exactly as typed (spaces kept), up to LINE_MAX_CHARS characters. An
    entry has one partner a round: its line addressed to anyone else goes to that partner, and the name
    the client gave is kept as a problem of the round (``readdressed``); judges and confederates must
    name their partner."""
    if identity.participant_id is None:
        raise NotAllowed(f"{identity.name} does not chat.")
    if not isinstance(to, str) or not to:
        raise InvalidInput("to must name a partner.")
    if number is None:
        number, _ = selectors.round_current(lpp2=lpp2, load=False)
    if number < 0:
        raise Closed("No round has begun (roundNumber -1).")
    seat, partner = selectors.seat_partner(
        selectors.contest_static(lpp2=lpp2), number=number, name=identity.name, to=to
    )
    if seat is None:
        raise NotAllowed(f"{identity.name} has no partner in round {number}.")
    named = to
    if partner is None and wire.role_of(identity.name) == "ai" and len(seat["partners"]) == 1:
        to, partner = next(iter(seat["partners"].items()))
    if partner is None:
        raise NotAllowed(f"{to[:40]} is not your partner in round {number}.")
    conversation_id, role, user = partner
    try:
        message = message_post(
            conversation_id=conversation_id,
            sender_role=role,
            text=content,
            user=user,
            exact=True,
            max_chars=LINE_MAX_CHARS,
        )
    except Closed:
        status = selectors.round_status(selectors.round_current(lpp2=lpp2)[1])
        if status != wire.RUNNING:
            raise Closed(f"Round {number} is {status}, not Running.") from None
        raise
    if named != to:
        lpp2_problem_record(
            lpp2_id=lpp2.pk,
            round_number=number,
            kind=Lpp2Problem.Kind.READDRESSED,
            event="message",
            sender=identity.name,
            to=named,
            chars=len(message.text),
            reason=f"addressed to {named[:40]}, not its partner: stored and relayed as a line to {to}",
        )
    return line_of(sender=identity.name, to=to, role=role, number=number, message=message)


def line_of(*, sender: str, to: str, role: str, number: int, message: Message) -> Line:
    """The stored ``message`` from ``sender`` (writing as ``role``) to ``to`` in round ``number``, as relayed."""
    judge = sender if role == Message.Role.INTERROGATOR else to
    data = wire.dumps(wire.message_map(sender=sender, to=to, content=message.text))
    return Line(conversation_id=message.conversation_id, seq=message.seq, to=to, judge=judge, number=number, data=data)


def lpp2_score_record(*, lpp2: Lpp2Contest, identity: Lpp2Identity, robot) -> Lpp2Score:
    """The judge's pick of the robot for the current round; stored (a later pick replaces it) with the
    meeting's judgment (the other partner is the one called human)."""
    if identity.participant_id is None or identity.participant.kind != Participant.Kind.JUDGE:
        raise NotAllowed("Only a judge scores.")
    number, meeting = _meeting_of(lpp2, identity)
    names = selectors.participant_names(lpp2)
    entry, confederate = names[meeting.entry_id], names[meeting.confederate_id]
    if robot not in (entry, confederate):
        raise InvalidInput(f"robot must be one of your partners in round {number}: {entry} or {confederate}.")
    human = Meeting.Left.CONFEDERATE if robot == entry else Meeting.Left.ENTRY
    with transaction.atomic():
        # the judge's page placed its two partners itself: the side the schedule planned was never on its screen
        Meeting.objects.filter(pk=meeting.pk).update(left=Meeting.Left.UNKNOWN)
        score, _ = Lpp2Score.objects.update_or_create(
            lpp2=lpp2, round_number=number, judge=identity.name, defaults={"robot": robot}
        )
        Judgment.objects.update_or_create(meeting=meeting, defaults={"human": human, "decided_at": timezone.now()})
    return score


def lpp2_final_record(*, lpp2: Lpp2Contest, identity: Lpp2Identity, data: dict) -> list[Lpp2Score]:
    """The judge page's ``finalScore``: a humanness score (rounds … 1, no ties) for each round's robot
    pick; stored beside the picks and as the judge's ranks (1 = most human) of those picked. Taken once
    every round is finished."""
    if identity.participant_id is None or identity.participant.kind != Participant.Kind.JUDGE:
        raise NotAllowed("Only a judge gives final scores.")
    rounds = lpp2.contest.rounds.count()
    unfinished = lpp2.contest.rounds.exclude(status=Round.Status.ENDED).count()
    if unfinished:
        raise Closed(f"Final scores are given once every round is finished: {unfinished} of {rounds} rounds are not.")
    try:
        values = wire.final_scores(data, rounds)
    except wire.PayloadError as error:
        raise InvalidInput(str(error)) from None
    by_name = {
        i.name: i.participant for i in lpp2.identities.filter(participant__isnull=False).select_related("participant")
    }
    with transaction.atomic():
        rows = [
            Lpp2Score.objects.update_or_create(
                lpp2=lpp2, round_number=r, judge=identity.name, defaults={"final_score": value}
            )[0]
            for r, value in enumerate(values)
        ]
        JudgeRank.objects.filter(contest=lpp2.contest, judge=identity.participant).delete()
        for row in rows:
            if row.robot in by_name:
                JudgeRank.objects.create(
                    contest=lpp2.contest,
                    judge=identity.participant,
                    ranked=by_name[row.robot],
                    rank=rounds + 1 - row.final_score,
                )
    return rows


def lpp2_problem_record(
    *,
    lpp2_id: int,
    round_number: int,
    kind: str,
    event: str,
    sender: str,
    reason: str,
    to="",
    chars: int | None = None,
) -> Lpp2Problem | None:
    """Keep one problem of the round for the organiser (the control panel and the admin list them); at
    most PROBLEMS_KEPT a round (None beyond: the log still has each)."""
    if Lpp2Problem.objects.filter(lpp2_id=lpp2_id, round_number=round_number).count() >= PROBLEMS_KEPT:
        return None
    return Lpp2Problem.objects.create(
        lpp2_id=lpp2_id,
        round_number=round_number,
        kind=kind,
        event=event[:20],
        sender=str(sender)[:40],
        to=to[:40] if isinstance(to, str) else "",
        chars=chars,
        reason=reason[:300],
    )


# --- presence -------------------------------------------------------------------------------------
def lpp2_socket_bind(*, lpp2_id: int, name: str, sid: str) -> None:
    Lpp2Socket.objects.update_or_create(sid=sid, defaults={"lpp2_id": lpp2_id, "name": name})


def lpp2_socket_drop(*, sid: str) -> None:
    Lpp2Socket.objects.filter(sid=sid).delete()


def lpp2_sockets_touch(*, sids: list[str]) -> None:
    """A process's heartbeat for its sockets (a process that dies stops refreshing its rows)."""
    if sids:
        Lpp2Socket.objects.filter(sid__in=sids).update(seen_at=timezone.now())
