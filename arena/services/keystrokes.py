"""Keystroke mode (LPP-style): each side's typing is stored key by key and streamed live.

A key is a single printable character, "BackSpace" or "Return". "Return" ends the sender's line: the
line typed since their previous Return (BackSpaces applied) becomes an ordinary, hash-chained message.
"""

from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from arena import groups, notify, payloads
from arena.models import Conversation, Keystroke, Message, Status
from core.errors import Closed, InvalidInput

BACKSPACE = "BackSpace"
RETURN = "Return"
MAX_KEYS_PER_FRAME = 200


@dataclass(frozen=True)
class Key:
    key: str
    char: str = ""
    stamp: str = ""
    time: datetime | None = None


def clean_keys(keys) -> list[Key]:
    if not isinstance(keys, list) or not keys:
        raise InvalidInput("keys must be a non-empty list.")
    if len(keys) > MAX_KEYS_PER_FRAME:
        raise InvalidInput(f"At most {MAX_KEYS_PER_FRAME} keys per frame.", code="too_long")
    cleaned = []
    for key in keys:
        if key in (BACKSPACE, RETURN):
            cleaned.append(Key(key))
        elif isinstance(key, str) and len(key) == 1 and (key.isprintable() or key == "\t"):
            cleaned.append(Key(key, key))
        else:
            raise InvalidInput(f'A key is one printable character, "{BACKSPACE}" or "{RETURN}", not {str(key)[:20]!r}.')
    return cleaned


def apply_keys(keys) -> tuple[list[str], str]:
    """(completed lines, the line still being typed) for a sender's keys, BackSpace applied.

    keys: key names ("a", "BackSpace", "Return") or (key, char) pairs, as stored.
    """
    lines, current = [], []
    for item in keys:
        key, char = item if isinstance(item, tuple) else (item, item)
        if key == RETURN:
            lines.append("".join(current))
            current = []
        elif key == BACKSPACE:
            if current:
                current.pop()
        elif char:
            current.append(char)
    return lines, "".join(current)


def _shown(key: Key) -> str:
    """What a page is sent for a key: the character it types, or BackSpace/Return."""
    return key.key if key.key in (BACKSPACE, RETURN) else key.char


def keystrokes_store(*, conversation: Conversation, sender_role: str, keys: list[Key]) -> list[Keystroke]:
    """Store keys after the conversation's last keystroke and push them on commit (call in a
    transaction that holds the conversation's row lock)."""
    return keystrokes_store_many([(conversation, sender_role, keys)], lock=False)[0]


def keystrokes_store_many(batches, *, lock: bool = True) -> list[list[Keystroke]]:
    """Several conversations' keys at once: batches of (conversation, sender_role, keys), at most one
    per conversation. One insert, each batch after its conversation's last keystroke; one push of them
    all on commit. lock: take the conversations' row locks here (with the last seq, in one query).
    Call in a transaction. Returns each batch's rows."""
    tops = _last_seqs(sorted({conversation.pk for conversation, _, _ in batches}), lock=lock)
    now = timezone.now()
    rows, pushes = [], []
    for conversation, sender_role, keys in batches:
        start = tops.get(conversation.pk) or 0
        rows.append(
            [
                Keystroke(
                    conversation=conversation,
                    seq=start + n,
                    sender_role=sender_role,
                    key=k.key,
                    char="" if k.key in (BACKSPACE, RETURN) else k.char,
                    stamp=k.stamp,
                    time=k.time or now,
                )
                for n, k in enumerate(keys, start=1)
            ]
        )
        pushes += _key_pushes(conversation, sender_role, [_shown(k) for k in keys if _shown(k)])
    Keystroke.objects.bulk_create([row for batch in rows for row in batch])
    transaction.on_commit(lambda: notify.push_many(pushes))
    return rows


def _last_seqs(ids: list[int], *, lock: bool) -> dict[int, int | None]:
    """Each conversation's last keystroke seq, its row locked first if asked. Plain SQL: the bridge runs
    this once per batch of a program's keys, and the ORM spent longer building it than the database
    answering it. The lock and the read are two statements: in one, PostgreSQL would compute the last
    seq before waiting for the lock, missing the keys of the transaction it waited for."""
    where = ", ".join(["%s"] * len(ids))
    with connection.cursor() as cursor:
        if lock and connection.features.has_select_for_update:
            cursor.execute(
                f"SELECT c.id FROM {Conversation._meta.db_table} c WHERE c.id IN ({where}) ORDER BY c.id FOR UPDATE",
                ids,
            )
        cursor.execute(
            f"SELECT k.conversation_id, MAX(k.seq) FROM {Keystroke._meta.db_table} k"
            f" WHERE k.conversation_id IN ({where}) GROUP BY k.conversation_id",
            ids,
        )
        return dict(cursor.fetchall())


def _key_pushes(conversation: Conversation, sender_role: str, names: list[str]) -> list[tuple[str, dict]]:
    """The other party sees each key as it is typed."""
    if sender_role == Message.Role.WITNESS:
        return [(groups.judge_group(conversation.interrogation_id), payloads.judge_keys(conversation.side, names))]
    if conversation.witness_human_id:
        return [(groups.witness_group(conversation.pk), payloads.witness_keys(names))]
    return []


def keystrokes_record(*, conversation_id: int, sender_role: str, keys, user) -> list[Message]:
    """A person's keys from a console; returns the messages completed by Return."""
    from arena.services.messages import check_sender, message_post

    cleaned = clean_keys(keys)
    with transaction.atomic():
        conversation = (
            Conversation.objects.select_for_update(of=("self",)).select_related("interrogation").get(pk=conversation_id)
        )
        check_sender(conversation, sender_role=sender_role, user=user)
        interrogation = conversation.interrogation
        if not interrogation.keystroke_mode:
            raise InvalidInput("This interrogation is not in keystroke mode: send whole messages.")
        if interrogation.status != Status.RUNNING or timezone.now() >= interrogation.deadline:
            raise Closed("The conversation is not running.")
        rows = keystrokes_store(conversation=conversation, sender_role=sender_role, keys=cleaned)
        if not any(k.key == RETURN for k in cleaned):
            return []
        since = _last_return_before(conversation, sender_role, rows[0].seq)
        typed = conversation.keystrokes.filter(sender_role=sender_role, seq__gt=since).order_by("seq")
        lines, _ = apply_keys(typed.values_list("key", "char"))
        # in the keys' transaction: a line refused (out of turn, too long, time up) stores none of them,
        # and the sender's composing line is as it was before this batch (Return can be pressed again)
        return [
            message_post(conversation_id=conversation_id, sender_role=sender_role, text=line, user=user)
            for line in lines
            if line.strip()
        ]


def _last_return_before(conversation, sender_role: str, seq: int) -> int:
    previous = conversation.keystrokes.filter(sender_role=sender_role, key=RETURN, seq__lt=seq)
    return previous.aggregate(top=Max("seq"))["top"] or 0


def composing_line(conversation: Conversation, sender_role: str) -> str:
    """What the sender has typed since their last Return (shown live on the other side's page)."""
    since = _last_return_before(conversation, sender_role, 2**31)
    keys = conversation.keystrokes.filter(sender_role=sender_role, seq__gt=since).order_by("seq")
    return apply_keys(keys.values_list("key", "char"))[1]
