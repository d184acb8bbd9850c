"""Reads: a game's whole state (page, websocket, command, export), counters and metrics, the
leaderboard across games and models. Every text here is data: templates and scripts render it as text."""

import json
from collections import defaultdict
from urllib.parse import urlsplit

from django.db.models import Prefetch

from core.payloads import iso
from tables.models import Agent, Call, Game, Penalty, Turn, Verdict, Vote
from tables.rules.metrics import TurnRecord, metrics_compute
from tables.rules.votes import PLAGIARISM, REPETITION

COPIED = {REPETITION, PLAGIARISM}


def _turns(game):
    calls = Call.objects.order_by("seq").prefetch_related(
        Prefetch("verdicts", queryset=Verdict.objects.order_by("judge"))
    )
    return (
        Turn.objects.filter(game=game)
        .order_by("number")
        .select_related("agent", "vote__target", "penalty")
        .prefetch_related(Prefetch("calls", queryset=calls))
    )


def _model(entry) -> str:
    if entry.engine == "tables_stub":
        return "built-in stub player"
    settings = entry.settings or {}
    host = urlsplit(settings.get("base_url", "")).netloc
    return f"{settings.get('model', '?')} @ {host}" if host else str(settings.get("model", "?"))


def _verdict(v: Verdict) -> dict:
    return {
        "judge": v.judge,
        "passed": v.passed,
        "rule": v.rule,
        "reason": v.reason,
        "target": v.target,
        "form": v.form,
        "similarity": v.similarity,
    }


def _call(c: Call, *, full: bool) -> dict:
    out = {
        "role": c.role,
        "agent": c.agent.name if c.agent_id else None,
        "text": c.text,
        "ok": c.ok,
        "error": c.error,
        "penalised": c.penalised,
        "attempts": c.attempts,
        "latency_ms": c.latency_ms,
        "tokens_in": c.tokens_in,
        "tokens_out": c.tokens_out,
        "verdicts": [_verdict(v) for v in c.verdicts.all()],
    }
    if full:
        out.update(prompt=c.prompt, raw=c.raw)
    else:
        out["prompt_last"] = (c.prompt or [{}])[-1].get("content", "") if c.prompt else ""
    return out


def turn_view(turn: Turn, names: dict[int, str], *, full: bool = False) -> dict:
    vote = getattr(turn, "vote", None) if hasattr(turn, "vote") else None
    penalty = getattr(turn, "penalty", None) if hasattr(turn, "penalty") else None
    return {
        "number": turn.number,
        "agent": turn.agent.name,
        "phase": turn.phase,
        "status": turn.status,
        "error": turn.error,
        "platform_ms": round(turn.platform_ms, 3),
        "calls": [_call(c, full=full) for c in turn.calls.all()],
        "vote": {
            "voter": turn.agent.name,
            "against": vote.target.name,
            "reason": vote.reason,
            "corrected": vote.corrected,
        }
        if vote
        else None,
        "penalty": {"agent": turn.agent.name, "rule": penalty.rule, "reason": penalty.reason} if penalty else None,
    }


def _safe(obj, attr):
    try:
        return getattr(obj, attr)
    except (Vote.DoesNotExist, Penalty.DoesNotExist):
        return None


def game_state(*, game: Game, full: bool = False) -> dict:
    """Everything about a game, its turns in order, counters and metrics."""
    agents = list(Agent.objects.filter(game=game).select_related("entry").order_by("position"))
    turns = list(_turns(game))
    counters = {
        a.name: {
            "votes_received": 0,
            "penalties": 0,
            "votes_against": 0,
            "corrections_tried": 0,
            "corrections_succeeded": 0,
            "invalid_replies": 0,
            "replies": 0,
            "failed_calls": 0,
            "latency_ms": 0,
            "tokens_in": 0,
            "tokens_out": 0,
        }
        for a in agents
    }
    judge = {"calls": 0, "garbage": 0, "latency_ms": 0, "tokens_in": 0, "tokens_out": 0}
    records, views = [], []
    for turn in turns:
        vote, penalty = _safe(turn, "vote"), _safe(turn, "penalty")
        turn.vote, turn.penalty = vote, penalty
        name = turn.agent.name
        c = counters[name]
        judged, copied, first_ok = 0, 0, None
        for call in turn.calls.all():
            bucket = judge if call.role == Call.Role.JUDGE else c
            bucket["latency_ms"] += call.latency_ms
            bucket["tokens_in"] += call.tokens_in or 0
            bucket["tokens_out"] += call.tokens_out or 0
            if call.role == Call.Role.JUDGE:
                judge["calls"] += 1
                continue
            c["replies"] += 1
            if not call.ok:
                c["failed_calls"] += 1
                continue
            if call.role == Call.Role.CORRECTION:
                c["corrections_tried"] += 1
            functional = [v for v in call.verdicts.all() if v.judge == Verdict.Judge.FUNCTIONAL]
            if functional:
                judged += 1
                f = functional[0]
                copied += f.rule in COPIED
                if f.form != "json":
                    c["invalid_replies"] += 1
                if call.role == Call.Role.VOTE:
                    first_ok = not call.penalised
            for v in call.verdicts.all():
                if v.judge == Verdict.Judge.LLM and v.passed is None:
                    judge["garbage"] += 1
        if vote:
            counters[vote.target.name]["votes_received"] += 1
            c["corrections_succeeded"] += vote.corrected
        if penalty:
            c["penalties"] += 1
        if first_ok is not None:
            records.append(
                TurnRecord(
                    name, first_ok, judged, copied, vote.target.name if vote else None, bool(vote and vote.grounded)
                )
            )
        views.append(turn_view(turn, {}, full=full))
    for c in counters.values():
        c["votes_against"] = c["votes_received"] + c["penalties"]
    per, pooled = metrics_compute(records)
    empty = metrics_compute([])[1].as_dict()
    return {
        "id": game.pk,
        "title": str(game),
        "status": game.status,
        "outcome": game.outcome,
        "loser": game.loser.name if game.loser_id else None,
        "seed": game.seed,
        "order": game.order,
        "end_votes": game.end_votes,
        "max_turns": game.max_turns,
        "turns_played": game.turns_played,
        "judge": _model(game.judge) if game.judge_id else None,
        "config": game.config,
        "created_at": iso(game.created_at),
        "ended_at": iso(game.ended_at),
        "agents": [
            {
                "name": a.name,
                "position": a.position,
                "model": _model(a.entry),
                **counters[a.name],
                "metrics": per[a.name].as_dict() if a.name in per else empty,
            }
            for a in agents
        ],
        "judge_counters": judge,
        "metrics": pooled.as_dict(),
        "turns": views,
    }


def game_result(*, game: Game) -> dict:
    """The command's answer: loser or draw, turns, votes against, penalties, metrics."""
    state = game_state(game=game, full=False)
    if state["outcome"] == Game.Outcome.VOID:
        out = {"void": game.void_reason or True}
    else:
        out = {"loser": state["loser"]} if state["outcome"] == Game.Outcome.LOSER else {"draw": True}
    out.update(
        game=game.pk,
        seed=game.seed,
        order=game.order,
        turns=[
            {k: t[k] for k in ("number", "agent", "phase", "status", "error", "vote", "penalty")}
            | {"text": next((c["text"] for c in reversed(t["calls"]) if c["agent"] and c["ok"]), "")}
            for t in state["turns"]
        ],
        votes_against={a["name"]: a["votes_against"] for a in state["agents"]},
        penalties={a["name"]: a["penalties"] for a in state["agents"]},
        metrics={"game": state["metrics"], **{a["name"]: a["metrics"] for a in state["agents"]}},
        counters={
            a["name"]: {
                k: a[k]
                for k in (
                    "votes_received",
                    "penalties",
                    "corrections_tried",
                    "corrections_succeeded",
                    "invalid_replies",
                    "failed_calls",
                    "latency_ms",
                    "tokens_in",
                    "tokens_out",
                )
            }
            for a in state["agents"]
        },
    )
    return out


def game_export_lines(*, game: Game):
    """JSON Lines: the game, then one line per call (every prompt and raw reply) and per turn."""
    state = game_state(game=game, full=True)
    head = {k: v for k, v in state.items() if k != "turns"}
    yield json.dumps({"type": "game", **head}, ensure_ascii=False) + "\n"
    for turn in state["turns"]:
        for seq, call in enumerate(turn["calls"]):
            yield (
                json.dumps(
                    {"type": "call", "game": game.pk, "turn": turn["number"], "seq": seq, **call}, ensure_ascii=False
                )
                + "\n"
            )
        yield (
            json.dumps(
                {"type": "turn", "game": game.pk, **{k: v for k, v in turn.items() if k != "calls"}}, ensure_ascii=False
            )
            + "\n"
        )


def games_list(*, limit: int = 50) -> list[Game]:
    return list(Game.objects.select_related("loser").order_by("-created_at", "-pk")[:limit])


def leaderboard() -> list[dict]:
    """Per model (entry) across finished games (void ones count for nothing): games, losses (declared
    human), draws, votes received, penalties, and the pooled obedience (valid first try)."""
    rows: dict[int, dict] = {}
    counted = {"game__status": Game.Status.FINISHED}
    void = {"game__outcome": Game.Outcome.VOID}
    agents = Agent.objects.filter(**counted).exclude(**void).select_related("entry", "game")
    received = defaultdict(int)
    turn_counted = {f"turn__{k}": v for k, v in counted.items()}
    turn_void = {f"turn__{k}": v for k, v in void.items()}
    for vote in Vote.objects.filter(**turn_counted).exclude(**turn_void).values_list("target_id", flat=True):
        received[vote] += 1
    penalties = defaultdict(int)
    for agent_id in Penalty.objects.filter(**turn_counted).exclude(**turn_void).values_list("agent_id", flat=True):
        penalties[agent_id] += 1
    first = defaultdict(lambda: [0, 0])
    for agent_id, penalised in (
        Call.objects.filter(**turn_counted, role=Call.Role.VOTE, ok=True)
        .exclude(**turn_void)
        .values_list("agent_id", "penalised")
    ):
        first[agent_id][0] += not penalised
        first[agent_id][1] += 1
    for a in agents:
        row = rows.setdefault(
            a.entry_id,
            {
                "model": _model(a.entry),
                "games": 0,
                "lost": 0,
                "draws": 0,
                "votes_received": 0,
                "penalties": 0,
                "ok_first": 0,
                "votes": 0,
            },
        )
        row["games"] += 1
        row["lost"] += a.game.loser_id == a.pk
        row["draws"] += a.game.outcome == Game.Outcome.DRAW
        row["votes_received"] += received[a.pk]
        row["penalties"] += penalties[a.pk]
        row["ok_first"] += first[a.pk][0]
        row["votes"] += first[a.pk][1]
    out = []
    for row in rows.values():
        row["survived"] = row["games"] - row["lost"]
        row["obedience"] = round(row["ok_first"] / row["votes"], 3) if row["votes"] else None
        out.append(row)
    out.sort(key=lambda r: (-(r["survived"] / r["games"]), r["penalties"] / r["games"], r["model"]))
    return out
