"""Import JComm transcript logs (lpp.protocol.logs) as ended arena interrogations.

One log session becomes one Interrogation (status ended, times from the
keystrokes), one Conversation per screen side, its utterances as Messages
linked by the same SHA-256 chain as live ones (core.hashchain), and every
keystroke as an ``arena.Keystroke`` row, each conversation sealed (signed head and message count) as
a live one is when it ends. One transaction per session; a session
already imported (same file content, same index) is skipped.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from arena.models import Conversation, Entry, Interrogation, Keystroke, Message, Status
from arena.services.seals import seals_write
from core import hashchain
from lpp.models import ImportedTranscript
from lpp.protocol.lines import transcript_utterances
from lpp.protocol.logs import read_log
from lpp.protocol.model import JUDGE, Transcript

#: The 2012 file names carry the local time of the contest (Bletchley Park).
_FILE_TIME = re.compile(r"(\d{4}-\d{2}-\d{2})--(\d{2})-(\d{2})-(\d{2})")
FILE_ZONE = ZoneInfo("Europe/London")
UNKNOWN_JUDGE = "unknown"


class ImportFailed(Exception):
    """A log file that cannot be read at all."""


@dataclass
class FileResult:
    path: Path
    imported: list[Interrogation]
    skipped: int
    sessions: list = field(default_factory=list)  # (key "file#index", stated round, start s) for the round check


def when(seconds: float | None) -> dt.datetime | None:
    return None if seconds is None else dt.datetime.fromtimestamp(seconds, tz=dt.UTC)


def import_file(path, *, judge_user=None, confederate_user=None) -> FileResult:
    """Import every session of one log file; raises ImportFailed if it cannot be read."""
    path = Path(path)
    try:
        content = path.read_bytes()
    except OSError as error:
        raise ImportFailed(f"cannot read {path}: {error.strerror or error}") from error
    digest = hashlib.sha256(content).hexdigest()
    transcripts = read_log(path)
    result = FileResult(path, [], 0)
    for index, transcript in enumerate(transcripts):
        times = [k.time for k in transcript.keystrokes if k.time is not None]
        result.sessions.append((f"{path.name}#{index}", transcript.round, min(times) if times else None))
        if ImportedTranscript.objects.filter(sha256=digest, index=index).exists():
            result.skipped += 1
            continue
        try:
            result.imported.append(
                import_transcript(
                    transcript,
                    file_name=path.name,
                    sha256=digest,
                    index=index,
                    judge_user=judge_user,
                    confederate_user=confederate_user,
                )
            )
        except IntegrityError:  # imported meanwhile by another process
            result.skipped += 1
    return result


def rounds_check(results: list[FileResult]) -> dict[str, str]:
    """Sessions whose stated round contradicts the day's schedule (``lpp.protocol.rounds``), added to
    their import's problems; key "file#index" -> why."""
    from lpp.protocol.rounds import round_contradictions

    flagged = round_contradictions([s for r in results for s in r.sessions])
    for key, why in flagged.items():
        name, index = key.rsplit("#", 1)
        for source in ImportedTranscript.objects.filter(file_name=name, index=int(index)):
            if why not in source.problems:
                source.problems = "\n".join(p for p in (source.problems, why) if p)
                source.save(update_fields=["problems"])
    return flagged


def import_transcript(
    transcript: Transcript, *, file_name: str, sha256: str, index: int, judge_user=None, confederate_user=None
) -> Interrogation:
    times = [k.time for k in transcript.keystrokes if k.time is not None]
    started = when(min(times)) if times else _file_time(file_name)
    ended = when(max(times)) if times else started
    sides = transcript.sides or ([] if not transcript.left else ["left", "right"])
    with transaction.atomic():
        judge = judge_user or _user(f"lpp-judge-{transcript.judge or UNKNOWN_JUDGE}")
        interrogation = Interrogation.objects.create(
            judge=judge,
            title=_title(transcript),
            status=Status.ENDED,
            kind=Interrogation.Kind.THREE_PARTY if len(sides) == 2 else Interrogation.Kind.ONE_TO_ONE,
            time_limit_s=max(10, math.ceil((ended - started).total_seconds())) if started else 300,
            scheduled_at=started,
            started_at=started,
            deadline=ended,
            ended_at=ended,
            end_reason="imported",
        )
        ImportedTranscript.objects.create(
            interrogation=interrogation,
            file_name=file_name,
            sha256=sha256,
            index=index,
            problems="\n".join(transcript.problems),
        )
        for side in sides:
            human = transcript.role_of(side) == "human"
            conversation = Conversation.objects.create(
                interrogation=interrogation,
                interrogator=judge,
                witness_entry=None if human else _entry(transcript.program),
                witness_human=(confederate_user or _user(f"lpp-confederate-{transcript.program}")) if human else None,
                side=side if side in ("left", "right") else "sole",
                status=Status.ENDED,
                scheduled_at=started,
                started_at=started,
                ended_at=ended,
                time_limit_s=interrogation.time_limit_s,
            )
            _store(conversation, transcript, side)
        seals_write(interrogation=interrogation)
    return interrogation


def _store(conversation: Conversation, transcript: Transcript, side: str) -> None:
    keys = [k for k in transcript.keystrokes if k.side == side]
    Keystroke.objects.bulk_create(
        (
            Keystroke(
                conversation_id=conversation.pk,
                seq=seq,
                sender_role=role_of(k.sender),
                key=k.key,
                char=k.char or "",
                stamp=k.stamp,
                time=when(k.time),
            )
            for seq, k in enumerate(keys, start=1)
        ),
        batch_size=2000,
    )
    messages, prev = [], hashchain.genesis_hash(conversation.public_id)
    for seq, utterance in enumerate(transcript_utterances(transcript, side), start=1):
        message = chained(
            conversation,
            seq=seq,
            prev_hash=prev,
            sender_role=role_of(utterance.sender),
            text=utterance.text,
            created_at=when(utterance.ended) or conversation.started_at,
        )
        messages.append(message)
        prev = message.hash
    Message.objects.bulk_create(messages, batch_size=500)


def chained(conversation, *, seq, prev_hash, sender_role, text, created_at) -> Message:
    """An unsaved Message linked into the chain exactly as arena's message_post links one."""
    digest = hashchain.message_hash(
        prev_hash=prev_hash, seq=seq, sender_role=sender_role, text=text, created_at=created_at
    )
    return Message(
        conversation=conversation,
        seq=seq,
        sender_role=sender_role,
        text=text,
        created_at=created_at,
        prev_hash=prev_hash,
        hash=digest,
    )


def role_of(sender: str) -> str:
    return Message.Role.INTERROGATOR if sender == JUDGE else Message.Role.WITNESS


def _title(transcript: Transcript) -> str:
    details = ", ".join(
        f"{label} {value}"
        for label, value in (("judge", transcript.judge), ("program", transcript.program), ("round", transcript.round))
        if value
    )
    return f"{transcript.title or 'LPP log'} ({details})"[:200] if details else (transcript.title or "LPP log")[:200]


def _user(username: str):
    user, created = get_user_model().objects.get_or_create(username=username[:150], defaults={"is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _entry(program: str) -> Entry:
    entry, _ = Entry.objects.get_or_create(
        display_name=(program or "unknown program")[:100], defaults={"engine": "simple", "active": False}
    )
    return entry


def _file_time(file_name: str) -> dt.datetime | None:
    match = _FILE_TIME.search(file_name)
    if not match:
        return None
    local = dt.datetime.strptime("{} {}:{}:{}".format(*match.groups()), "%Y-%m-%d %H:%M:%S")
    return local.replace(tzinfo=FILE_ZONE).astimezone(dt.UTC)
