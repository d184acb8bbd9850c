"""The arena's reads: full states for (re)connecting pages, published transcripts and their seals.  The
results pages' reads are arena.selectors.results."""

import dataclasses
import re
import uuid

from django.conf import settings
from django.db.models import Case, F, IntegerField, Q, Value, When

from arena import payloads, roles, transcript_keys
from arena.models import Conversation, ConversationSeal, Interrogation, Message, Status, Verdict
from arena.next_steps import judge_next_step
from arena.services import seals
from arena.services.keystrokes import composing_line
from arena.services.verdicts import reveal_allowed, verdict_elsewhere
from core import hashchain
from core.errors import NotAllowed

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)


def interrogation_for_judge(*, public_id, user) -> Interrogation:
    interrogation = Interrogation.objects.filter(public_id=public_id).first()
    if interrogation is None or not user.is_authenticated or interrogation.judge_id != user.pk:
        raise NotAllowed("This is not your interrogation.")
    return interrogation


def conversation_for_witness(*, public_id, user) -> Conversation:
    conversation = Conversation.objects.select_related("interrogation").filter(public_id=public_id).first()
    if conversation is None or not user.is_authenticated or conversation.witness_human_id != user.pk:
        raise NotAllowed("This is not your conversation.")
    return conversation


# the fields a console's message payload needs (arena.payloads.judge_message / witness_message), as rows
_MESSAGE_FIELDS = ("seq", "sender_role", "text", "created_at")


# the monitor shows this many of each conversation's last messages (50 interrogations on one page)
MONITOR_MESSAGES = 30


def recent_messages(*, conversation_id: int, limit: int | None = None) -> tuple[list, int]:
    """The conversation's last ``limit`` (ARENA_STATE_MESSAGES) messages as light rows (named tuples of the
    fields a console shows), oldest first, and how many earlier ones they leave out.  A reloading page is
    sent this, not the whole transcript as model instances: a long conversation's reload stays small."""
    limit = limit or settings.ARENA_STATE_MESSAGES
    messages = Message.objects.filter(conversation_id=conversation_id)
    rows = list(messages.order_by("-seq").values_list(*_MESSAGE_FIELDS, named=True)[:limit])
    rows.reverse()
    earlier = messages.count() - len(rows) if len(rows) == limit else 0
    return rows, earlier


def judge_state(*, interrogation: Interrogation, refresh: bool = True, with_next: bool = True) -> dict:
    """Everything the judge may see. The truth about the witnesses only once the verdict is in, and only
    when the interrogation's format tells it then (`reveal_allowed`: a contest's meeting waits for its
    results to be published): until then "reveal" and "correct" are None and "reveal_later" is true.
    Once the interrogation is over, "next": what the judge must do next (`arena.next_steps`), or None
    (always None without ``with_next``: a console whose format leads its judges on by itself).
    ``refresh`` False: ``interrogation`` was read afresh by the caller."""
    if refresh:
        interrogation.refresh_from_db()
    conversations = list(interrogation.conversations.select_related("witness_entry"))
    recent = {c.side: recent_messages(conversation_id=c.pk) for c in conversations}
    verdict = Verdict.objects.filter(interrogation=interrogation).first()
    told = verdict is not None and reveal_allowed(interrogation.pk)
    over = interrogation.status in (Status.ENDED, Status.ABORTED)
    after = judge_next_step(user=interrogation.judge, exclude=interrogation.pk) if over and with_next else None
    return {
        "type": "state",
        "kind": interrogation.kind,
        "title": interrogation.title,
        **payloads.clock(interrogation),
        "sides": sorted(c.side for c in conversations),
        "held": payloads.held_sides(interrogation, conversations),
        "messages": {side: [payloads.judge_message(m, side) for m in rows] for side, (rows, _) in recent.items()},
        "earlier": {side: earlier for side, (_, earlier) in recent.items()},
        "composing": {c.side: composing_line(c, "witness") for c in conversations}
        if interrogation.keystroke_mode
        else {},
        "verdict": payloads.judge_verdict(verdict),
        "reveal": payloads.judge_reveal(conversations) if told else None,
        "correct": verdict.correct if told else None,
        "reveal_later": verdict is not None and not told,
        "next": after.as_dict() if after else None,
        "verdict_here": verdict is not None or not verdict_elsewhere(interrogation.pk),  # a verdict is only given here
    }


def witness_state(*, conversation: Conversation) -> dict:
    interrogation = Interrogation.objects.get(pk=conversation.interrogation_id)
    rows, earlier = recent_messages(conversation_id=conversation.pk)
    return {
        "type": "state",
        **payloads.clock(interrogation),
        "held": bool(
            payloads.held_sides(interrogation, Conversation.objects.filter(pk=conversation.pk).only("side", "status"))
        ),
        "messages": [payloads.witness_message(m) for m in rows],
        "earlier": earlier,
        "composing": composing_line(conversation, "interrogator") if interrogation.keystroke_mode else "",
    }


# the monitor's sections, in the order it shows them: what is live first, then the folded rest
MONITOR_SECTIONS = (Status.RUNNING, Status.ENDED, Status.SCHEDULED)
MONITOR_LIMIT = 50


def _when(status: str, field: str) -> Case:
    """``field`` for the interrogations of ``status``, NULL for the others: an order key for one section."""
    return Case(When(status=status, then=F(field)))


def monitor_interrogations() -> list[Interrogation]:
    """What the organisers' live view shows: every running interrogation, then the ended ones still
    awaiting a verdict (latest ended first), then the scheduled ones (soonest first), at most
    MONITOR_LIMIT in all. Ordered here, in the database, so the running ones are never cut off."""
    section = Case(
        *(When(status=status, then=Value(k)) for k, status in enumerate(MONITOR_SECTIONS)),
        output_field=IntegerField(),
    )
    return list(
        Interrogation.objects.filter(
            Q(status__in=[Status.SCHEDULED, Status.RUNNING]) | Q(verdict__isnull=True, status=Status.ENDED)
        )
        .select_related("judge")
        .annotate(monitor_section=section)
        .order_by(
            "monitor_section",
            _when(Status.RUNNING, "deadline").asc(nulls_last=True),  # the one that ends first on top
            _when(Status.ENDED, "ended_at").desc(nulls_last=True),
            _when(Status.SCHEDULED, "scheduled_at").asc(nulls_last=True),
            "-created_at",
        )[:MONITOR_LIMIT]
    )


def monitor_sections() -> list[dict]:
    """The live view's page: its sections in order (running, ended awaiting the verdict, scheduled), each
    with its interrogations as the monitor's payload (without messages: the page's socket brings them)."""
    items = [payloads.monitor_interrogation(i) for i in monitor_interrogations()]
    return [
        {
            "status": status,
            "label": payloads.MONITOR_STATUS_LABELS[status],
            "interrogations": [i for i in items if i["status"] == status],
        }
        for status in MONITOR_SECTIONS
    ]


def monitor_state() -> dict:
    interrogations = []
    for interrogation in monitor_interrogations():
        item = payloads.monitor_interrogation(interrogation)
        item["conversations"] = []
        for c in interrogation.conversations.select_related("witness_entry", "witness_human"):
            rows, earlier = recent_messages(conversation_id=c.pk, limit=MONITOR_MESSAGES)
            item["conversations"].append(
                {
                    "side": c.side,
                    "witness": c.witness_label,
                    "witness_kind": "machine" if c.witness_is_machine else "human",
                    "messages": [payloads.monitor_message(m, c) for m in rows],
                    "earlier": earlier,
                }
            )
        interrogations.append(item)
    return {"type": "state", "interrogations": interrogations}


def judge_interrogations(*, user):
    return Interrogation.objects.filter(judge=user).select_related("verdict").order_by("-created_at")


def witness_conversations(*, user):
    return Conversation.objects.filter(witness_human=user).select_related("interrogation").order_by("-id")


def published_interrogations():
    return Interrogation.objects.filter(published_at__isnull=False, rehearsal=False).order_by("-published_at")


def published_interrogation(*, public_id) -> Interrogation | None:
    return published_interrogations().filter(public_id=public_id).select_related("verdict", "judge").first()


# A format that prints its own report of its interrogations (a wager session's) may let that report's readers
# read the transcripts it covers before, or without, their publication: it registers a test of who may.
_TRANSCRIPT_READERS: list = []


def transcript_readers_register(test) -> None:
    """`test(interrogation, user) -> bool`: True when `user` may read that unpublished transcript."""
    if test not in _TRANSCRIPT_READERS:
        _TRANSCRIPT_READERS.append(test)


def readable_interrogation(*, public_id, user) -> Interrogation | None:
    """The interrogation whose transcript `user` may read: a published one (anyone), or one a format lets its
    report's readers read (never a rehearsal); None otherwise."""
    published = published_interrogation(public_id=public_id)
    if published is not None:
        return published
    interrogation = (
        Interrogation.objects.filter(public_id=public_id, rehearsal=False).select_related("verdict", "judge").first()
    )
    if interrogation is not None and any(test(interrogation, user) for test in _TRANSCRIPT_READERS):
        return interrogation
    return None


# A format whose people are known by pseudonyms (a Loebner contest's judges J1…, confederates C1…) names
# them so in its published transcripts: it registers a function of the interrogation giving those names.
_TRANSCRIPT_NAMERS: list = []


def transcript_names_register(namer) -> None:
    """`namer(interrogation, conversations) -> dict | None`: {"judge": name, "sides": {side: witness name}}
    for the interrogations of its format, None for the others."""
    if namer not in _TRANSCRIPT_NAMERS:
        _TRANSCRIPT_NAMERS.append(namer)


def transcript_names(*, interrogation: Interrogation, conversations) -> dict:
    """The names a published transcript gives its judge and witnesses: the format's pseudonyms where it has
    them, else the judge's user name and each witness's (an entry's name, a confederate's user name)."""
    for namer in _TRANSCRIPT_NAMERS:
        names = namer(interrogation, conversations)
        if names is not None:
            return names
    return {"judge": interrogation.judge.get_username(), "sides": {c.side: c.witness_label for c in conversations}}


def transcript_export(*, interrogation: Interrogation) -> dict:
    """A published (or otherwise readable) interrogation as JSON-ready data; witnesses anonymised unless
    published with names, and then named as its format names them (`transcript_names`)."""
    verdict = Verdict.objects.filter(interrogation=interrogation).first()
    rows = list(interrogation.conversations.select_related("witness_entry", "witness_human").order_by("side"))
    names = (
        transcript_names(interrogation=interrogation, conversations=rows)
        if interrogation.published_with_names
        else None
    )
    record = seals.record_seal(interrogation=interrogation)
    conversations = []
    for c in rows:
        seal = conversation_seal(conversation=c, interrogation=interrogation)
        conversations.append(
            {
                "id": str(c.public_id),
                "side": c.side,
                "witness_kind": seals.witness_kind(c),
                "witness": names["sides"].get(c.side) if names else None,
                "engine": c.witness_entry.engine if (names and c.witness_is_machine) else None,
                "messages": [
                    {
                        "seq": m.seq,
                        "from": m.sender_role,
                        "text": m.text,
                        "at": payloads.iso(m.created_at),
                        "prev_hash": m.prev_hash,
                        "hash": m.hash,
                    }
                    for m in c.messages.order_by("seq")
                ],
                "seal": seal.as_dict() if seal else None,
            }
        )
    return {
        "id": str(interrogation.public_id),
        "title": interrogation.title,
        "kind": interrogation.kind,
        "judge": names["judge"] if names else None,
        "started_at": payloads.iso(interrogation.started_at),
        "ended_at": payloads.iso(interrogation.ended_at),
        "end_reason": interrogation.end_reason,
        "time_limit_s": interrogation.time_limit_s,
        "verdict": seals.verdict_fields(verdict),
        "conversations": conversations,
        "seal": record.as_dict()
        if record
        else None,  # the whole record's (version 2; None: sealed before records were)
        # convenience copies: trust the keys published at /transcripts/keys.json, not these
        "signing_keys": transcript_keys.public_keys_document()["keys"],
        "verify": transcript_keys.VERIFY_HOW,
    }


def conversation_seal(*, conversation: Conversation, interrogation: Interrogation) -> hashchain.Seal | None:
    row = ConversationSeal.objects.filter(conversation=conversation).first()
    if row is None:
        return None
    return hashchain.Seal(
        conversation=str(conversation.public_id),
        interrogation=str(interrogation.public_id),
        count=row.message_count,
        head=row.head_hash,
        ended_at=hashchain.stamp(row.ended_at),
        key_id=row.key_id,
        signature=row.signature,
        version=row.version,
    )


def transcript_conversations(*, reference: str) -> list[Conversation]:
    """The conversations a reader names: a conversation id (a number), a conversation's public id, or an
    interrogation's public id (what a transcript's URL shows: all its conversations), or that URL itself."""
    reference = reference.strip()
    if reference.isdigit():
        found = Conversation.objects.filter(pk=int(reference))
    else:
        match = _UUID.search(reference)
        if match is None:
            return []
        public_id = uuid.UUID(match.group())
        found = Conversation.objects.filter(Q(public_id=public_id) | Q(interrogation__public_id=public_id))
    return list(found.select_related("interrogation").order_by("side"))


def ended_conversations() -> list[Conversation]:
    """Every conversation of an ended interrogation, by interrogation and side: what must verify after a
    restore."""
    ended = Conversation.objects.filter(interrogation__status=Status.ENDED).select_related("interrogation")
    return list(ended.order_by("interrogation_id", "side"))


def conversation_verify(*, conversation: Conversation) -> hashchain.SealReport:
    """The conversation's chain recomputed from the database and checked against its signed seal, with the
    platform's public keys (the current one and the retired ones)."""
    interrogation = conversation.interrogation
    report = hashchain.seal_verify(
        conversation_public_id=conversation.public_id,
        messages=conversation.messages.order_by("seq"),
        seal=conversation_seal(conversation=conversation, interrogation=interrogation),
        public_keys=transcript_keys.public_keys(),
        interrogation_public_id=interrogation.public_id,
        ended_at=interrogation.ended_at,
    )
    if report.verdict != "UNSEALED":
        return report
    if interrogation.status in (Status.SCHEDULED, Status.RUNNING):
        problem = f"no seal (interrogation still {interrogation.status}); {report.chain.checked} messages so far"
    else:
        problem = (
            f"no seal: the interrogation ended at {payloads.iso(interrogation.ended_at)} but nothing proves "
            f"where its transcript ends (its seal was removed, or it ended before transcripts were sealed)"
        )
    return dataclasses.replace(report, problem=problem)


def record_verify(*, interrogation: Interrogation) -> hashchain.RecordReport | None:
    """The interrogation's whole record as the database holds it (every conversation's side, witness kind,
    count and head, the metadata, the verdict) checked against its signed record seal. None for an
    interrogation sealed before records were (its conversations' seals are of version 1) or not ended."""
    seal = seals.record_seal(interrogation=interrogation)
    if seal is None:
        conversation_seals = [
            conversation_seal(conversation=c, interrogation=interrogation) for c in interrogation.conversations.all()
        ]
        return hashchain.record_missing(conversation_seals)
    return hashchain.record_verify(
        interrogation_public_id=interrogation.public_id,
        found=seals.record_fields(interrogation),
        seal=seal,
        public_keys=transcript_keys.public_keys(),
    )


def can_monitor(user) -> bool:
    return roles.organises(user)
