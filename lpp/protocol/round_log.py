"""The round logs of the LPP2 reference server (no Django; docs/reference/protocols.md).

The reference server (Node.js, AISB 2017–2019) appends every message it relays to a file named
``Round<n>`` in its working directory, ``n`` counting rounds from 0, one JSON map a line, as the client
sent it with the secret blanked::

    {"content":"Hello, who are you?","to":"conf0","id":"judge0","secret":""}

(the stock pages put ``content`` and ``to`` first; the protocol's README shows ``id`` first). There is
no time and no screen side: the stock judge page chose left and right at random. One file holds every
judge of the round; each judge's conversation with each partner becomes a :class:`Party` of that judge's
:class:`Session`, in the order of their first line.
"""

from __future__ import annotations

import json
import re

from lpp.protocol.lpp2 import MAX_FIELD_CHARS, role_of
from lpp.protocol.sessions import HUMAN, JUDGE, OTHER, PROGRAM, Line, Session, UnreadableInput

_ROUND = re.compile(r"Round(\d{1,3})\b")
ROLE = {"conf": HUMAN, "ai": PROGRAM}
MAX_TEXT = 100_000


def round_of(file_name: str) -> str:
    """The round as the platform counts (from 1) for a file named ``Round<n>`` (from 0); ``""`` if none."""
    match = _ROUND.search(file_name)
    return str(int(match[1]) + 1) if match else ""


def parse_round_log(text: str, file_name: str = "") -> list[Session]:
    """The judges' sessions of one round log; :class:`UnreadableInput` if no line is a relayed message."""
    sessions: dict[str, Session] = {}
    problems: list[str] = []
    judges_of: dict[str, set[str]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        message, why = _message(raw)
        if message is None:
            problems.append(f"line {number}: {why}")
            continue
        sender, to, content = message
        if role_of(sender) == "judge" and role_of(to) != "judge":
            judge, partner, who = sender, to, JUDGE
        elif role_of(to) == "judge" and role_of(sender) != "judge":
            judge, partner, who = to, sender, OTHER
        else:
            problems.append(f"line {number}: a message from {sender!r} to {to!r} is not between a judge and a partner")
            continue
        session = sessions.get(judge)
        if session is None:
            session = sessions[judge] = Session("lpp2", judge=judge, round=round_of(file_name), title="LPP2 round log")
        session.party(partner, ROLE.get(role_of(partner), "")).lines.append(Line(who, content))
        judges_of.setdefault(partner, set()).add(judge)
    if not sessions:
        reason = problems[0] if problems else "no message"
        raise UnreadableInput(f"not a round log of the LPP2 reference server ({reason})")
    for session in sessions.values():
        session.problems += problems
        kinds: dict[str, list[str]] = {}
        for party in session.parties:
            kinds.setdefault(party.role or "unknown", []).append(party.name)
            if not party.role:
                session.problems.append(f"{party.name} is neither a confederate nor an entry: recorded as a program")
            if len(judges_of[party.name]) > 1:
                others = ", ".join(sorted(judges_of[party.name] - {session.judge}))
                session.problems.append(
                    f"the schedule is contradicted: {party.name} talks to {session.judge} and to {others} in one round"
                )
        for role, names in kinds.items():
            if role != "unknown" and len(names) > 1:
                session.problems.append(
                    f"the schedule is contradicted: {session.judge} talks to {len(names)} partners of one kind "
                    f"({', '.join(names)}) in one round"
                )
    return list(sessions.values())


def _message(raw: str) -> tuple[tuple[str, str, str] | None, str]:
    try:
        data = json.loads(raw)
    except ValueError:
        return None, "not a JSON map"
    if not isinstance(data, dict):
        return None, "not a JSON map"
    values = [data.get(key) for key in ("id", "to", "content")]
    if not all(isinstance(v, str) for v in values) or not values[0] or not values[1]:
        return None, "a JSON map without the strings id, to and content"
    if max(len(values[0]), len(values[1])) > MAX_FIELD_CHARS:
        return None, f"an id or to longer than {MAX_FIELD_CHARS} characters"
    if not values[2].strip():
        return None, "an empty message, not imported"
    if len(values[2]) > MAX_TEXT:
        return None, f"a message longer than {MAX_TEXT} characters, not imported"
    return (values[0], values[1], values[2]), ""
