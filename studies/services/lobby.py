"""The lobby: participants take tickets and are matched by the rules of `studies.rules.matching`, applied
to the database under the study's row lock (the database is the truth: a restart loses no one; the
channel layer only tells pages that something changed). A ticket is *looking* until it is paired or its
pairing window closes, then *decided* (a partner or an AI witness, and the moment its game starts), and
matched when that moment comes: every game starts at its drawn time, human or machine."""

import datetime as dt
from collections import Counter

from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from arena.models import Status
from core.dispatch import enqueue_on_commit
from core.errors import Closed, NotAllowed
from core.notify import push_many
from studies import groups
from studies.models import Flag, Game, Participant, Study, Ticket
from studies.rules.design import FALLBACK_AI, THREE_PARTY
from studies.rules.matching import (
    HUMAN,
    RECENT_GAPS,
    Deal,
    Waiter,
    arrival_decide,
    borrowed_gap,
    condition_pick,
    deadline_decide,
    game_block,
    roles_pick,
    wait_draw,
)
from studies.services.games import game_create


def _seconds(moment: dt.datetime) -> float:
    return moment.timestamp()


def _identities(participant: Participant) -> frozenset:
    ids = {f"account:{participant.account_id}"} if participant.account_id else set()
    if participant.device:
        ids.add(f"device:{participant.device}")
    return frozenset(ids)


def _counts(participant_ids) -> tuple[Counter, Counter]:
    """(games, interrogations) per participant."""
    games = Game.objects.filter(Q(interrogator__in=participant_ids) | Q(human_witness__in=participant_ids))
    interrogations, played = Counter(), Counter()
    for interrogator, witness in games.values_list("interrogator", "human_witness"):
        interrogations[interrogator] += 1
        played[interrogator] += 1
        if witness is not None:
            played[witness] += 1
    return played, interrogations


def _waiter(ticket: Ticket, participant: Participant, played: Counter, interrogations: Counter) -> Waiter:
    return Waiter(
        participant.pk,
        ticket.number,
        _seconds(ticket.created_at),
        _identities(participant),
        interrogations[participant.pk],
        played[participant.pk],
        participant.fixed_role or None,
    )


def _partners(participant_id: int) -> set:
    pairs = Game.objects.filter(
        Q(interrogator=participant_id) | Q(human_witness=participant_id), human_witness__isnull=False
    ).values_list("interrogator", "human_witness")
    return {frozenset(pair) for pair in pairs}


def game_current(*, participant: Participant) -> Game | None:
    """The game the participant is in: running, or ended and waiting for their verdict."""
    open_games = (
        Game.objects.filter(Q(interrogator=participant) | Q(human_witness=participant))
        .filter(
            Q(interrogation__status__in=[Status.SCHEDULED, Status.RUNNING])
            | Q(interrogator=participant, interrogation__status=Status.ENDED, interrogation__verdict__isnull=True)
        )
        .select_related("interrogation")
    )
    return open_games.order_by("-pk").first()


def _admissible(study: Study, participant: Participant, now: dt.datetime) -> None:
    if study.status != Study.Status.OPEN and not participant.simulated:
        raise Closed("This study is closed: thank you for taking part.")
    if participant.stage != Participant.Stage.PLAYING:
        raise NotAllowed("Agree to the consent form and answer the questions first.", code="not_ready")
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    counts = Game.objects.filter(Q(interrogator=participant) | Q(human_witness=participant)).aggregate(
        total=Count("pk"), today=Count("pk", filter=Q(created_at__gte=midnight))
    )
    if counts["total"] >= study.games_per_participant:
        raise Closed(
            f"You have played all {study.games_per_participant} games of this study: thank you!", code="all_played"
        )
    if counts["today"] >= study.games_per_day:
        raise NotAllowed(
            f"You have played {study.games_per_day} games today, the most a day: come back tomorrow.", code="daily_cap"
        )


def lobby_join(*, participant_id: int, now: dt.datetime | None = None, timer: bool = True) -> Ticket | Game:
    """Take the participant's next ticket: a waiting ticket (paired at once with a partner who is looking,
    or looking itself), or the game, when its drawn wait is nothing. Joining again while waiting or
    playing returns that ticket or game. `timer`: start the tasks that decide and start the ticket's
    game on time (a simulation on its own clock calls `lobby_expire` itself)."""
    now = now or timezone.now()
    participant = Participant.objects.select_related("study").get(pk=participant_id)
    try:
        return _join(participant, now, timer)
    except NotAllowed as exc:
        if exc.code == "daily_cap":  # recorded after the refused transaction, for the researcher
            Flag.objects.get_or_create(
                study_id=participant.study_id,
                participant=participant,
                kind=Flag.Kind.DAILY_CAP,
                detail=f"{now:%Y-%m-%d}",
            )
        raise


def _timer(study: Study, due: dt.datetime, now: dt.datetime) -> None:
    from studies.tasks import lobby_timeout

    enqueue_on_commit(lobby_timeout, study.pk, countdown=max(0.0, (due - now).total_seconds()) + 0.05)


def _join(participant: Participant, now: dt.datetime, timer: bool) -> Ticket | Game:
    with transaction.atomic():
        study = Study.objects.select_for_update().get(pk=participant.study_id)
        design = study.design
        _due(study, design, now, timer)
        current = game_current(participant=participant)
        if current is not None:
            return current
        waiting = Ticket.objects.filter(participant=participant, state=Ticket.State.WAITING).first()
        if waiting is not None:
            return waiting
        _admissible(study, participant, now)
        number = study.tickets_issued
        wait = wait_draw(design, number)
        looking = list(
            Ticket.objects.filter(study=study, state=Ticket.State.WAITING, kind="", pair_until__gt=now)
            .select_related("participant")
            .order_by("created_at", "number")
        )
        people = {t.participant_id: t.participant for t in looking} | {participant.pk: participant}
        played, interrogations = _counts(list(people))
        ticket = Ticket.objects.create(
            study=study,
            participant=participant,
            number=number,
            created_at=now,
            wait_s=wait,
            pair_until=now + dt.timedelta(seconds=design.min_wait_s),
        )
        newcomer = _waiter(ticket, participant, played, interrogations)
        waiters = {t.participant_id: t for t in looking}
        partner = arrival_decide(
            design,
            newcomer,
            [_waiter(t, t.participant, played, interrogations) for t in looking],
            _partners(participant.pk),
            _deal(study),
            game_block(design),
        )
        study.tickets_issued = number + 1
        start = now + dt.timedelta(seconds=wait)
        if isinstance(partner, Waiter):
            other = waiters[partner.participant]
            condition = (
                _conditions(study).get(condition_pick(design, "pair", study.pairs_formed))
                if design.format == THREE_PARTY
                else None
            )
            for mine, theirs in ((ticket, other), (other, ticket)):
                Ticket.objects.filter(pk=mine.pk).update(
                    kind=HUMAN, partner=theirs, condition=condition, start_at=start
                )
            study.pairs_formed += 1
        elif partner is not None:  # the block's AI games come first: decided now, started on time
            study.ai_dealt += 1
            start = _ai_plan(ticket, design, _conditions(study).get(partner), False, _recent_gaps(study))
        ticket.refresh_from_db()
        study.save(update_fields=["tickets_issued", "pairs_formed", "ai_dealt"])
        if timer:
            _timer(study, start if partner is not None else ticket.pair_until, now)
        games = _due(study, design, now, timer) if start <= now else []
    return next((g for g in games if participant.pk in (g.interrogator_id, g.human_witness_id)), ticket)


def _deal(study: Study) -> Deal:
    return Deal(humans=study.pairs_formed, ai=study.ai_dealt)


def _conditions(study: Study) -> dict:
    return {c.index: c for c in study.conditions.all()}


def _recent_gaps(study: Study) -> list[float]:
    """The arrival gaps of the study's recent human pairs, newest first (each pair once: its later ticket)."""
    rows = (
        Ticket.objects.filter(study=study, kind=HUMAN, partner__number__lt=F("number"))
        .order_by("-number")
        .values_list("created_at", "partner__created_at")[:RECENT_GAPS]
    )
    return [(later - earlier).total_seconds() for later, earlier in rows]


def _ai_plan(ticket: Ticket, design, condition, fallback: bool, gaps) -> dt.datetime:
    """Decide an AI game for a ticket: it starts at the ticket's drawn wait plus, for one in two, a
    recent human pair's arrival gap. Returns that moment."""
    start = ticket.created_at + dt.timedelta(seconds=ticket.wait_s + borrowed_gap(design, ticket.number, gaps))
    Ticket.objects.filter(pk=ticket.pk).update(kind="ai", condition=condition, fallback=fallback, start_at=start)
    return start


def _due(study: Study, design, now: dt.datetime, timer: bool) -> list[Game]:
    """Under the study's lock: decide every ticket whose pairing window has closed (an AI witness, or
    the wait cancelled), then start every game whose moment has come."""
    block, conditions = game_block(design), None
    closed = list(
        Ticket.objects.filter(study=study, state=Ticket.State.WAITING, kind="", pair_until__lte=now)
        .select_related("participant")
        .order_by("pair_until", "number")
    )
    gaps = _recent_gaps(study) if closed else []
    for ticket in closed:
        waiter = Waiter(ticket.participant_id, ticket.number, 0.0, fixed_role=ticket.participant.fixed_role or None)
        decision = deadline_decide(design, waiter, _deal(study), block, study.fallbacks)
        if decision is None:
            Ticket.objects.filter(pk=ticket.pk).update(state=Ticket.State.CANCELLED, settled_at=now)
            _notify_on_commit([ticket.participant_id])
            continue
        index, fallback = decision
        if fallback:
            study.fallbacks += 1
        else:
            study.ai_dealt += 1
        conditions = conditions or _conditions(study)
        start = _ai_plan(ticket, design, conditions.get(index), fallback, gaps)
        if timer and start > now:
            _timer(study, start, now)
    if closed:
        study.save(update_fields=["fallbacks", "ai_dealt"])
    starting = list(
        Ticket.objects.filter(study=study, state=Ticket.State.WAITING, start_at__lte=now)
        .select_related("participant", "condition", "partner__participant")
        .order_by("start_at", "number")
    )
    if not starting:
        return []
    people = {t.participant_id: t.participant for t in starting}
    people |= {t.partner.participant_id: t.partner.participant for t in starting if t.partner_id}
    played, interrogations = _counts(list(people))
    games, done = [], set()
    for ticket in starting:
        if ticket.pk in done:
            continue
        tickets = [ticket]
        if ticket.partner_id is not None:
            partner = ticket.partner
            done.add(partner.pk)
            tickets.append(partner)
            first, second = sorted(tickets, key=lambda t: t.number)
            interrogator, witness = roles_pick(
                design,
                _waiter(first, people[first.participant_id], played, interrogations),
                _waiter(second, people[second.participant_id], played, interrogations),
                second.number,
            )
            game = game_create(
                study=study,
                interrogator=people[interrogator.participant],
                witness=people[witness.participant],
                condition=ticket.condition,
            )
        else:
            game = game_create(
                study=study, interrogator=ticket.participant, condition=ticket.condition, fallback=ticket.fallback
            )
        Ticket.objects.filter(pk__in=[t.pk for t in tickets]).update(
            state=Ticket.State.MATCHED, settled_at=now, game=game
        )
        _notify_on_commit([], matched=game)
        games.append(game)
    return games


def lobby_expire(*, study_id: int, now: dt.datetime | None = None) -> list[Game]:
    """Decide the tickets whose pairing window has closed and start the games whose moment has come.
    Called by the timer tasks, by every lobby page's state request and by a restarted server, so a lost
    timer costs at most one page refresh."""
    now = now or timezone.now()
    due = Q(kind="", pair_until__lte=now) | Q(start_at__lte=now)
    if not Ticket.objects.filter(due, study_id=study_id, state=Ticket.State.WAITING).exists():
        return []
    with transaction.atomic():
        study = Study.objects.select_for_update().get(pk=study_id)
        return _due(study, study.design, now, timer=True)


def lobby_leave(*, participant_id: int) -> bool:
    """Leave the lobby. A partner already paired with the leaver keeps their moment: an AI witness
    (the design's fallback) takes the leaver's place, or their wait is cancelled."""
    ticket = Ticket.objects.filter(participant_id=participant_id, state=Ticket.State.WAITING).first()
    if ticket is None:
        return False
    now = timezone.now()
    with transaction.atomic():
        study = Study.objects.select_for_update().get(pk=ticket.study_id)
        left = Ticket.objects.filter(pk=ticket.pk, state=Ticket.State.WAITING).update(
            state=Ticket.State.LEFT, settled_at=now
        )
        partner = (
            Ticket.objects.filter(pk=ticket.partner_id, state=Ticket.State.WAITING).first()
            if left and ticket.partner_id
            else None
        )
        if partner is not None:
            design = study.design
            if design.fallback == FALLBACK_AI:
                index = condition_pick(design, "fallback", study.fallbacks)
                study.fallbacks += 1
                study.save(update_fields=["fallbacks"])
                Ticket.objects.filter(pk=partner.pk).update(
                    kind="ai", partner=None, fallback=True, condition=_conditions(study).get(index)
                )
            else:
                Ticket.objects.filter(pk=partner.pk).update(state=Ticket.State.CANCELLED, settled_at=now)
                _notify_on_commit([partner.participant_id])
    return bool(left)


def _notify_on_commit(participant_ids, *, matched: Game | None = None) -> None:
    """After the commit: "re-read your state" to `participant_ids`, and "your game is ready" (with its
    page) to the players of `matched`. Nothing goes to the rest of the lobby: who else is waiting is
    not a player's business (it would tell a human partner from a machine)."""

    def send():
        pushes = [(groups.participant_group(pid), {"type": "refresh"}) for pid in participant_ids]
        if matched is not None:
            url = f"/play/game/{matched.public_id}/"
            pushes += [
                (groups.participant_group(pid), {"type": "matched", "game": {"url": url, "role": role}})
                for pid, role in ((matched.interrogator_id, "interrogator"), (matched.human_witness_id, "witness"))
                if pid is not None
            ]
        if pushes:
            push_many(pushes)

    transaction.on_commit(send)
