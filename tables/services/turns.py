"""Playing one turn, and a whole game.

A turn is claimed in a short transaction (the game row locked: the game must be running and the turn
the next one; the turn row is unique, so a task delivered twice plays once); the calls run outside any
transaction; the outcome (vote or penalty, the end) is written in another. Nothing is accepted after
the end. A reply that never comes (after the gateway's retries) is recorded on the turn, which counts
towards the cap, so a game always ends."""
import time
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from arena.services.engines import engine_chat
from core.dispatch import enqueue_now, enqueue_on_commit
from tables import notify
from tables.models import Agent, Call, Game, Penalty, Turn, Vote
from tables.rules import prompts
from tables.rules.metrics import grounded
from tables.services import context
from tables.services.judging import reply_judge, rule_text

# A turn still "running" after this long was left by a dead worker (Celery kills a task at 300 s).
STALE_TURN_S = 330


def tally_of(game, agents: dict[str, Agent]) -> dict[str, int]:
    """Votes against each agent (peer votes and penalties), in turn order, from its counters."""
    return {name: agents[name].received_count + agents[name].penalties_count for name in game.order}


def _claim(game_id: int, number: int) -> tuple[Game, Turn, dict[str, Agent]] | None:
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("judge").get(pk=game_id)
        if game.status != Game.Status.RUNNING or number != game.turns_played:
            return None
        agents = {a.name: a for a in Agent.objects.filter(game=game).select_related("entry")}
        agent = agents[game.order[number % len(game.order)]]
        phase = Turn.Phase.OPENING if number < len(game.order) else Turn.Phase.VOTE
        stale = timezone.now() - timedelta(seconds=STALE_TURN_S)
        # a turn left half-played by a dead worker (its task comes again, or the next delivery): played anew
        Turn.objects.filter(game=game, number=number, status=Turn.Status.RUNNING, started_at__lt=stale).delete()
        # a task delivered twice while its turn plays: the turn row exists, IntegrityError
        turn = Turn.objects.create(game=game, number=number, agent=agent, phase=phase)
    return game, turn, agents


def _call(*, game, turn, agent, role, seq, messages, json_mode, chat) -> Call:
    reply = chat(entry=agent.entry, messages=messages, json_mode=json_mode,
                 subject=f"tables game {game.pk} turn {turn.number} {agent.name} {role}")
    return Call.objects.create(
        turn=turn, agent=agent, role=role, seq=seq, prompt=messages, text=reply.text, raw=reply.raw, ok=reply.ok,
        error=reply.error, attempts=reply.attempts, latency_ms=reply.latency_ms, tokens_in=reply.tokens_in,
        tokens_out=reply.tokens_out)


def turn_play(*, game_id: int, number: int, chain: bool = True, chat=engine_chat) -> Turn | None:
    """Play turn ``number`` of the game; None when it is not this turn's time (over, already played).
    ``chain``: enqueue the next turn on commit (the Celery path); the command plays them in a loop."""
    start, waited = time.perf_counter(), 0.0
    try:
        claimed = _claim(game_id, number)
    except IntegrityError:  # the turn is being played: if that stops, this comes back once it is stale
        if chain:
            from tables.tasks import turn_task

            enqueue_now(turn_task, game_id, number, countdown=STALE_TURN_S + 1)
        return None
    if claimed is None:
        return None
    game, turn, agents = claimed
    record = None
    agent = turn.agent
    names = list(game.order)
    items = context.transcript(game=game, before=number)
    if turn.phase == Turn.Phase.OPENING:
        call = _call(game=game, turn=turn, agent=agent, role=Call.Role.OPENING, seq=0, json_mode=False, chat=chat,
                     messages=context.opening_messages(game=game, name=agent.name, items=items))
        waited += call.latency_ms
        outcome = None if call.ok else call.error
    else:
        messages = context.vote_messages(game=game, name=agent.name, items=items, number=number,
                                         tally=tally_of(game, agents))
        outcome, waited, record = _vote_turn(game=game, turn=turn, agent=agent, agents=agents, names=names,
                                             items=items, messages=messages, chat=chat, waited=waited)
    return _turn_end(game_id=game.pk, turn=turn, agents=agents, error=outcome, record=record, chain=chain,
                     start=start, waited=waited)


def _vote_turn(*, game, turn, agent, agents, names, items, messages, chat, waited):
    pool = context.pool(items)
    first = _call(game=game, turn=turn, agent=agent, role=Call.Role.VOTE, seq=0, messages=messages, json_mode=True,
                  chat=chat)
    waited += first.latency_ms
    if not first.ok:
        return first.error or "no reply", waited, None
    decision = reply_judge(game=game, turn=turn, agent=agent, call=first, names=names, pool=pool, seq=1, chat=chat)
    waited += decision.judge_ms
    accepted, corrected = (first, decision), False
    if not decision.passed:
        first.penalised = True
        first.save(update_fields=["penalised"])
        instructions = messages[-1]["content"]
        fix = prompts.correction_prompt(name=agent.name, failed_reply=first.text, rule=rule_text(decision.rule),
                                        reason=decision.reason, instructions=instructions)
        again = _call(game=game, turn=turn, agent=agent, role=Call.Role.CORRECTION, seq=2, json_mode=True, chat=chat,
                      messages=[*messages[:-1], {"role": "user", "content": fix}])
        waited += again.latency_ms
        second = None
        if again.ok:
            second = reply_judge(game=game, turn=turn, agent=agent, call=again, names=names, pool=pool, seq=3, chat=chat)
            waited += second.judge_ms
        if second is not None and second.passed:
            accepted, corrected = (again, second), True
        else:
            if again.ok:
                again.penalised = True
                again.save(update_fields=["penalised"])
            rule, reason = (second.rule, second.reason) if second else (decision.rule, f"{decision.reason}; the correction got no reply")
            return None, waited, Penalty(turn=turn, agent=agent, rule=rule, reason=reason)
    call, verdict = accepted
    target = agents[verdict.vote.target]
    said = [item["reason"] for item in items if item["kind"] == "said" and item["author"] == target.name]
    return None, waited, Vote(turn=turn, voter=agent, target=target, call=call, reason=verdict.vote.reason,
                              corrected=corrected,
                              grounded=grounded(reason=verdict.vote.reason, target=target.name, target_texts=said))


def _turn_end(*, game_id: int, turn: Turn, agents: dict[str, Agent], error, record, chain: bool, start: float,
              waited: float) -> Turn:
    """The turn's outcome in one transaction under the game's lock: its vote or penalty, the counter it
    moves, the turn's status and the platform's own time, the end (votes or cap), the next turn."""
    from tables.tasks import turn_task

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if isinstance(record, Vote):
            record.save()
            Agent.objects.filter(pk=record.target_id).update(received_count=F("received_count") + 1)
            agents[record.target.name].received_count += 1
        elif isinstance(record, Penalty):
            record.save()
            Agent.objects.filter(pk=record.agent_id).update(penalties_count=F("penalties_count") + 1)
            agents[record.agent.name].penalties_count += 1
        game.turns_played = turn.number + 1
        losers = [name for name, n in tally_of(game, agents).items() if n >= game.end_votes]
        if losers:
            game.status, game.outcome, game.ended_at = Game.Status.FINISHED, Game.Outcome.LOSER, timezone.now()
            game.loser = agents[losers[0]]
        elif game.turns_played >= game.max_turns:
            game.status, game.outcome, game.ended_at = Game.Status.FINISHED, Game.Outcome.DRAW, timezone.now()
        game.save(update_fields=["turns_played", "status", "outcome", "ended_at", "loser"])
        turn.status = Turn.Status.FAILED if error else Turn.Status.DONE
        turn.error = (error or "")[:2000]
        turn.ended_at = timezone.now()
        turn.platform_ms = max(0.0, (time.perf_counter() - start) * 1000 - waited)  # all but this commit
        turn.save(update_fields=["status", "error", "platform_ms", "ended_at"])
        if chain and not game.finished:
            enqueue_on_commit(turn_task, game.pk, game.turns_played)
    notify.turn_played(game, turn)
    return turn


def game_play(*, game_id: int, chat=engine_chat) -> Game:
    """Play a started game to its end in this thread (the command; tests)."""
    game = Game.objects.get(pk=game_id)
    while game.status == Game.Status.RUNNING:
        if turn_play(game_id=game_id, number=game.turns_played, chain=False, chat=chat) is None:
            break
        game.refresh_from_db()
    return game
