"""LPP2 (the AISB 2017-2019 socket.io protocol) on the wire, no Django: identity names, the reference
server's payloads byte for byte (its ``JSON.stringify`` and its hand-built strings), and the bounded
parsing of what clients send (stringified JSON maps carrying ``id`` and ``secret``).
The protocol as implemented is documented in docs/reference/protocols.md."""

from __future__ import annotations

import json
import re

RUNNING, NOT_STARTED, FINISHED = "Running", "Not Started", "Finished"
CONTROLLER, WEBCAST = "CONTROLLER", "webcast"
ROLE_PREFIX = {"judge": "judge", "entry": "ai", "confederate": "conf"}  # participant kind -> LPP2 name prefix
LABEL_PREFIX = {"judge": "J", "ai": "E", "conf": "C"}  # LPP2 prefix -> Loebner label prefix (J1 = judge0)
MAX_PAYLOAD_CHARS = 20_000
MAX_FIELD_CHARS = 100
AUTH_ERROR = "Invalid secret"
_NAME = re.compile(r"(judge|ai|conf)(\d{1,2})\Z")


class PayloadError(ValueError):
    """A payload that cannot be read; the message says why (sent back on TargetError)."""


def dumps(value) -> str:
    """``JSON.stringify``: no spaces, non-ASCII kept as is."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def name_for(kind: str, label: str) -> str:
    """``("judge", "J1") -> "judge0"``: the reference counts from 0, the Loebner labels from 1."""
    return f"{ROLE_PREFIX[kind]}{int(label[1:]) - 1}"


def label_for(name: str) -> str | None:
    """``"judge0" -> "J1"``, ``"ai3" -> "E4"``; None for CONTROLLER, webcast and unknown names."""
    match = _NAME.match(name)
    return f"{LABEL_PREFIX[match[1]]}{int(match[2]) + 1}" if match else None


def role_of(name: str) -> str:
    """ "judge" | "ai" | "conf" | "CONTROLLER" | "webcast" | "" (unknown)."""
    match = _NAME.match(name)
    return match[1] if match else (name if name in (CONTROLLER, WEBCAST) else "")


def parse(data) -> dict:
    """The client's payload: a JSON map as text (the reference double-encodes) or, from newer clients, a
    map already; bounded. Keys keep their order (relayed messages are re-serialised in it)."""
    if isinstance(data, (bytes, bytearray)):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise PayloadError("the payload is not UTF-8 text") from None
    if isinstance(data, str):
        if len(data) > MAX_PAYLOAD_CHARS:
            raise PayloadError(f"the payload is longer than {MAX_PAYLOAD_CHARS} characters")
        try:
            data = json.loads(data)
        except ValueError:
            raise PayloadError("the payload is not JSON") from None
    if not isinstance(data, dict):
        raise PayloadError("the payload must be a JSON map (object)")
    for key in ("id", "secret"):
        value = data.get(key)
        if not isinstance(value, str) or not value or len(value) > MAX_FIELD_CHARS:
            raise PayloadError(f"{key} must be a non-empty string of at most {MAX_FIELD_CHARS} characters")
    return data


def field(data: dict, key: str, *, max_chars: int = MAX_FIELD_CHARS) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise PayloadError(f"{key} must be a non-empty string")
    if len(value) > max_chars:
        raise PayloadError(f"{key} is longer than {max_chars} characters")
    return value


def relayed(data: dict) -> dict:
    """A message as relayed and recapped: the sender's map with ``secret`` blanked."""
    return {**data, "secret": ""}


def message_map(*, sender: str, to: str, content: str) -> dict:
    """A message the platform relays (from a console, an engine, or a stored line): the README's order."""
    return {"id": sender, "secret": "", "content": content, "to": to}


def round_information(number: int, status: str, partners: dict) -> str:
    return '{"roundNumber":' + str(number) + ', "status":"' + status + '", "partners":' + dumps(partners) + "}"


def new_round(partners: dict) -> str:
    return '{"status":"newRound","partners": ' + dumps(partners) + "}"


def control(status: str) -> str:
    return '{"status":"' + status + '"}'


def target_error(why: str) -> str:
    return dumps({"status": why})


def final_scores(data: dict, rounds: int) -> list[int]:
    """``{"finalScores": ["4","1","3","2"]}`` (the judge page sends strings): one humanness score per
    round, 1…rounds, no ties."""
    values = data.get("finalScores")
    if not isinstance(values, list) or len(values) != rounds:
        raise PayloadError(f"finalScores must be a list of {rounds} scores, one per round")
    scores = []
    for value in values:
        text = str(value).strip() if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
        if not text.isdigit() or not 1 <= int(text) <= rounds:
            raise PayloadError(f"each final score is a whole number from 1 to {rounds}")
        scores.append(int(text))
    if len(set(scores)) != len(scores):
        raise PayloadError("final scores must differ (no ties)")
    return scores
