"""Playing turns, and a whole game.

A turn is claimed by inserting its row (unique per game and number, so a task delivered twice plays
it once); the calls run outside any transaction and their rows are kept in memory; the outcome (the
turn's calls and verdicts, its vote or penalty, the counter it moves, the end) is written in one
transaction that moves the game on only from this very turn, so nothing is accepted after the end and
a turn taken over by another worker (after it went stale) is not written twice. A reply that never
comes (after the gateway's retries) is recorded on the turn, which counts towards the cap, so a game
always ends.

A task plays its game's turns one after another for up to :data:`TASK_SLICE_S` (at least one turn),
keeping the game's :class:`~tables.services.context.Table` in memory, then enqueues the next turn, so
that many games share the workers; a fresh task reads its table once. In a running turn nothing of
the history is read again: a warm turn's own statements are its claim, the gateway's per call and the
outcome's transaction."""

import time
from datetime import timedelta

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from arena.services import results_version_bump
from arena.services.engines import BREAKER_OPEN, engine_chat
from core.db import Add, insert_statement, inserted, statements_run, update_where
from core.dispatch import enqueue_now, enqueue_on_commit
from tables import notify
from tables.models import Agent, Call, Game, Penalty, Turn, Verdict, Vote
from tables.rules import prompts
from tables.rules.metrics import grounded
from tables.rules.votes import ADHERENCE
from tables.services import context
from tables.services.context import Table, table_load, turn_items
from tables.services.judging import call_build, reply_judge, rule_text

# A turn still "running" after this long was left by a dead worker (Celery kills a task at 300 s).
STALE_TURN_S = 330
# A task plays turns of its game for this long (at least one), then hands the game back to the queue.
TASK_SLICE_S = 1.0


class TurnLost(Exception):
    """The turn was taken over (it went stale and another worker played it): nothing of it is written."""


def _insert(turn: Turn) -> None:
    """INSERT the turn's row; inside a caller's transaction (a test's) in a savepoint, which a duplicate
    leaves usable; in autocommit (a task) one statement."""
    if connection.in_atomic_block:
        with transaction.atomic():
            turn.save(force_insert=True)
    else:
        turn.save(force_insert=True)


def _new_turn(table: Table, number: int) -> Turn:
    game = table.game
    agent = table.agents[game.order[number % len(game.order)]]
    phase = Turn.Phase.OPENING if number < len(game.order) else Turn.Phase.VOTE
    return Turn(game=game, number=number, agent=agent, phase=phase)


def _claim(game_id: int, number: int, table: Table | None, resume: bool = False) -> tuple[Table, Turn] | None:
    """The table (read once per task) and the running turn: the one this task claimed with its previous
    turn's outcome, else a new row; None when it is not this turn's time. ``resume``: a task that finds
    its game moved past ``number`` (its worker died after some turns and the task came again) claims the
    game's current turn instead. Raises IntegrityError while the turn is in play elsewhere."""
    if table is not None and table.claimed is not None and table.claimed.number == number == table.number:
        turn, table.claimed = table.claimed, None
        return table, turn
    if table is None or table.number != number:
        table = table_load(game_id=game_id, number=number, resume=resume)
        if table is None:
            return None
        number = table.number
    game = table.game
    turn = _new_turn(table, number)
    try:
        _insert(turn)
    except IntegrityError:
        # a turn left half-played by a dead worker (its task comes again, or the next delivery): played anew;
        # a task delivered twice while its turn plays: the turn row exists, IntegrityError
        stale = timezone.now() - timedelta(seconds=STALE_TURN_S)
        left = Turn.objects.filter(game=game, number=number, status=Turn.Status.RUNNING, started_at__lt=stale)
        if not left.delete()[0]:
            raise
        turn = _new_turn(table, number)
        _insert(turn)
    return table, turn


def _call(*, game, turn, agent, role, seq, messages, json_mode, chat) -> Call:
    # flush=False: the call's log need not wait for its own WAL flush; the turn's outcome, committed after
    # (or the claim's takeover, if this worker dies), is what must last, and its commit flushes the log too
    reply = chat(
        entry=agent.entry,
        messages=messages,
        json_mode=json_mode,
        flush=False,
        subject=f"tables game {game.pk} turn {turn.number} {agent.name} {role}",
    )
    return call_build(turn=turn, agent=agent, role=role, seq=seq, messages=messages, reply=reply)


def turn_play(*, game_id: int, number: int, chain: bool = True, chat=engine_chat) -> Turn | None:
    """Play turn ``number`` of the game; None when it is not this turn's time (over, already played).
    ``chain``: enqueue the next turn on commit (the Celery path)."""
    turn, table = _turn_play(
        game_id=game_id, number=number, table=None, chain=chain, chat=chat, claim_next=lambda: False
    )
    if chain and turn is not None and not table.game.finished:
        from tables.tasks import turn_task

        enqueue_on_commit(turn_task, game_id, table.number)
    return turn


def turns_run(*, game_id: int, number: int, slice_s: float = TASK_SLICE_S, chat=engine_chat) -> int:
    """A task's work: play the game's turns from ``number`` on for up to ``slice_s`` seconds (at least
    one), keeping the table in memory, each turn's outcome claiming the next while the slice lasts; then
    enqueue the next turn on commit. A task that comes again after its worker died mid-slice resumes
    at the game's current turn (taken over once stale, as any turn left by a dead worker). Returns the
    turns played."""
    from tables.tasks import turn_task

    deadline, played, table = time.monotonic() + slice_s, 0, None
    while True:
        turn, table = _turn_play(
            game_id=game_id,
            number=number,
            table=table,
            chain=True,
            chat=chat,
            claim_next=lambda: time.monotonic() < deadline,
            resume=not played,
        )
        if turn is None:
            return played
        played += 1
        if table.game.finished:
            return played
        number = table.number
        if table.claimed is None:
            enqueue_on_commit(turn_task, game_id, number)
            return played


def game_play(*, game_id: int, chat=engine_chat) -> Game:
    """Play a started game to its end in this thread (the command; tests)."""
    game = Game.objects.get(pk=game_id)
    number, table = game.turns_played, None
    while game.status == Game.Status.RUNNING:
        turn, table = _turn_play(
            game_id=game_id, number=number, table=table, chain=False, chat=chat, claim_next=lambda: True
        )
        if turn is None:
            break
        game, number = table.game, table.number
    return Game.objects.get(pk=game_id)


def _turn_play(
    *, game_id: int, number: int, table: Table | None, chain: bool, chat, claim_next, resume: bool = False
) -> tuple[Turn | None, Table | None]:
    """``claim_next()``, asked at the turn's end: whether the turn's outcome claims the next turn for this
    caller, which then plays it."""
    start, waited = time.perf_counter(), 0.0
    try:
        claimed = _claim(game_id, number, table, resume)
    except IntegrityError:  # the turn is being played: if that stops, this comes back once it is stale
        if chain:
            from tables.tasks import turn_task

            enqueue_now(turn_task, game_id, number, countdown=STALE_TURN_S + 1)
        return None, None
    if claimed is None:
        return None, None
    table, turn = claimed
    number = turn.number
    game, agent, rows = table.game, turn.agent, []
    record = None
    if turn.phase == Turn.Phase.OPENING:
        messages = context.opening_messages(game=game, name=agent.name, items=table.items)
        call = _call(
            game=game,
            turn=turn,
            agent=agent,
            role=Call.Role.OPENING,
            seq=0,
            json_mode=False,
            chat=chat,
            messages=messages,
        )
        rows.append(call)
        waited += call.waited_ms
        outcome = None if call.ok else call.error
        if call.ok and getattr(call, "cut_from", 0):
            waited, record = _opening_correct(
                game=game, turn=turn, agent=agent, first=call, messages=messages, rows=rows, chat=chat, waited=waited
            )
    else:
        messages = context.vote_messages(
            game=game, name=agent.name, items=table.items, number=number, tally=table.tally()
        )
        outcome, waited, record = _vote_turn(
            table=table, turn=turn, agent=agent, messages=messages, rows=rows, chat=chat, waited=waited
        )
    try:
        _turn_end(
            table=table,
            turn=turn,
            rows=rows,
            error=outcome,
            record=record,
            start=start,
            waited=waited,
            claim_next=claim_next(),
        )
    except TurnLost:
        return None, None
    return turn, table


def _opening_correct(*, game, turn, agent, first, messages, rows, chat, waited):
    """An opening over the length rule: withheld, one correction asked for; a correction over the rule too
    (or none) costs a penalty. Returns the time waited and the penalty, or None when the correction stands."""
    limit = agent.entry.settings.get("max_reply_chars", len(first.text))
    first.penalised = True
    fix = prompts.opening_correction_prompt(
        name=agent.name, chars=first.cut_from, limit=limit, instructions=messages[-1]["content"]
    )
    again = _call(
        game=game,
        turn=turn,
        agent=agent,
        role=Call.Role.CORRECTION,
        seq=1,
        json_mode=False,
        chat=chat,
        messages=[*messages[:-1], {"role": "user", "content": fix}],
    )
    rows.append(again)
    waited += again.waited_ms
    if again.ok and not getattr(again, "cut_from", 0):
        return waited, None
    if again.ok:
        again.penalised = True
    reason = f"the opening statement was {first.cut_from:,} characters long, over the {limit:,} allowed" + (
        f"; its correction was {again.cut_from:,}" if again.ok else "; the correction got no reply"
    )
    return waited, Penalty(turn=turn, agent=agent, rule=ADHERENCE, reason=reason)


def _vote_turn(*, table: Table, turn, agent, messages, rows, chat, waited):
    game, names = table.game, list(table.game.order)
    first = _call(
        game=game, turn=turn, agent=agent, role=Call.Role.VOTE, seq=0, messages=messages, json_mode=True, chat=chat
    )
    rows.append(first)
    waited += first.waited_ms
    if not first.ok:
        return first.error or "no reply", waited, None
    decision = reply_judge(
        game=game, turn=turn, agent=agent, call=first, names=names, earlier=table.earlier, seq=1, rows=rows, chat=chat
    )
    waited += decision.judge_ms
    accepted, corrected = (first, decision), False
    if not decision.passed:
        first.penalised = True
        instructions = messages[-1]["content"]
        fix = prompts.correction_prompt(
            name=agent.name,
            failed_reply=first.text,
            rule=rule_text(decision.rule),
            reason=decision.reason,
            instructions=instructions,
        )
        again = _call(
            game=game,
            turn=turn,
            agent=agent,
            role=Call.Role.CORRECTION,
            seq=2,
            json_mode=True,
            chat=chat,
            messages=[*messages[:-1], {"role": "user", "content": fix}],
        )
        rows.append(again)
        waited += again.waited_ms
        second = None
        if again.ok:
            second = reply_judge(
                game=game,
                turn=turn,
                agent=agent,
                call=again,
                names=names,
                earlier=table.earlier,
                seq=3,
                rows=rows,
                chat=chat,
            )
            waited += second.judge_ms
        if second is not None and second.passed:
            accepted, corrected = (again, second), True
        else:
            if again.ok:
                again.penalised = True
            rule, reason = (
                (second.rule, second.reason)
                if second
                else (decision.rule, f"{decision.reason}; the correction got no reply")
            )
            return None, waited, Penalty(turn=turn, agent=agent, rule=rule, reason=reason)
    call, verdict = accepted
    target = table.agents[verdict.vote.target]
    return (
        None,
        waited,
        Vote(
            turn=turn,
            voter=agent,
            target=target,
            call=call,
            reason=verdict.vote.reason,
            corrected=corrected,
            grounded=grounded(
                reason=verdict.vote.reason, target=target.name, target_texts=table.said.get(target.name, [])
            ),
        ),
    )


def _silent(game: Game, agents: dict, calls: list[Call]) -> list[str]:
    """The agents that never answered in the game (no call of theirs got a reply), this turn's calls
    included; read once, at the game's end."""
    answered = set(
        Call.objects.filter(turn__game=game, agent__isnull=False, ok=True).values_list("agent__name", flat=True)
    )
    answered |= {c.agent.name for c in calls if c.ok and c.agent is not None}
    return [name for name in game.order if name not in answered]


def _game_after(game: Game, agents: dict, tally: dict, turn: Turn, error, calls: list[Call]) -> tuple:
    """The game's status, outcome, end time, loser and void reason once ``turn`` is played: void at once when
    the turn's call was refused by an open circuit breaker (its agent's calls failed past it), and void
    instead of any other end when an agent never answered; else finished with a loser when an agent has
    ``end_votes`` votes against it, a draw at ``max_turns``, or still running."""
    if error == BREAKER_OPEN:
        reason = f"{turn.agent.name}'s calls failed past the circuit breaker (its server kept failing)"
        return Game.Status.FINISHED, Game.Outcome.VOID, timezone.now(), None, reason
    losers = [name for name, n in tally.items() if n >= game.end_votes]
    if losers or turn.number + 1 >= game.max_turns:
        silent = _silent(game, agents, calls)
        if silent:
            reason = f"{', '.join(silent)} never answered"
            return Game.Status.FINISHED, Game.Outcome.VOID, timezone.now(), None, reason[:300]
    if losers:
        return Game.Status.FINISHED, Game.Outcome.LOSER, timezone.now(), agents[losers[0]], ""
    if turn.number + 1 >= game.max_turns:
        return Game.Status.FINISHED, Game.Outcome.DRAW, timezone.now(), None, ""
    return Game.Status.RUNNING, Game.Outcome.NONE, None, None, ""


def _turn_end(
    *, table: Table, turn: Turn, rows: list, error, record, start: float, waited: float, claim_next: bool = False
) -> None:
    """The turn's outcome in one transaction: the game moves on from this turn only (else TurnLost, and
    nothing is written), the turn's calls and verdicts (two inserts), its vote or penalty and the counter
    it moves, with ``claim_next`` the next turn's claim (its row, running: one commit a turn, not two),
    the turn's status and the platform's own time. Then the table takes the turn in (and the claimed
    next turn, :attr:`Table.claimed`, which only this caller plays; if it dies, the claim goes stale
    and another worker takes the turn over)."""
    game, agents = table.game, table.agents
    moved = agents[record.target.name if isinstance(record, Vote) else record.agent.name] if record else None
    tally = table.tally()
    if moved is not None:
        tally[moved.name] += 1
    calls = [row for row in rows if isinstance(row, Call)]
    status, outcome, ended_at, loser, void_reason = _game_after(game, agents, tally, turn, error, calls)
    verdicts = [row for row in rows if isinstance(row, Verdict)]
    with transaction.atomic():
        # two round trips where the database takes several statements at once (core.db.statements_run):
        # the game moved on from this turn only, with the turn's calls (their keys, for what refers to them);
        # then the verdicts, the vote or penalty with the counter it moves, and the next turn's claim
        first = [
            update_where(
                Game,
                {"id": game.pk, "status": Game.Status.RUNNING, "turns_played": turn.number},
                turns_played=turn.number + 1,
                status=status,
                outcome=outcome,
                ended_at=ended_at,
                loser=loser,
                void_reason=void_reason,
            )
        ]
        if calls:
            first.append(insert_statement(calls, returning_pk=True))
        done = statements_run(first)
        if not done[0][0]:
            raise TurnLost
        if calls:
            inserted(calls, done[1][1])
        saved, second = [], []
        if verdicts:
            saved.append(verdicts)
            second.append(insert_statement(verdicts, returning_pk=True))
        if record is not None:
            saved.append([record])
            second.append(insert_statement([record], returning_pk=True))
            counter = "received_count" if isinstance(record, Vote) else "penalties_count"
            second.append(update_where(Agent, {"id": moved.pk}, **{counter: Add()}))
            if isinstance(record, Vote):
                results_version_bump()  # the vote counts on the results pages once this commits
        if outcome == Game.Outcome.VOID:
            results_version_bump()  # the game's votes leave the results pages once this commits
        claimed = None
        if claim_next and status == Game.Status.RUNNING:
            # turns_played moved from this turn, under the game's row lock: no row of the next turn exists
            claimed = _new_turn(table, turn.number + 1)
            saved.append([claimed])
            second.append(insert_statement([claimed], returning_pk=True))
        done = iter(statements_run(second))
        for objs in saved:
            inserted(objs, next(done)[1])
            if objs[0] is record:
                next(done)  # the counter
        turn.status = Turn.Status.FAILED if error else Turn.Status.DONE
        turn.error = (error or "")[:2000]
        turn.ended_at = timezone.now()
        # the platform's own time: all but the calls, this statement and the commit
        turn.platform_ms = max(0.0, (time.perf_counter() - start) * 1000 - waited)
        if not statements_run(
            [
                update_where(
                    Turn,
                    {"id": turn.pk, "status": Turn.Status.RUNNING},
                    status=turn.status,
                    error=turn.error,
                    platform_ms=turn.platform_ms,
                    ended_at=turn.ended_at,
                )
            ]
        )[0][0]:
            raise TurnLost
    if isinstance(record, Vote):
        moved.received_count += 1
    elif isinstance(record, Penalty):
        moved.penalties_count += 1
    game.turns_played, game.status, game.outcome, game.ended_at, game.loser, game.void_reason = (
        turn.number + 1,
        status,
        outcome,
        ended_at,
        loser,
        void_reason,
    )
    table.number, table.claimed = turn.number + 1, claimed
    table.extend(_items(turn, calls, record))
    notify.turn_played(game, turn)


def _items(turn: Turn, calls: list[Call], record) -> list[dict]:
    """The turn's public record, as :func:`context.transcript` reads it back."""
    if isinstance(record, Vote):
        call = record.call
        return turn_items(
            turn.number, said=(call.agent.name, call.text, record.reason), voted=(record.voter.name, record.target.name)
        )
    if isinstance(record, Penalty):
        return turn_items(turn.number, penalised=(record.agent.name, record.rule))
    opening = next(
        (c for c in calls if c.role in (Call.Role.OPENING, Call.Role.CORRECTION) and c.ok and not c.penalised), None
    )
    return turn_items(turn.number, said=(opening.agent.name, opening.text, opening.text)) if opening else []
