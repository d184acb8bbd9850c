"""The shapes of everything Turing Trade sends to browsers, one function per event.

An answer's text goes out only through `answer()`, whose caller passes `visible` computed from stored
timestamps by `markets.visibility`; a non-visible answer carries no text, only when it will appear.
The target is never named in any payload before the game is settled.
"""

from django.utils import timezone

from core.payloads import error, iso  # noqa: F401  one error shape for the whole platform


def clock(game) -> dict:
    return {
        "status": game.status,
        "deadline": iso(game.deadline),
        "now": iso(timezone.now()),
        "answer_delay_s": game.answer_delay_s,
    }


def question(q) -> dict:
    return {"id": q.pk, "number": q.number, "asker": q.asker.number, "text": q.text, "at": iso(q.current_at)}


def queued(q) -> dict:
    return {"id": q.pk, "text": q.text, "at": iso(q.asked_at)}


def answer(q, *, visible: bool) -> dict:
    a = q.answer
    return {
        "question": q.pk,
        "number": q.number,
        "asker": q.asker.number,
        "text": a.text if visible else None,
        "answered_at": iso(a.answered_at),
        "public_at": iso(a.public_at),
    }


def trade(t) -> dict:
    return {
        "seq": t.seq,
        "bettor": t.participant.number,
        "action": t.action,
        "security": t.security,
        "cost": t.cost,
        "price_before": t.price_before,
        "price_after": t.price_after,
        "question": t.question_id,
        "at": iso(t.created_at),
    }


def price_point(t) -> dict:
    return price_point_row(t.seq, t.price_after, t.created_at)


def price_point_row(seq: int, price: int, at) -> dict:
    """A price point from a row's values (a console's history: no model instance per trade)."""
    return {"seq": seq, "price": price, "at": iso(at)}


def me(participant, balance: int) -> dict:
    return {
        "number": participant.number,
        "points": balance,
        "security": participant.security or None,
        "quantity": participant.quantity,
    }


def reveal(game) -> dict | None:
    if not game.is_finished or game.target_is_human is None:
        return None
    return {
        "kind": "human" if game.target_is_human else "machine",
        "name": game.target_entry.display_name if game.target_entry_id else "a human target",
    }


# --- pushes (notifications; every page re-reads its full state from the database on connect) ---
def current_question(q) -> dict:
    return {"type": "question", "question": question(q)}


def answer_event(q, *, visible: bool) -> dict:
    return {"type": "answer", "answer": answer(q, visible=visible)}


def price(t, quotes: dict) -> dict:
    return {"type": "price", "point": price_point(t), "trade": trade(t), "quotes": quotes}


def me_event(participant, balance: int) -> dict:
    """The trader's own position and points after a trade (its page updates them in place)."""
    return {"type": "me", "me": me(participant, balance)}


def refresh() -> dict:
    return {"type": "refresh"}


# --- conversation markets -----------------------------------------------------------------------
def xmarket(cm, game, market: dict) -> dict:
    """A conversation market's public face: its question, its game's clock and its market (no witness
    name or kind: the transcript beside it names witnesses by side only)."""
    return {
        "id": str(game.public_id),
        "question": cm.question,
        "side": cm.side,
        "status": game.status,
        "deadline": iso(game.deadline),
        "now": iso(timezone.now()),
        "market": market,
        "starting_points": game.starting_points,
    }


def xreveal(game, call) -> dict | None:
    """After settlement only: what the witness on the market's side was, and the judge's decision."""
    if game.status != "settled" or game.target_is_human is None:
        return None
    return {
        "human": bool(game.target_is_human),
        "final_price": game.market.human_price,
        "judge": None
        if call is None
        else {
            "pick": call.pick,
            "confidence": call.confidence,
            "p_event": round(call.p_event, 4),
            "source": call.source,
        },
    }
