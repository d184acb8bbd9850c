"""One LPP2 event from a client, read and answered in one database visit (sync; the socket.io handlers
call it in a thread): what to send back to that socket, what to broadcast to the contest, and what the
socket now is (registered name, webcast view). Every refusal is answered (AuthError or TargetError
naming why) and logged: nothing is dropped silently."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from core.errors import ArenaError
from lpp.lpp2 import selectors, services
from lpp.protocol import lpp2 as wire

log = logging.getLogger("lpp.lpp2")
CLIENT_EVENTS = ("control", "controller", "message", "score", "finalScore", "webcast")


@dataclass
class Outcome:
    lpp2_id: int | None = None
    replies: list = field(default_factory=list)  # (event, data) to the sender's socket
    broadcasts: list = field(default_factory=list)  # (event, data) to every registered socket of the contest
    register: str | None = None  # this socket is now this name
    webcast: tuple | None = None  # (round number, judge name) this socket watches
    refresh: bool = False  # the current round changed: hubs follow its conversations
    line: services.Line | None = None  # a line stored: the sender's hub relays it to its own sockets at once


def lpp2_event(*, event: str, data, sid: str) -> Outcome:
    if event == "message":
        accepted = _line_cached(data)
        if accepted is not None:
            return accepted
    out = Outcome()
    try:
        payload = wire.parse(data)
    except wire.PayloadError as error:
        return _refuse(out, event, "?", str(error))
    lpp2 = selectors.lpp2_active()
    if lpp2 is None:
        return _refuse(out, event, payload["id"], "No contest is served over LPP2 (manage.py lpp2 setup).")
    out.lpp2_id = lpp2.pk
    identity = selectors.identity_cached(lpp2=lpp2, name=payload["id"], secret=payload["secret"])
    if identity is None:
        log.warning("LPP2 %s from %r refused: invalid secret", event, payload["id"][:40])
        out.replies.append(("AuthError", wire.AUTH_ERROR))
        return out
    try:
        _handle(out, lpp2, identity, event, payload, sid)
    except (ArenaError, wire.PayloadError) as error:
        return _refuse(out, event, identity.name, str(error))
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
    return Outcome(lpp2_id=lpp2.pk, line=line)


def _refuse(out: Outcome, event: str, name: str, why: str) -> Outcome:
    log.warning("LPP2 %s from %r refused: %s", event, name[:40], why)
    out.replies.append(("TargetError", wire.target_error(why)))
    return out


def _handle(out: Outcome, lpp2, identity, event: str, payload: dict, sid: str) -> None:
    role = wire.role_of(identity.name)
    status = payload.get("status")
    if event == "control":
        if status == "register":
            services.lpp2_socket_bind(lpp2=lpp2, name=identity.name, sid=sid)
            out.register = identity.name
        elif status == "roundInformation":
            number, round_ = selectors.round_current(lpp2=lpp2)
            partners = selectors.partners(lpp2=lpp2, round_=round_)
            out.replies.append(
                ("roundInformation", wire.round_information(number, selectors.round_status(round_), partners))
            )
            out.refresh = True
        elif status == "recap":
            number, _ = selectors.round_current(lpp2=lpp2)
            lines = selectors.recap(lpp2=lpp2, number=number, name=identity.name)
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
    else:
        raise wire.PayloadError(f"unknown controller status {str(status)[:40]!r}")
    out.refresh = True


def _webcast(out: Outcome, lpp2, payload: dict) -> None:
    if payload.get("status") != "setView":
        raise wire.PayloadError("the webcast sends setView")
    try:
        number, judge = int(str(payload.get("round"))), int(str(payload.get("judge")))
    except ValueError:
        raise wire.PayloadError("round and judge must be whole numbers") from None
    view = selectors.webcast_view(lpp2=lpp2, number=number, judge_index=judge)
    if view is None:
        raise wire.PayloadError(f"no judge{judge} in round {number}")
    out.replies += [("participants", wire.dumps(view["participants"])), ("recap", wire.dumps(view["recap"] or []))]
    out.webcast = (number, view["participants"]["judge"])
