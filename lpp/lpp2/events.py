"""One LPP2 event from a client, read and answered in one database visit (sync; the socket.io handlers
call it in a thread): what to send back to that socket, what to broadcast to the contest, and what the
socket now is (the name of any event with a valid id and secret, a webcast view). Every refusal is
answered (AuthError or TargetError naming why; a refused line also as a line the sender's page shows,
``notices``), kept as a problem of the round for the organiser and logged: nothing is dropped silently."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from django.utils import timezone

from core.errors import ArenaError
from lpp.lpp2 import notices, selectors, services
from lpp.models import Lpp2Problem
from lpp.protocol import lpp2 as wire

log = logging.getLogger("lpp.lpp2")
CLIENT_EVENTS = ("control", "controller", "message", "score", "finalScore", "webcast")


@dataclass
class Outcome:
    lpp2_id: int | None = None
    replies: list = field(default_factory=list)  # (event, data) to the sender's socket
    broadcasts: list = field(default_factory=list)  # (event, data) to every registered socket of the contest
    register: str | None = None  # this socket is now this name (any event with a valid id and secret)
    webcast: tuple | None = None  # (round number, judge name) this socket watches
    webcast_public: tuple | None = None  # (delay in seconds, {name: alias}): a webcast without credentials
    webcast_pending: list = field(default_factory=list)  # (seconds to wait, line): lines not yet old enough
    finals: dict | None = None  # every round is finished: each judge's ranking page path, sent to the judges
    recap_at: object = None  # a confederate was sent its recap of the lines stored until this time
    refresh: bool = False  # the current round changed: hubs follow its conversations
    line: services.Line | None = None  # a line stored: the sender's hub relays it to its own sockets at once


def lpp2_greeting() -> str:
    """The ``roundInformation`` every new socket is sent (as the reference pages ask for it at load). A
    reference page that reconnects by itself (a server restart, a network cut) registers no more; this
    answer makes it ask for its recap, with its id and secret, which binds the socket to its name again."""
    lpp2 = selectors.lpp2_active()
    if lpp2 is None:
        return wire.round_information(-1, wire.FINISHED, {})
    number, round_ = selectors.round_current(lpp2=lpp2)
    return wire.round_information(number, selectors.round_status(round_), selectors.partners(lpp2=lpp2, round_=round_))


def lpp2_claimant(*, event: str, data) -> tuple[int, str, bool] | None:
    """For a socket not yet bound to a name: (contest id, name, whether it registers) when the event carries
    a valid id and secret of a participant or the CONTROLLER, else None; the hub binds the socket before
    the event is handled, so that no line stored meanwhile misses it."""
    try:
        payload = wire.parse(data)
    except wire.PayloadError:
        return None
    lpp2 = selectors.lpp2_active()
    if lpp2 is None:
        return None
    identity = selectors.identity_cached(lpp2=lpp2, name=payload["id"], secret=payload["secret"])
    if identity is None or wire.role_of(identity.name) == wire.WEBCAST:
        return None
    return lpp2.pk, identity.name, event == "control" and payload.get("status") == "register"


def lpp2_event(*, event: str, data, sid: str, base_url: str = "", recap_since=None) -> Outcome:
    """``base_url``: the address the socket connected to (scheme and host), for the judges' ranking links;
    ``recap_since(name)``: (from, until) the lines a confederate's recap on this socket holds (None: no bound;
    the reference confederate page adds a recap to the lines it shows, where the judge page starts afresh)."""
    if event == "message":
        accepted = _line_cached(data)
        if accepted is not None:
            return accepted
    out = Outcome()
    if event == "webcast":
        public = _webcast_public(out, data)
        if public is not None:
            return public
    try:
        payload = wire.parse(data)
    except wire.PayloadError as error:
        return _refuse(out, event, "?", str(error), data=data)
    lpp2 = selectors.lpp2_active()
    if lpp2 is None:
        return _refuse(out, event, payload["id"], "No contest is served over LPP2 (manage.py lpp2 setup).")
    out.lpp2_id = lpp2.pk
    identity = selectors.identity_cached(lpp2=lpp2, name=payload["id"], secret=payload["secret"])
    if identity is None:
        log.warning("LPP2 %s from %r refused: invalid secret", event, payload["id"][:40])
        out.replies.append(("AuthError", wire.AUTH_ERROR))
        _keep(lpp2, event, payload["id"], "invalid secret", payload)
        if event == "message" and notices.shows_notices(payload["id"]):
            out.replies.append(("message", _refused_line(payload["id"], "invalid secret", payload)))
        return out
    if wire.role_of(identity.name) != wire.WEBCAST:
        out.register = identity.name  # a page that reconnects without registering again is heard from here on
    try:
        _handle(out, lpp2, identity, event, payload, base_url, recap_since)
    except (ArenaError, wire.PayloadError) as error:
        return _refuse(out, event, identity.name, str(error), payload=payload, lpp2=lpp2)
    return out


def _line_cached(data) -> Outcome | None:
    """A line through the cached contest, round and seats: the append's one statement and nothing
    else. None when anything refuses it: the line is then decided again from fresh reads, which
    answer (and log) the refusal."""
    sender = selectors.line_sender(data)
    if sender is None:
        return None
    payload, lpp2, number, identity = sender
    try:
        line = services.lpp2_message_send(
            lpp2=lpp2, identity=identity, to=payload.get("to"), content=payload.get("content"), number=number
        )
    except ArenaError:
        selectors.hot_path_forget()  # a round changed in another process: the full path reads both afresh
        return None
    return Outcome(lpp2_id=lpp2.pk, line=line, register=identity.name)


def _refuse(
    out: Outcome, event: str, name: str, why: str, *, payload: dict | None = None, data=None, lpp2=None
) -> Outcome:
    log.warning("LPP2 %s from %r refused: %s", event, name[:40], why)
    out.replies.append(("TargetError", wire.target_error(why)))
    if payload is None and isinstance(data, str) and len(data) <= wire.MAX_PAYLOAD_CHARS * 4:
        payload = _loose(data)  # what can be read of a payload refused as a whole: who sent it, to whom
        name = name if name != "?" or not isinstance(payload.get("id"), str) else payload["id"]
    _keep(lpp2 or selectors.lpp2_active(), event, name, why, payload or {}, data=data)
    if event == "message" and notices.shows_notices(name):
        out.replies.append(("message", _refused_line(name, why, payload or {}, data=data)))
    return out


def _loose(data: str) -> dict:
    try:
        value = json.loads(data)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _chars(payload: dict, data=None) -> int | None:
    content = payload.get("content")
    if isinstance(content, str):
        return len(content)
    return None


def _refused_line(name: str, why: str, payload: dict, data=None) -> str:
    return notices.refused_line(sender=name, to=payload.get("to"), why=why, chars=_chars(payload, data))


def _keep(lpp2, event: str, name: str, why: str, payload: dict, data=None) -> None:
    """The refusal as a problem of the current round (the control panel and the admin show it)."""
    if lpp2 is None:
        return
    try:
        number, _ = selectors.round_current(lpp2=lpp2, load=False)
        services.lpp2_problem_record(
            lpp2_id=lpp2.pk,
            round_number=number,
            kind=Lpp2Problem.Kind.REFUSED,
            event=event if event in CLIENT_EVENTS else "?",
            sender=name if isinstance(name, str) else "?",
            to=payload.get("to") if isinstance(payload.get("to"), str) else "",
            chars=_chars(payload, data),
            reason=why,
        )
    except Exception:
        log.exception("LPP2 refusal not kept as a problem of the round")


def _webcast_public(out: Outcome, data) -> Outcome | None:
    """The reference webcast page's ``setView``, which carries no id or secret: the public view (lines
    after the contest's spectator delay, the partners under names that do not tell them apart), where the
    contest lets the public watch (``spectator_markets``). None when the payload has an id and a secret
    (the organiser's live view: ``_webcast``)."""
    if isinstance(data, str) and len(data) <= wire.MAX_PAYLOAD_CHARS:
        payload = _loose(data)
    else:
        payload = data if isinstance(data, dict) else {}
    if payload.get("id") or payload.get("secret"):
        return None
    lpp2 = selectors.lpp2_active()
    if lpp2 is None:
        return _refuse(out, "webcast", "webcast", "No contest is served over LPP2 (manage.py lpp2 setup).")
    out.lpp2_id = lpp2.pk
    if not lpp2.contest.spectator_markets:
        return _refuse(out, "webcast", "webcast", "This contest has no public view: its spectators are off.", lpp2=lpp2)
    try:
        _webcast(out, lpp2, payload, delay_s=selectors.webcast_delay_s(lpp2))
    except wire.PayloadError as error:
        return _refuse(out, "webcast", "webcast", str(error), payload=payload, lpp2=lpp2)
    return out


def _finals(out: Outcome, lpp2, identity, base_url: str) -> None:
    """A judge's page after the last round: ``finalScore`` (the page shows its form) and the address of
    the platform's ranking page, as a line the page shows."""
    if wire.role_of(identity.name) != "judge" or not selectors.contest_over(lpp2):
        return
    path = selectors.rank_paths(lpp2).get(identity.name)
    out.replies.append(("finalScore", "{}"))
    if path:
        out.replies.append(("message", notices.rank_line(judge=identity.name, url=f"{base_url}{path}")))


def _handle(out: Outcome, lpp2, identity, event: str, payload: dict, base_url: str = "", recap_since=None) -> None:
    role = wire.role_of(identity.name)
    status = payload.get("status")
    if event == "control":
        if status == "register":
            pass  # out.register: the hub binds the socket to the name (as on any event with a valid secret)
        elif status == "roundInformation":
            number, round_ = selectors.round_current(lpp2=lpp2)
            partners = selectors.partners(lpp2=lpp2, round_=round_)
            out.replies.append(
                ("roundInformation", wire.round_information(number, selectors.round_status(round_), partners))
            )
            out.refresh = True
            _finals(out, lpp2, identity, base_url)
        elif status == "recap":
            number, _ = selectors.round_current(lpp2=lpp2)
            since, until = recap_since(identity.name) if role == "conf" and recap_since is not None else (None, None)
            if role == "conf":
                out.recap_at = timezone.now()
            lines = selectors.recap(lpp2=lpp2, number=number, name=identity.name, since=since, until=until)
            if lines is not None:  # the reference does not answer before the first round
                out.replies.append(("recap", wire.dumps(lines)))
        else:
            raise wire.PayloadError(f"unknown control status {str(status)[:40]!r}")
    elif event == "controller":
        if role != wire.CONTROLLER:
            raise wire.PayloadError("only the CONTROLLER sends controller events")
        _controller(out, lpp2, status)
    elif event == "message":
        out.line = services.lpp2_message_send(
            lpp2=lpp2, identity=identity, to=payload.get("to"), content=payload.get("content")
        )
    elif event == "score":
        services.lpp2_score_record(lpp2=lpp2, identity=identity, robot=payload.get("robot"))
    elif event == "finalScore":
        services.lpp2_final_record(lpp2=lpp2, identity=identity, data=payload)
    elif event == "webcast":
        if role not in (wire.WEBCAST, wire.CONTROLLER):
            raise wire.PayloadError("only the webcast (or the CONTROLLER) watches a judge's conversations")
        _webcast(out, lpp2, payload)
    else:
        raise wire.PayloadError(f"unknown event {event[:40]!r}")


def _controller(out: Outcome, lpp2, status) -> None:
    if status == "statusUpdate":  # the panel's poll: a read, no change to the round
        out.replies.append(("statusUpdate", wire.dumps(selectors.status_update(lpp2=lpp2))))
        return
    selectors.hot_path_forget()  # the round may change: this process's lines read it afresh
    _round_change(out, lpp2, status)
    selectors.hot_path_warm()  # once the round has changed: the round's first lines find it read


def _round_change(out: Outcome, lpp2, status) -> None:
    if status == "newRound":
        out.broadcasts.append(("control", wire.new_round(services.lpp2_round_new(lpp2_id=lpp2.pk))))
    elif status == "startRound":
        services.lpp2_round_start(lpp2_id=lpp2.pk)
        out.broadcasts.append(("control", wire.control("startRound")))
    elif status == "endRound":
        services.lpp2_round_end(lpp2_id=lpp2.pk)
        out.broadcasts.append(("control", wire.control("endRound")))
        if selectors.contest_over(lpp2):
            out.finals = selectors.rank_paths(lpp2)
    else:
        raise wire.PayloadError(f"unknown controller status {str(status)[:40]!r}")
    out.refresh = True


def _webcast(out: Outcome, lpp2, payload: dict, delay_s: float | None = None) -> None:
    if payload.get("status") != "setView":
        raise wire.PayloadError("the webcast sends setView")
    try:
        number, judge = int(str(payload.get("round"))[:6]), int(str(payload.get("judge"))[:6])
    except ValueError:
        raise wire.PayloadError("round and judge must be whole numbers") from None
    view = selectors.webcast_view(lpp2=lpp2, number=number, judge_index=judge, delay_s=delay_s)
    if view is None:
        raise wire.PayloadError(f"no judge{judge} in round {number}")
    out.replies += [("participants", wire.dumps(view["participants"])), ("recap", wire.dumps(view["recap"] or []))]
    out.webcast = (number, view["participants"]["judge"])
    if delay_s is not None:
        out.webcast_public, out.webcast_pending = (delay_s, view["aliases"]), view["pending"]
