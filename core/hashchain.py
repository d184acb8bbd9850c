"""The SHA-256 chain that makes a transcript tamper-evident, and the signed seal that closes it.

Each message's hash covers its predecessor's hash and its own sequence number, sender role, text and
timestamp; the first message links to a genesis hash derived from the conversation's public id. Editing,
deleting, inserting or reordering any message breaks the chain from that point on.

A chain alone cannot tell a transcript from its beginning: cut its last messages and what is left is
intact. So when an interrogation ends, the platform seals each conversation: its head hash (the last
message's, the genesis hash when there is none), its message count, the conversation's and the
interrogation's public ids and the end time, signed with the platform's Ed25519 key (``key_id``: the
first 16 hex digits of the SHA-256 of the raw public key, so keys can rotate).

A conversation's seal says nothing of the others, nor of the verdict. So the platform also seals the whole
record of the interrogation (version 2): every conversation (its id, side, witness kind, message count and
chain head), the transcript's metadata (title, kind, start, end, end reason, time limit) and the verdict
(re-signed when the verdict is given). Its conversations' seals then carry version 2 too: a transcript
whose record seal is stripped says so, and one sealed before records were (version 1) verifies as it did.

This file needs nothing but Python and ``cryptography``: anyone can check an exported transcript
without the platform's database, with only the platform's public key (``/transcripts/keys.json``)::

    python -m core.hashchain verify transcript.json --key keys.json     # or: python hashchain.py verify ...

A bundle of transcripts (``{"transcripts": [...]}``, a contest's or a wager session's "All transcripts as
JSON") verifies the same way, every conversation of every transcript in it.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import dataclasses
import datetime as dt
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

SEAL_VERSION = 1  # a conversation's seal alone
RECORD_VERSION = 2  # a conversation's seal within a sealed whole record, and the record's own seal
SEAL_CONTEXT = b"turing-arena transcript seal\n"  # signed before the payload: a seal signs nothing else
RECORD_CONTEXT = b"turing-arena record seal\n"
RECORD_METADATA = ("title", "kind", "started_at", "ended_at", "end_reason", "time_limit_s")
RECORD_VERDICT = ("choice", "confidence", "reason", "correct", "time_to_decision_s")
RECORD_TIMES = ("started_at", "ended_at")


def stamp(moment: dt.datetime | None) -> str | None:
    """The one textual form of a time inside hashes and seals: UTC, microseconds."""
    return None if moment is None else moment.astimezone(dt.UTC).isoformat(timespec="microseconds")


def genesis_hash(conversation_public_id) -> str:
    return hashlib.sha256(f"conversation:{conversation_public_id}".encode()).hexdigest()


def message_hash(*, prev_hash: str, seq: int, sender_role: str, text: str, created_at: dt.datetime) -> str:
    body = json.dumps([seq, sender_role, text, stamp(created_at)], ensure_ascii=False, separators=(",", ":"))
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


# --- keys -----------------------------------------------------------------------------------------


def public_key_bytes(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey) -> str:
    return hashlib.sha256(public_key_bytes(key)).hexdigest()[:16]


def public_key_text(key: Ed25519PublicKey) -> str:
    """The published form of a public key: base64 of its 32 raw bytes."""
    return base64.b64encode(public_key_bytes(key)).decode()


def raw_key(text: str, what: str) -> bytes:
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"{what}: not base64") from None
    if len(raw) != 32:
        raise ValueError(f"{what}: expected the 32 bytes of an Ed25519 key, found {len(raw)}")
    return raw


def key_from_text(text: str, *, what: str, pem, raw, kind):
    """An Ed25519 key (`kind`) from base64 of its 32 bytes (`raw` makes it) or PEM (`pem` reads it)."""
    text = text.strip()
    if not text.startswith("-----BEGIN"):
        return raw(raw_key(text, what))
    try:
        key = pem(text.replace("\\n", "\n").encode())  # a PEM may come on one line of an environment file
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise ValueError(f"{what}: not an unencrypted PEM key") from None
    if not isinstance(key, kind):
        raise ValueError(f"{what}: the PEM key is not an Ed25519 key")
    return key


def public_key_load(text: str) -> Ed25519PublicKey:
    """An Ed25519 public key from base64 of its 32 bytes, or PEM; ValueError otherwise."""
    return key_from_text(
        text,
        what="public key",
        pem=serialization.load_pem_public_key,
        raw=Ed25519PublicKey.from_public_bytes,
        kind=Ed25519PublicKey,
    )


def keys_index(keys) -> dict[str, Ed25519PublicKey]:
    """{key id: key}; the id is computed from each key, never taken on trust."""
    return {key_id(key): key for key in keys}


# --- seals ----------------------------------------------------------------------------------------


class _Signed:
    """A seal's signed bytes (its context, then every field but the signature as canonical JSON) and its
    JSON form."""

    context: ClassVar[bytes]

    def payload(self) -> bytes:
        fields = {name: value for name, value in self.as_dict().items() if name != "signature"}
        return self.context + json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict):
        names = {field.name for field in dataclasses.fields(cls)}
        return cls(**{name: value for name, value in data.items() if name in names})


@dataclass(frozen=True)
class Seal(_Signed):
    """What closes one conversation's chain at the end of its interrogation."""

    conversation: str
    interrogation: str
    count: int
    head: str
    ended_at: str | None
    key_id: str
    signature: str = ""
    version: int = SEAL_VERSION
    context: ClassVar[bytes] = SEAL_CONTEXT


def seal_unsigned(
    *,
    conversation_public_id,
    interrogation_public_id,
    messages_count: int,
    head: str,
    ended_at: dt.datetime | None,
    version: int = SEAL_VERSION,
) -> Seal:
    """A seal to be signed (core.signing.seal_sign, which fills in key_id and signature)."""
    return Seal(
        conversation=str(conversation_public_id),
        interrogation=str(interrogation_public_id),
        count=messages_count,
        head=head,
        ended_at=stamp(ended_at),
        key_id="",
        version=version,
    )


def signature_valid(seal: Seal, key: Ed25519PublicKey) -> bool:
    try:
        key.verify(base64.b64decode(seal.signature, validate=True), seal.payload())
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return True


@dataclass(frozen=True)
class SealReport:
    """A conversation checked against its seal. verdict: OK, ALTERED, UNSEALED or REFUSED (unknown key)."""

    verdict: str
    chain: ChainReport
    seal: Seal | None
    problem: str = ""

    @property
    def ok(self) -> bool:
        return self.verdict == "OK"

    def describe(self) -> str:
        if self.ok:
            seal = self.seal
            return (
                f"{self.chain.checked} messages, chain intact, sealed at its end ({seal.count} messages, "
                f"head {seal.head[:16]}…), signature valid (key {seal.key_id})"
            )
        return self.problem


def seal_verify(
    *,
    conversation_public_id,
    messages,
    seal: Seal | None,
    public_keys: dict[str, Ed25519PublicKey],
    interrogation_public_id=None,
    ended_at: dt.datetime | None = None,
) -> SealReport:
    """Recompute the chain and check it against its seal, and the seal against the trusted keys.

    ended_at and interrogation_public_id, when given, must be the sealed ones too (an export's or the
    database's own record of the end)."""
    messages = list(messages)
    chain = chain_verify(conversation_public_id, messages)
    if not chain.ok:
        return SealReport(
            "ALTERED",
            chain,
            seal,
            f"message #{chain.first_bad_seq}: {chain.problem} ({chain.checked} messages verified before it)",
        )
    if seal is None:
        return SealReport("UNSEALED", chain, None, f"no seal ({chain.checked} messages, chain intact so far)")
    key = public_keys.get(seal.key_id)
    if key is None:
        trusted = ", ".join(sorted(public_keys)) or "none"
        return SealReport(
            "REFUSED",
            chain,
            seal,
            f"the seal is signed by key {seal.key_id}, which is not one of the platform's keys ({trusted})",
        )
    if not signature_valid(seal, key):
        return SealReport("ALTERED", chain, seal, f"signature invalid: the seal is not what key {seal.key_id} signed")
    head = messages[-1].hash if messages else genesis_hash(conversation_public_id)
    problems = []
    if seal.conversation != str(conversation_public_id):
        problems.append(f"the seal is conversation {seal.conversation}'s")
    if interrogation_public_id is not None and seal.interrogation != str(interrogation_public_id):
        problems.append(f"the seal is interrogation {seal.interrogation}'s")
    if seal.count != len(messages):
        problems.append(f"seal: {seal.count} messages, found {len(messages)}")
    elif seal.head != head:
        problems.append(f"seal: head {seal.head[:16]}…, found {head[:16]}…")
    if ended_at is not None and seal.ended_at != stamp(ended_at):
        problems.append(f"seal: ended at {seal.ended_at}, the record says {stamp(ended_at)}")
    if problems:
        return SealReport("ALTERED", chain, seal, "; ".join(problems))
    return SealReport("OK", chain, seal)


# --- the whole record ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordSeal(_Signed):
    """What closes an interrogation's whole record: its conversations (``[{id, side, witness_kind, count,
    head}]``, by side), its metadata (RECORD_METADATA, times as :func:`stamp` writes them) and its verdict
    (RECORD_VERDICT, or None while there is none)."""

    interrogation: str
    conversations: list
    metadata: dict
    verdict: dict | None
    key_id: str
    signature: str = ""
    version: int = RECORD_VERSION
    context: ClassVar[bytes] = RECORD_CONTEXT


def record_unsigned(
    *, interrogation_public_id, conversations: list, metadata: dict, verdict: dict | None
) -> RecordSeal:
    """A record seal to be signed (core.signing.seal_sign). Each argument as :func:`record_found` reads it."""
    return RecordSeal(
        interrogation=str(interrogation_public_id),
        conversations=sorted(conversations, key=lambda c: (c["side"], c["id"])),
        metadata=metadata,
        verdict=verdict,
        key_id="",
    )


def record_conversation(*, public_id, side: str, witness_kind: str, count: int, head: str | None) -> dict:
    """One conversation as a record seals it (``head`` None: no message, the genesis hash)."""
    return {
        "id": str(public_id),
        "side": side,
        "witness_kind": witness_kind,
        "count": count,
        "head": head or genesis_hash(public_id),
    }


def _time_text(value) -> str | None:
    return stamp(value) if isinstance(value, dt.datetime) else stamp(_moment(value))


def record_metadata(values: dict) -> dict:
    """The sealed metadata from a transcript's fields (times as datetimes or ISO text)."""
    return {
        name: _time_text(values.get(name)) if name in RECORD_TIMES else values.get(name) for name in RECORD_METADATA
    }


def record_verdict(values: dict | None) -> dict | None:
    return None if values is None else {name: values.get(name) for name in RECORD_VERDICT}


def record_found(data: dict) -> dict:
    """What an exported transcript shows of its record: {"conversations", "metadata", "verdict"}."""
    conversations = []
    for conversation in data["conversations"]:
        messages = conversation["messages"]
        conversations.append(
            record_conversation(
                public_id=conversation["id"],
                side=conversation["side"],
                witness_kind=conversation["witness_kind"],
                count=len(messages),
                head=messages[-1]["hash"] if messages else None,
            )
        )
    return {
        "conversations": conversations,
        "metadata": record_metadata(data),
        "verdict": record_verdict(data["verdict"]),
    }


@dataclass(frozen=True)
class RecordReport:
    """A whole record checked against its seal. verdict: OK, ALTERED or REFUSED (unknown key)."""

    verdict: str
    seal: RecordSeal | None
    problem: str = ""

    @property
    def ok(self) -> bool:
        return self.verdict == "OK"

    def describe(self) -> str:
        if not self.ok:
            return self.problem
        seal = self.seal
        sides = ", ".join(c["side"] for c in seal.conversations)
        decided = "the verdict" if seal.verdict is not None else "no verdict yet"
        return (
            f"{len(seal.conversations)} conversations ({sides}), {decided} and the metadata as sealed, "
            f"signature valid (key {seal.key_id})"
        )


def _differences(what: str, sealed: dict | None, found: dict | None) -> list[str]:
    if sealed is None or found is None:
        return [] if sealed == found else [f"{what}: sealed {sealed!r}, found {found!r}"]
    return [
        f"{what}: {name} sealed {sealed.get(name)!r}, found {found.get(name)!r}"
        for name in sorted(set(sealed) | set(found))
        if sealed.get(name) != found.get(name)
    ]


def _conversation_differences(sealed: list, found: list) -> list[str]:
    problems = []
    found_ids = [c["id"] for c in found]
    for conversation_id in sorted(set(found_ids)):
        if found_ids.count(conversation_id) > 1:
            problems.append(f"conversation {conversation_id} appears {found_ids.count(conversation_id)} times")
    by_id = {c["id"]: c for c in found}
    sealed_ids = {c["id"] for c in sealed}
    for conversation in sealed:
        there = by_id.get(conversation["id"])
        label = f"{conversation['side']} conversation {conversation['id']}"
        if there is None:
            problems.append(f"the sealed {label} is missing")
        else:
            problems += _differences(label, conversation, there)
    problems += [f"conversation {c} is not in the sealed record" for c in sorted(set(found_ids) - sealed_ids)]
    return problems


def record_verify(*, interrogation_public_id, found: dict, seal: RecordSeal, public_keys: dict) -> RecordReport:
    """An interrogation's record as found (an export's or the database's: :func:`record_found`'s shape)
    checked against its signed seal, and the seal against the trusted keys."""
    key = public_keys.get(seal.key_id)
    if key is None:
        trusted = ", ".join(sorted(public_keys)) or "none"
        return RecordReport("REFUSED", seal, f"the record is signed by key {seal.key_id}, not one of ({trusted})")
    if seal.version != RECORD_VERSION or not signature_valid(seal, key):
        return RecordReport("ALTERED", seal, f"signature invalid: the record is not what key {seal.key_id} signed")
    problems = (
        []
        if seal.interrogation == str(interrogation_public_id)
        else [f"the record is interrogation {seal.interrogation}'s"]
    )
    problems += _conversation_differences(seal.conversations, found["conversations"])
    problems += _differences("verdict", seal.verdict, found["verdict"])
    problems += _differences("metadata", seal.metadata, found["metadata"])
    return RecordReport("ALTERED", seal, "; ".join(problems)) if problems else RecordReport("OK", seal)


def record_missing(seals) -> RecordReport | None:
    """A transcript without a record seal: an ALTERED report when its conversations' seals say there was
    one (version 2), None when they are of version 1 (sealed before records were: nothing to check)."""
    if any(seal is not None and seal.version >= RECORD_VERSION for seal in seals):
        return RecordReport("ALTERED", None, "its conversations were sealed within a whole record, and it has none")
    return None


# --- an exported transcript, offline --------------------------------------------------------------


@dataclass(frozen=True)
class _Exported:
    seq: int
    sender_role: str
    text: str
    created_at: dt.datetime
    prev_hash: str
    hash: str


def _moment(text: str | None) -> dt.datetime | None:
    return None if text is None else dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def transcript_verify(data: dict, public_keys: dict[str, Ed25519PublicKey]) -> list[tuple[str, object]]:
    """Every conversation of an exported transcript (``/transcripts/<id>.json``), then its whole record:
    [("<side> conversation", SealReport), ..., ("whole record", RecordReport)] (no record line for a
    transcript sealed before records were)."""
    reports, seals = [], []
    for conversation in data["conversations"]:
        messages = [
            _Exported(m["seq"], m["from"], m["text"], _moment(m["at"]), m["prev_hash"], m["hash"])
            for m in conversation["messages"]
        ]
        seal = Seal.from_dict(conversation["seal"]) if conversation.get("seal") else None
        seals.append(seal)
        reports.append(
            (
                f"{conversation['side']} conversation",
                seal_verify(
                    conversation_public_id=conversation["id"],
                    messages=messages,
                    seal=seal,
                    public_keys=public_keys,
                    interrogation_public_id=data["id"],
                    ended_at=_moment(data.get("ended_at")),
                ),
            )
        )
    if data.get("seal") and not isinstance(data["seal"], dict):
        record = RecordReport("ALTERED", None, "the record's seal is not a seal (a JSON object)")
    elif data.get("seal"):
        record = record_verify(
            interrogation_public_id=data["id"],
            found=record_found(data),
            seal=RecordSeal.from_dict(data["seal"]),
            public_keys=public_keys,
        )
    else:
        record = record_missing(seals)
    return reports if record is None else [*reports, ("whole record", record)]


def export_verify(data, public_keys: dict[str, Ed25519PublicKey]) -> list[tuple[str, object]]:
    """A transcript (``/transcripts/<id>.json``: its "conversations") or a bundle of them (a Loebner contest's
    or a wager session's "All transcripts as JSON": ``{"transcripts": [<transcript>, ...], ...}``), each
    conversation checked: [(which conversation, report)]. A bundle names each conversation's transcript."""
    if not isinstance(data, dict):
        raise ValueError("the file is not a JSON object: neither a transcript nor a bundle of transcripts")
    if "conversations" in data:
        return transcript_verify(data, public_keys)
    if isinstance(data.get("transcripts"), list):
        return [
            (f"transcript {transcript['id']} {label}", report)
            for transcript in data["transcripts"]
            for label, report in transcript_verify(transcript, public_keys)
        ]
    raise ValueError('neither a transcript (no "conversations") nor a bundle of transcripts (no "transcripts")')


def keys_read(source: str) -> list[Ed25519PublicKey]:
    """--key: a base64 public key, or a file: the platform's keys.json, or a PEM public key."""
    path = Path(source)
    if not path.is_file():
        return [public_key_load(source)]
    text = path.read_text()
    if text.lstrip().startswith("{"):
        return [public_key_load(item["public_key"]) for item in json.loads(text)["keys"]]
    return [public_key_load(text)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m core.hashchain",
        description="Verify an exported transcript (its hash chains and their signed seals) without the platform.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="check a transcript JSON against the platform's public key(s)")
    verify.add_argument(
        "transcript",
        type=Path,
        help="the JSON of /transcripts/<id>.json, or a bundle of transcripts (a contest's or a wager session's "
        '"All transcripts as JSON")',
    )
    verify.add_argument(
        "--key",
        action="append",
        required=True,
        metavar="KEY",
        help="a trusted public key: base64, a PEM file, or the platform's /transcripts/keys.json "
        "(repeatable). The keys inside the export are not trusted: anyone can write those.",
    )
    args = parser.parse_args(argv)
    try:
        keys = keys_index(key for source in args.key for key in keys_read(source))
        data = json.loads(args.transcript.read_text())
        reports = export_verify(data, keys)
    except (OSError, ValueError, KeyError, TypeError) as error:
        parser.error(f"cannot read the transcript or the keys: {error!r}")
    for label, report in reports:
        print(f"{report.verdict}: {label}: {report.describe()}")
    if not reports:
        print("NOTHING: the file holds no conversation to verify")
    return 0 if reports and all(report.ok for _, report in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
