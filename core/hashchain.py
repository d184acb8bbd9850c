"""The SHA-256 chain that makes a transcript tamper-evident.

Each message's hash covers its predecessor's hash and its own sequence number, sender role, text and
timestamp; the first message links to a genesis hash derived from the conversation's public id. Editing,
deleting, inserting or reordering any message breaks the chain from that point on.
"""
import datetime as dt
import hashlib
import json
from dataclasses import dataclass


def genesis_hash(conversation_public_id) -> str:
    return hashlib.sha256(f"conversation:{conversation_public_id}".encode()).hexdigest()


def message_hash(*, prev_hash: str, seq: int, sender_role: str, text: str, created_at: dt.datetime) -> str:
    stamp = created_at.astimezone(dt.UTC).isoformat(timespec="microseconds")
    body = json.dumps([seq, sender_role, text, stamp], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(f"{prev_hash}\n{body}".encode()).hexdigest()


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    checked: int
    first_bad_seq: int | None = None
    problem: str = ""


def chain_verify(conversation_public_id, messages) -> ChainReport:
    """messages: objects with seq, sender_role, text, created_at, prev_hash, hash; in seq order."""
    expected_prev = genesis_hash(conversation_public_id)
    checked = 0
    for position, msg in enumerate(messages, start=1):
        if msg.seq != position:
            return ChainReport(False, checked, msg.seq, f"expected message #{position}, found #{msg.seq}")
        if msg.prev_hash != expected_prev:
            return ChainReport(False, checked, msg.seq, "its link to the previous message does not match")
        recomputed = message_hash(
            prev_hash=msg.prev_hash, seq=msg.seq, sender_role=msg.sender_role, text=msg.text, created_at=msg.created_at
        )
        if recomputed != msg.hash:
            return ChainReport(False, checked, msg.seq, "its content does not match its hash")
        expected_prev = msg.hash
        checked += 1
    return ChainReport(True, checked)
