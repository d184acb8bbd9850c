"""Import what Loebner contests left behind as ended arena interrogations: JComm transcript logs
(lpp.protocol.logs), and, through lpp.session_import, the LPP2 reference server's round logs and
published text transcripts. :func:`import_file` tells the formats apart (``lpp.protocol.sessions.detect``)
or refuses a file with the reason.

One JComm log session becomes one Interrogation (status ended, times from the
keystrokes), one Conversation per screen side, its utterances as Messages
linked by the same SHA-256 chain as live ones (core.hashchain), and every
keystroke as an ``arena.Keystroke`` row, each conversation sealed (signed head and message count) as
a live one is when it ends. A session without a keystroke (an aborted one) is reported, not imported.
One transaction per interrogation; one already imported (same file content, same index) is skipped.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction

from arena.models import Conversation, Interrogation, Keystroke, Message
from arena.services.seals import seals_write
from core import hashchain
from lpp.import_rows import chained, ended_conversation, ended_interrogation, role_of, user_for, when
from lpp.models import ImportedTranscript
from lpp.protocol.lines import transcript_utterances
from lpp.protocol.logs import parse_log
from lpp.protocol.model import Transcript
from lpp.protocol.round_log import parse_round_log
from lpp.protocol.sessions import UnreadableInput, detect
from lpp.protocol.text_transcript import parse_text
from lpp.session_import import import_unit, session_units

#: The 2012 file names carry the local time of the contest (Bletchley Park).
_FILE_TIME = re.compile(r"(\d{4}-\d{2}-\d{2})--(\d{2})-(\d{2})-(\d{2})")
FILE_ZONE = ZoneInfo("Europe/London")
UNKNOWN_JUDGE = "unknown"
FORMATS = ("auto", "jcomm", "lpp2", "text")
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_NOTES = 10  # problems printed per session; all of them are stored


class ImportFailed(Exception):
    """A log file that cannot be read at all."""


@dataclass
class FileResult:
    path: Path
    imported: list[Interrogation]
    skipped: int
    sessions: list = field(default_factory=list)  # (key "file#index", stated round, start s) for the round check
    format: str = "jcomm"
    notes: list[str] = field(default_factory=list)  # what the command prints: cut-off files, problems


def import_file(
    path, *, judge_user=None, confederate_user=None, format: str = "auto", tilde: str = "backspace"
) -> FileResult:
    """Import every session of one file; raises ImportFailed with the reason if it cannot be read."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ImportFailed(f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
        content = path.read_bytes()
    except OSError as error:
        raise ImportFailed(f"cannot read {path}: {error.strerror or error}") from error
    try:
        found = detect(content)
    except UnreadableInput as error:
        raise ImportFailed(f"{path}: {error}") from None
    kind = found if format == "auto" else format
    if kind == "jcomm" and found != "jcomm":
        raise ImportFailed(f"{path}: not a JComm log (no key line and no JComm header)")
    digest = hashlib.sha256(content).hexdigest()
    text = content.decode("utf-8", errors="replace")
    people = {"judge_user": judge_user, "confederate_user": confederate_user}
    if kind != "jcomm":
        return _import_sessions(path, digest, text, kind, tilde, people)
    result = FileResult(path, [], 0)
    for index, transcript in enumerate(parse_log(text, source=str(path))):
        key = f"{path.name}#{index}"
        result.notes += _notes(key, transcript.problems)
        if not transcript.keystrokes:
            result.notes.append(f"{key}: an aborted session without a keystroke, nothing imported")
            continue
        times = [k.time for k in transcript.keystrokes if k.time is not None]
        result.sessions.append((key, transcript.round, min(times) if times else None))
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
                    **people,
                )
            )
        except IntegrityError:  # imported meanwhile by another process
            result.skipped += 1
    return result


def _import_sessions(path: Path, digest: str, text: str, kind: str, tilde: str, people: dict) -> FileResult:
    try:
        sessions = parse_round_log(text, path.name) if kind == "lpp2" else parse_text(text, tilde=tilde)
    except UnreadableInput as error:
        raise ImportFailed(f"{path}: {error}") from None
    result = FileResult(path, [], 0, format=kind)
    base = dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.UTC)
    index = 0
    for number, session in enumerate(sessions):
        result.notes += _notes(f"{path.name}#{number}", session.problems)
        for parties in session_units(session):
            if ImportedTranscript.objects.filter(sha256=digest, index=index).exists():
                result.skipped += 1
            else:
                try:
                    result.imported.append(
                        import_unit(
                            session, parties, file_name=path.name, sha256=digest, index=index, base=base, **people
                        )
                    )
                except IntegrityError:  # imported meanwhile by another process
                    result.skipped += 1
            index += 1
    return result


def _notes(key: str, problems: list[str]) -> list[str]:
    notes = [f"{key}: {problem}" for problem in dict.fromkeys(problems)]
    if len(notes) > MAX_NOTES:
        notes = notes[:MAX_NOTES] + [f"{key}: {len(notes) - MAX_NOTES} more problems, stored with the import"]
    return notes


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
        interrogation = ended_interrogation(
            judge=judge_user or user_for(f"lpp-judge-{transcript.judge or UNKNOWN_JUDGE}"),
            title=_title(transcript),
            partners=len(sides),
            started=started,
            ended=ended,
            file_name=file_name,
            sha256=sha256,
            index=index,
            problems=transcript.problems,
        )
        for side in sides:
            conversation = ended_conversation(
                interrogation,
                side=side if side in ("left", "right") else "sole",
                human=transcript.role_of(side) == "human",
                name=transcript.program,
                confederate_user=confederate_user,
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


def _title(transcript: Transcript) -> str:
    details = ", ".join(
        f"{label} {value}"
        for label, value in (("judge", transcript.judge), ("program", transcript.program), ("round", transcript.round))
        if value
    )
    return f"{transcript.title or 'LPP log'} ({details})"[:200] if details else (transcript.title or "LPP log")[:200]


def _file_time(file_name: str) -> dt.datetime | None:
    match = _FILE_TIME.search(file_name)
    if not match:
        return None
    local = dt.datetime.strptime("{} {}:{}:{}".format(*match.groups()), "%Y-%m-%d %H:%M:%S")
    return local.replace(tzinfo=FILE_ZONE).astimezone(dt.UTC)
