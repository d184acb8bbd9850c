"""The lobby: participants take tickets and are matched by the rules of `studies.rules.matching`, applied
to the database under the study's row lock (the database is the truth: a restart loses no one; the
channel layer only tells pages that something changed)."""

import datetime as dt
from collections import Counter

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from arena.models import Status
from core.dispatch import enqueue_on_commit
from core.errors import Closed, NotAllowed
from core.notify import push_many
from studies import groups
from studies.models import Flag, Game, Participant, Study, Ticket
from studies.rules.matching import HUMAN, Match, Waiter, arrival_decide, fallback_decide, ticket_kind
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
    """Take the participant's next ticket: a game at once (an AI witness, or a partner who was waiting),
    or a waiting ticket. Joining again while waiting or playing returns that ticket or game. A waiting
    ticket starts the timeout task (`timer`; a simulation on its own clock calls lobby_expire itself)."""
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


def _join(participant: Participant, now: dt.datetime, timer: bool) -> Ticket | Game:
    from studies.tasks import lobby_timeout

    with transaction.atomic():
        study = Study.objects.select_for_update().get(pk=participant.study_id)
        current = game_current(participant=participant)
        if current is not None:
            return current
        waiting = Ticket.objects.filter(participant=participant, state=Ticket.State.WAITING).first()
        if waiting is not None:
            return waiting
        _admissible(study, participant, now)
        design = study.design
        number = study.tickets_issued
        kind = ticket_kind(design, number)
        queue = list(Ticket.objects.filter(study=study, state=Ticket.State.WAITING).select_related("participant"))
        people = {t.participant_id: t.participant for t in queue} | {participant.pk: participant}
        played, interrogations = _counts(list(people))
        newcomer = Waiter(
            participant.pk,
            number,
            _seconds(now),
            _identities(participant),
            interrogations[participant.pk],
            played[participant.pk],
            participant.fixed_role or None,
        )
        waiters = [_waiter(t, t.participant, played, interrogations) for t in queue]
        match = arrival_decide(design, newcomer, kind, waiters, _partners(participant.pk), study.pairs_formed)
        conditions = {c.index: c for c in study.conditions.all()}
        ticket = Ticket.objects.create(
            study=study,
            participant=participant,
            number=number,
            created_at=now,
            kind="ai" if match is not None and match.witness is None else HUMAN,
            condition=conditions.get(kind) if kind != HUMAN else None,
        )
        study.tickets_issued = number + 1
        if match is None:
            study.save(update_fields=["tickets_issued"])
            if timer:
                enqueue_on_commit(lobby_timeout, study.pk, countdown=study.human_wait_s + 0.05)
            _notify_on_commit(study, [])
            return ticket
        if match.witness is not None:
            study.pairs_formed += 1
        study.save(update_fields=["tickets_issued", "pairs_formed"])
        tickets = [ticket] + [t for t in queue if t.participant_id in (match.interrogator, match.witness)]
        game = _play(study, match, people, conditions, tickets, now)
    return game


def _play(study, match: Match, people: dict, conditions: dict, tickets, now) -> Game:
    game = game_create(
        study=study,
        interrogator=people[match.interrogator],
        witness=people.get(match.witness) if match.witness is not None else None,
        condition=conditions.get(match.condition) if match.condition is not None else None,
        fallback=match.fallback,
    )
    Ticket.objects.filter(pk__in=[t.pk for t in tickets]).update(state=Ticket.State.MATCHED, settled_at=now, game=game)
    _notify_on_commit(study, [], matched=game)
    return game


def lobby_expire(*, study_id: int, now: dt.datetime | None = None, wait_s: float | None = None) -> list[Game]:
    """Everyone who waited `human_wait_s` or longer for a human partner: the design's fallback (an AI
    witness) or their ticket is cancelled. Called by the timeout task, by every lobby page's state
    request and by a restarted server, so a lost timer costs at most one page refresh. ``wait_s``: the
    study's `human_wait_s` where the caller has it (a lobby page), else read here."""
    now = now or timezone.now()
    if wait_s is None:
        study = Study.objects.filter(pk=study_id).only("human_wait_s").first()
        if study is None:
            return []
        wait_s = study.human_wait_s
    cutoff = now - dt.timedelta(seconds=wait_s)
    if not Ticket.objects.filter(study_id=study_id, state=Ticket.State.WAITING, created_at__lte=cutoff).exists():
        return []
    games = []
    with transaction.atomic():
        study = Study.objects.select_for_update().get(pk=study_id)
        design = study.design
        due = list(
            Ticket.objects.filter(study=study, state=Ticket.State.WAITING, created_at__lte=cutoff)
            .select_related("participant")
            .order_by("created_at", "number")
        )
        people = {t.participant_id: t.participant for t in due}
        played, interrogations = _counts(list(people))
        conditions = {c.index: c for c in study.conditions.all()}
        for ticket in due:
            match = fallback_decide(
                design, _waiter(ticket, ticket.participant, played, interrogations), study.fallbacks
            )
            if match is None:
                Ticket.objects.filter(pk=ticket.pk).update(state=Ticket.State.CANCELLED, settled_at=now)
                _notify_on_commit(study, [ticket.participant_id])
                continue
            study.fallbacks += 1
            games.append(_play(study, match, people, conditions, [ticket], now))
        study.save(update_fields=["fallbacks"])
    return games


def lobby_leave(*, participant_id: int) -> bool:
    left = Ticket.objects.filter(participant_id=participant_id, state=Ticket.State.WAITING).update(
        state=Ticket.State.LEFT, settled_at=timezone.now()
    )
    return bool(left)


def _notify_on_commit(study: Study, participant_ids, *, matched: Game | None = None) -> None:
    """After the commit: "re-read your state" to `participant_ids`, "your game is ready" (with its page)
    to the players of `matched`, and the lobby's new head count to everyone in it."""

    def send():
        waiting = Ticket.objects.filter(study=study, state=Ticket.State.WAITING).count()
        pushes = [(groups.participant_group(pid), {"type": "refresh"}) for pid in participant_ids]
        if matched is not None:
            url = f"/play/game/{matched.public_id}/"
            pushes += [
                (groups.participant_group(pid), {"type": "matched", "game": {"url": url, "role": role}})
                for pid, role in ((matched.interrogator_id, "interrogator"), (matched.human_witness_id, "witness"))
                if pid is not None
            ]
        pushes.append((groups.lobby_group(study.pk), {"type": "lobby", "waiting": waiting}))
        push_many(pushes)

    transaction.on_commit(send)
