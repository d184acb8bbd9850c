"""LPP2 reads: the served contest, identities, the current round and its status, partners, recaps, the
control panel's status. Every answer is computed from the database (restart-safe, any process)."""

from __future__ import annotations

import datetime as dt
import threading
import time

from cachetools import TTLCache, cached
from django.utils import timezone

from arena.models import Conversation, Message, Status
from lpp.models import Lpp2Contest, Lpp2Identity, Lpp2Problem, Lpp2Score, Lpp2Socket
from lpp.protocol import lpp2 as wire
from tournaments.loebner.models import Meeting, Participant, Round

PRESENCE_S = 90  # a socket row not refreshed for this long belongs to a process that died
PANEL_PROBLEMS = 40  # the current round's latest problems shown on the control panel (the admin lists all)


def lpp2_active() -> Lpp2Contest | None:
    return Lpp2Contest.objects.filter(active=True).select_related("contest").first()


def round_current(*, lpp2: Lpp2Contest, load: bool = True) -> tuple[int, Round | None]:
    """(0-based number, the Loebner round): the panel's round, or the latest started one of the schedule;
    ``load=False``: the number only (no query for the panel)."""
    if lpp2.driver == Lpp2Contest.Driver.PANEL:
        number = lpp2.round_number
    else:
        started = lpp2.contest.rounds.exclude(status=Round.Status.SCHEDULED).order_by("-number").first()
        number = started.number - 1 if started else -1
    if number < 0:
        return -1, None
    if not load:
        return number, None
    return number, lpp2.contest.rounds.filter(number=number + 1).first()


def round_status(round_: Round | None) -> str:
    """Running while any of its meetings is talking; Not Started before; Finished after (and before -1)."""
    if round_ is None or round_.status == Round.Status.ENDED:
        return wire.FINISHED
    if round_.status == Round.Status.SCHEDULED:
        return wire.NOT_STARTED
    talking = round_.meetings.filter(interrogation__status=Status.RUNNING).exists()
    return wire.RUNNING if talking else wire.FINISHED


def participant_names(lpp2: Lpp2Contest) -> dict[int, str]:
    """participant id -> LPP2 name."""
    return dict(Lpp2Identity.objects.filter(lpp2=lpp2, participant__isnull=False).values_list("participant_id", "name"))


def meetings(round_: Round | None):
    if round_ is None:
        return []
    return list(round_.meetings.select_related("judge", "entry", "confederate", "interrogation"))


def judge_partners(meeting: Meeting, names: dict[int, str]) -> list[str]:
    """The judge's two partners in the order the schedule drew (its planned left first); a page of its own
    may place them as it likes (``Meeting.Left.UNKNOWN`` once such a judge scores)."""
    entry, confederate = names[meeting.entry_id], names[meeting.confederate_id]
    return [entry, confederate] if meeting.left == Meeting.Left.ENTRY else [confederate, entry]


def partners(*, lpp2: Lpp2Contest, round_: Round | None) -> dict:
    """The reference's map: every judge, then every ai, then every confederate, each with its partners."""
    if round_ is None:
        return {}
    names = participant_names(lpp2)
    found = {m.judge_id: m for m in meetings(round_)}
    result: dict[str, list[str]] = {}
    by_kind = {
        kind: sorted(
            (i for i in Lpp2Identity.objects.filter(lpp2=lpp2, participant__kind=kind).select_related("participant")),
            key=lambda i: int(i.participant.label[1:]),
        )
        for kind in (Participant.Kind.JUDGE, Participant.Kind.ENTRY, Participant.Kind.CONFEDERATE)
    }
    for identity in by_kind[Participant.Kind.JUDGE]:
        meeting = found.get(identity.participant_id)
        result[identity.name] = judge_partners(meeting, names) if meeting else []
    for kind, attr in ((Participant.Kind.ENTRY, "entry_id"), (Participant.Kind.CONFEDERATE, "confederate_id")):
        for identity in by_kind[kind]:
            judge = next(
                (names[m.judge_id] for m in found.values() if getattr(m, attr) == identity.participant_id), None
            )
            result[identity.name] = [judge] if judge else []
    return result


def round_conversations(*, lpp2: Lpp2Contest) -> dict[int, tuple[str, str, int]]:
    """The conversations of the current round's meetings (what a process's hub listens to): conversation
    id -> (judge name, witness name, 0-based round number), so that no line waits for a name lookup."""
    number, round_ = round_current(lpp2=lpp2)
    found = [m for m in meetings(round_) if m.interrogation_id]
    if not found:
        return {}
    names = participant_names(lpp2)
    by_meeting = {m.interrogation_id: m for m in found}
    result = {}
    for pk, interrogation_id, entry_id in Conversation.objects.filter(interrogation_id__in=by_meeting).values_list(
        "pk", "interrogation_id", "witness_entry_id"
    ):
        meeting = by_meeting[interrogation_id]
        witness = meeting.entry_id if entry_id else meeting.confederate_id
        result[pk] = (names[meeting.judge_id], names[witness], number)
    return result


def hub_targets() -> tuple[Lpp2Contest | None, dict[int, tuple[str, str, int]]]:
    """(the served contest, its current round's conversations as ``round_conversations`` gives them):
    one thread visit for a hub's ``follow``."""
    lpp2 = lpp2_active()
    return lpp2, (round_conversations(lpp2=lpp2) if lpp2 is not None else {})


def recap(*, lpp2: Lpp2Contest, number: int, name: str, since=None, until=None) -> list[dict] | None:
    """Every message of round ``number`` sent to or by ``name``, oldest first; None before the first round.
    ``since`` and ``until``: only those stored from ``since`` on and before ``until`` (what a page that adds
    a recap to the lines it shows has not been sent)."""
    if number < 0:
        return None
    return [line for _, line in recap_timed(lpp2=lpp2, number=number, name=name, since=since, until=until)]


def recap_timed(*, lpp2: Lpp2Contest, number: int, name: str, since=None, until=None) -> list[tuple]:
    """``recap``'s lines with the time each was stored: [(created_at, line)], oldest first."""
    round_ = lpp2.contest.rounds.filter(number=number + 1).first()
    names = participant_names(lpp2)
    lines = []
    for meeting in meetings(round_):
        judge = names[meeting.judge_id]
        if not meeting.interrogation_id:
            continue
        for conversation in meeting.interrogation.conversations.all():
            witness = names[meeting.entry_id if conversation.witness_entry_id else meeting.confederate_id]
            if name not in (judge, witness):
                continue
            messages = conversation.messages.order_by("seq")
            if since is not None:
                messages = messages.filter(created_at__gte=since)
            if until is not None:
                messages = messages.filter(created_at__lt=until)
            for message in messages:
                by_judge = message.sender_role == Message.Role.INTERROGATOR
                lines.append(
                    (
                        message.created_at,
                        message.pk,
                        wire.message_map(
                            sender=judge if by_judge else witness,
                            to=witness if by_judge else judge,
                            content=message.text,
                        ),
                    )
                )
    return [(at, line) for at, _, line in sorted(lines, key=lambda t: (t[0], t[1]))]


def webcast_view(*, lpp2: Lpp2Contest, number: int, judge_index: int, delay_s: float | None = None) -> dict | None:
    """What the webcast shows for (round, judge): ``participants`` (judge, confederate, ai) and the recap.
    ``delay_s`` (the public webcast, no credentials): only lines at least that old in the recap, the younger
    ones in ``pending`` as (seconds until each is that old, line), and the two partners named ``partner1``
    and ``partner2`` in an order drawn from the platform's key (``aliases``), so that no name and no order
    tells the confederate from the entry."""
    judge = f"judge{judge_index}"
    round_ = lpp2.contest.rounds.filter(number=number + 1).first()
    names = participant_names(lpp2)
    meeting = next((m for m in meetings(round_) if names.get(m.judge_id) == judge), None)
    if meeting is None:
        return None
    participants = {
        "judge": judge,
        "participant1": names[meeting.confederate_id],
        "participant2": names[meeting.entry_id],
    }
    if delay_s is None:
        return {"participants": participants, "recap": recap(lpp2=lpp2, number=number, name=judge), "aliases": None}
    first, second = sorted(judge_partners(meeting, names), key=lambda name: _drawn(meeting.pk, name))
    aliases = {first: "partner1", second: "partner2", judge: judge}
    until = timezone.now() - dt.timedelta(seconds=delay_s)
    lines, pending = [], []
    for at, line in recap_timed(lpp2=lpp2, number=number, name=judge) if number >= 0 else []:
        shown = {**line, "id": aliases.get(line["id"], ""), "to": aliases.get(line["to"], "")}
        if at <= until:
            lines.append(shown)
        else:
            pending.append(((at - until).total_seconds(), shown))
    public = {"judge": judge, "participant1": "partner1", "participant2": "partner2"}
    return {"participants": public, "recap": lines, "aliases": aliases, "pending": pending}


def _drawn(meeting_id: int, name: str) -> str:
    import hashlib

    from django.conf import settings

    return hashlib.sha256(f"{settings.SECRET_KEY}:{meeting_id}:{name}".encode()).hexdigest()


def webcast_delay_s(lpp2: Lpp2Contest) -> float:
    """The contest's spectator delay (its own, else the platform's default for spectators)."""
    from django.conf import settings

    own = lpp2.contest.spectator_delay_s
    return float(settings.MARKETS_SPECTATOR_DELAY_S if own is None else own)


def contest_over(lpp2: Lpp2Contest) -> bool:
    """Whether every round of the contest is finished (final ranks are then given)."""
    rounds = lpp2.contest.rounds
    return rounds.exists() and not rounds.exclude(status=Round.Status.ENDED).exists()


def rank_paths(lpp2: Lpp2Contest) -> dict[str, str]:
    """Each judge's ranking page (its path, signed for that judge: ``notices.rank_token``)."""
    from django.urls import reverse

    from lpp.lpp2.notices import rank_token

    judges = Lpp2Identity.objects.filter(lpp2=lpp2, participant__kind=Participant.Kind.JUDGE)
    return {
        i.name: reverse("lpp:lpp2_rank", args=[rank_token(lpp2_id=lpp2.pk, name=i.name, secret_hash=i.secret_hash)])
        for i in judges.order_by("name")
    }


def rank_identity(token: str) -> Lpp2Identity | None:
    """The judge a ranking address is for, while that judge's secret is the one it was made with."""
    from lpp.lpp2.notices import rank_token_read

    value = rank_token_read(token)
    if value is None:
        return None
    identity = (
        Lpp2Identity.objects.filter(lpp2_id=value["l"], name=value["n"], participant__kind=Participant.Kind.JUDGE)
        .select_related("lpp2__contest", "participant__user")
        .first()
    )
    return identity if identity is not None and identity.secret_hash[:16] == value["h"] else None


def problems_shown(*, lpp2: Lpp2Contest, number: int) -> dict[str, bool]:
    """The control panel's fourth row: the round's latest problems, each a cell (a key, shown in red as
    the panel shows a client not connected; HTML-escaped, as the panel writes keys into its page)."""
    from django.utils.html import escape

    rows = list(Lpp2Problem.objects.filter(lpp2=lpp2, round_number=number).order_by("-at", "-pk")[:PANEL_PROBLEMS])
    total = Lpp2Problem.objects.filter(lpp2=lpp2, round_number=number).count() if len(rows) == PANEL_PROBLEMS else 0
    cells = {}
    for row in reversed(rows):
        to = f" to {row.to}" if row.to else ""
        size = f" ({row.chars:,} characters)" if row.chars is not None else ""
        text = f"#{row.pk} {row.at:%H:%M:%S} {row.kind}: {row.event} from {row.sender}{to}{size}: {row.reason}"
        cells[escape(text)] = False
    if total > PANEL_PROBLEMS:
        cells[escape(f"{total - PANEL_PROBLEMS} earlier problems of this round: see the admin's LPP2 problems")] = False
    return cells


def status_update(*, lpp2: Lpp2Contest) -> dict:
    """The control panel's view (the reference's ``statusUpdate``): round, status, connected clients per
    role (judges, ais, confederates), the judges who scored this round, every round's scores."""
    number, round_ = round_current(lpp2=lpp2)
    fresh = timezone.now() - dt.timedelta(seconds=PRESENCE_S)
    online = set(Lpp2Socket.objects.filter(lpp2=lpp2, seen_at__gte=fresh).values_list("name", flat=True))
    connected: list[dict] = [{}, {}, {}]
    for name in sorted(
        Lpp2Identity.objects.filter(lpp2=lpp2, participant__isnull=False).values_list("name", flat=True),
        key=lambda n: (n.rstrip("0123456789"), int(n[len(n.rstrip("0123456789")) :])),
    ):
        connected[{"judge": 0, "ai": 1, "conf": 2}[wire.role_of(name)]][name] = name in online
    rounds = lpp2.contest.rounds.count()
    scores: list[dict] = [{} for _ in range(rounds)]
    for row in Lpp2Score.objects.filter(lpp2=lpp2).exclude(robot=""):
        if 0 <= row.round_number < rounds:
            scores[row.round_number][row.judge] = row.robot
    scored = sorted(scores[number]) if 0 <= number < rounds else []
    connected.append(problems_shown(lpp2=lpp2, number=number))
    return {
        "roundNumber": number,
        "roundStatus": round_status(round_),
        "connectedClients": connected,
        "scoredClients": scored,
        "scores": scores,
    }


# --- the hot path: what does not change during a contest, cached per process for a few seconds -------
STATIC_TTL_S = 5.0


def contest_static_load(*, lpp2: Lpp2Contest) -> dict:
    """{"identities": name -> Lpp2Identity (participant and user loaded), "seats": (round number, name) ->
    {"judge", "partners": {partner name: (conversation id, sender role, user)}}}, read now."""
    identities = {i.name: i for i in Lpp2Identity.objects.filter(lpp2=lpp2).select_related("participant__user")}
    names = {i.participant_id: i.name for i in identities.values() if i.participant_id}
    users = {i.participant_id: i.participant.user for i in identities.values() if i.participant_id}
    seats: dict[tuple[int, str], dict] = {}
    meetings = [
        m
        for m in Meeting.objects.filter(round__contest_id=lpp2.contest_id).select_related("round")
        if m.interrogation_id
    ]
    sides: dict[int, dict[bool, int]] = {}  # interrogation id -> {with a machine witness: conversation id}
    for interrogation_id, entry_id, pk in Conversation.objects.filter(
        interrogation_id__in=[m.interrogation_id for m in meetings]
    ).values_list("interrogation_id", "witness_entry_id", "pk"):
        sides.setdefault(interrogation_id, {})[entry_id is not None] = pk
    for meeting in meetings:
        number, judge = meeting.round.number - 1, names[meeting.judge_id]
        by_machine = sides[meeting.interrogation_id]
        entry, confederate = names[meeting.entry_id], names[meeting.confederate_id]
        seats[(number, judge)] = {
            "judge": judge,
            "partners": {
                entry: (by_machine[True], Message.Role.INTERROGATOR, users[meeting.judge_id]),
                confederate: (by_machine[False], Message.Role.INTERROGATOR, users[meeting.judge_id]),
            },
        }
        seats[(number, entry)] = {"judge": judge, "partners": {judge: (by_machine[True], Message.Role.WITNESS, None)}}
        seats[(number, confederate)] = {
            "judge": judge,
            "partners": {judge: (by_machine[False], Message.Role.WITNESS, users[meeting.confederate_id])},
        }
    return {"identities": identities, "seats": seats}


@cached(TTLCache(maxsize=64, ttl=STATIC_TTL_S), key=lambda *, lpp2: lpp2.pk, lock=threading.Lock())
def contest_static(*, lpp2: Lpp2Contest) -> dict:
    """``contest_static_load``, cached STATIC_TTL_S seconds: a secret changed in the admin is seen within
    that time (a message into an ended conversation is refused by arena's message_post meanwhile); the
    hub's beat re-reads it before the TTL runs out (``hot_path_warm``), so no line waits for the reload."""
    return contest_static_load(lpp2=lpp2)


LINE_TTL_S = 2.0


def line_target_load() -> tuple[Lpp2Contest | None, int]:
    lpp2 = lpp2_active()
    return lpp2, (round_current(lpp2=lpp2, load=False)[0] if lpp2 is not None else -1)


@cached(TTLCache(maxsize=1, ttl=LINE_TTL_S), key=lambda: "served", lock=threading.Lock())
def line_target_cached() -> tuple[Lpp2Contest | None, int]:
    """(the served contest, its current round number) as a line's hot path sees them, cached LINE_TTL_S
    seconds per process, so a line costs the append's one statement and nothing else.

    A line accepted through a stale answer is still right: the append stores it only into a running
    conversation, and while a round runs no other round becomes current (newRound refuses). Whatever
    refuses a line is decided again from fresh reads (``events.lpp2_event``), and this process's
    panel events re-read both caches at once (``hot_path_warm``)."""
    return line_target_load()


def line_target_peek() -> tuple[Lpp2Contest | None, int]:
    """``line_target_cached``'s answer if this process holds it, else (None, -1): no query (the loop's lines)."""
    with line_target_cached.cache_lock:
        return line_target_cached.cache.get(line_target_cached.cache_key(), (None, -1))


def contest_static_peek(*, lpp2: Lpp2Contest) -> dict | None:
    """``contest_static``'s answer if this process holds it, else None: no query."""
    with contest_static.cache_lock:
        return contest_static.cache.get(contest_static.cache_key(lpp2=lpp2))


def hot_path_forget() -> None:
    """Drop the line target and the seats: the next line reads both afresh."""
    for function in (line_target_cached, contest_static):
        with function.cache_lock:
            function.cache.clear()
    _static_read.clear()


_static_read: dict[
    int, tuple[float, int]
] = {}  # lpp2 id -> (monotonic time, round number) of hot_path_warm's last seats


def hot_path_warm(*, fresh_s: float = 0.0) -> None:
    """Read the line target and the served contest's seats now and put them in this process's caches:
    the hub's beat does it every second and a panel event after its change, so that lines find them
    fresh instead of reloading them at a round's first line or when the TTL runs out (8 LPP2
    conversations at once: 20–40 ms for the lines that met a reload, 3–7 ms for the others).
    ``fresh_s`` (the beat's): the seats, the heavier read (3 ms of the interpreter a time, which every
    line arriving meanwhile waits behind), are read again only once they are that old or the round
    has changed; the line target (one query) always."""
    target = line_target_load()
    with line_target_cached.cache_lock:
        line_target_cached.cache[line_target_cached.cache_key()] = target
    lpp2, number = target
    if lpp2 is None:
        return
    read = _static_read.get(lpp2.pk)
    if (
        read is not None
        and read[1] == number
        and time.monotonic() - read[0] < fresh_s
        and contest_static_peek(lpp2=lpp2) is not None
    ):
        return
    started = time.monotonic()
    seats = contest_static_load(lpp2=lpp2)
    with contest_static.cache_lock:
        contest_static.cache[contest_static.cache_key(lpp2=lpp2)] = seats
    _static_read[lpp2.pk] = (started, number)


def seat_partner(static: dict | None, *, number: int, name: str, to) -> tuple[dict | None, tuple | None]:
    """From ``contest_static``'s answer: (``name``'s seat in round ``number``, its partner ``to``'s
    (conversation id, sender role, user)), each None where there is none (the same rule for the loop's
    lines and the thread path's)."""
    seat = static["seats"].get((number, name)) if static is not None else None
    partner = seat["partners"].get(to) if seat is not None and isinstance(to, str) else None
    return seat, partner


def line_sender(data, *, load: bool = True) -> tuple | None:
    """A line's (payload, served contest, current round number, sender's identity) through this process's
    caches, or None when the payload is not JSON, no round runs or the secret does not match;
    ``load=False``: from what the caches hold now only, no query (None when they hold nothing)."""
    try:
        payload = wire.parse(data)
    except wire.PayloadError:
        return None
    lpp2, number = line_target_cached() if load else line_target_peek()
    if lpp2 is None or number < 0:
        return None
    static = contest_static(lpp2=lpp2) if load else contest_static_peek(lpp2=lpp2)
    identity = static["identities"].get(payload["id"]) if static is not None else None
    if identity is None or not identity.secret_matches(payload["secret"]):
        return None
    return payload, lpp2, number, identity


def identity_cached(*, lpp2: Lpp2Contest, name: str, secret: str) -> Lpp2Identity | None:
    identity = contest_static(lpp2=lpp2)["identities"].get(name)
    return identity if identity is not None and identity.secret_matches(secret) else None


def schedule_changes(*, lpp2_ids, told: dict) -> dict:
    """For the schedule-driven contests among ``lpp2_ids``: lpp2 id -> ((round, status) now, the control
    messages a panel would have broadcast since ``told[id]``, the judges' ranking paths when the last
    round has just finished, else None). The first look tells nothing."""
    changes = {}
    for lpp2 in Lpp2Contest.objects.filter(pk__in=lpp2_ids, driver=Lpp2Contest.Driver.SCHEDULE).select_related(
        "contest"
    ):
        number, round_ = round_current(lpp2=lpp2)
        state = (number, round_status(round_) if number >= 0 else wire.FINISHED)
        before = told.get(lpp2.pk)
        messages, finals = [], None
        if before is not None and state != before:
            if state[0] != before[0]:
                messages.append(wire.new_round(partners(lpp2=lpp2, round_=round_)))
            if state[1] == wire.RUNNING and (state[0] != before[0] or before[1] != wire.RUNNING):
                messages.append(wire.control("startRound"))
            if state[1] == wire.FINISHED and state[0] == before[0] and before[1] == wire.RUNNING:
                messages.append(wire.control("endRound"))
                finals = rank_paths(lpp2) if contest_over(lpp2) else None
        changes[lpp2.pk] = (state, messages, finals)
    return changes
