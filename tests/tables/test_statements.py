"""The database work of a turn, counted: SQL statements (a figure load does not move) per turn of a game
played as a task plays it (its table kept from turn to turn) and of a turn played by a fresh task.
The bounds are the code's own counts; any statement more is one that every turn of every game pays."""

import pytest
from django.db import connection

from tables.services import game_create, game_play, game_start, turn_play
from tests.chat_stub import ChatStub, vote

pytestmark = pytest.mark.django_db

# Statements of one turn (transaction control aside: BEGIN, COMMIT, savepoints), the gateway's included:
# per call the breaker's read, the call log and the breaker's update; the count does not grow with the
# penalties in the history. A turn played on by the same task
# was claimed by its predecessor's outcome (one commit a turn for it, the gateway's aside), and claims
# the next in its own.
WARM_VOTE = 10  # 3 for the call; the outcome: game, calls, verdicts, vote, counter, the next turn's claim, turn
WARM_CORRECTED = WARM_VOTE + 3  # and the correction's call
FRESH_READS = 4  # a fresh task reads its table: the game, its agents, the openings, the turns
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")
# Round trips where several statements go in one query (PostgreSQL, core.db.statements_run): per call
# the breaker's read and the log with the breaker's update; the outcome: the game with the calls, the
# rest, the turn (one round trip per statement would be 10 for such a turn)
WARM_VOTE_TRIPS = 5
WARM_CORRECTED_TRIPS = WARM_VOTE_TRIPS + 2

SAID = [
    "Alpha paused before answering about weekends.",
    "Gamma described its grandmother's kitchen in detail.",
    "The spelling slip in that last message looked very human.",
    "Nobody who runs on a server needs a nap.",
    "Its jokes about Mondays felt lived rather than generated.",
    "A tokenizer would never hesitate like that.",
    "It asked for coffee twice, which is telling.",
    "Those memories of a rainy childhood were too vivid.",
    "It hedged like a nervous student at an oral exam.",
    "Complaining about a sore back gave it away.",
    "It changed its story about latency between turns.",
    "An idiom about tea betrayed an actual palate.",
]


class Statements:
    """Every statement run (transaction control aside), split into turns at each turn's end (the update of
    its row, the outcome's last statement); the statements after the last turn's end are the last list."""

    def __init__(self):
        self.turns: list[list[str]] = [[]]
        self.trips: list[int] = [0]  # queries sent (several statements may go in one)

    def __call__(self, execute, sql, params, many, context):
        if not sql.startswith(CONTROL):
            self.turns[-1] += [s for s in sql.split("; ") if not s.startswith(("SET LOCAL", *CONTROL))]
            self.trips[-1] += 1
        if sql.startswith('UPDATE "tables_turn"'):
            self.turns.append([])
            self.trips.append(0)
        return execute(sql, params, many, context)


def votes(target, other, offset):
    return [vote(target if i % 2 else other, SAID[(i * 3 + offset) % len(SAID)]) for i in range(4)]


SCRIPTS = {
    "Beta": ["I compute.", *votes("Alpha", "Gamma", 0)],
    "Gamma": ["I never sleep.", *votes("Alpha", "Beta", 1)],
    "Alpha": ["Beep.", vote("Alpha", "me"), *votes("Beta", "Gamma", 2)],
}  # Alpha's first vote: corrected


def test_a_turn_runs_a_bounded_number_of_statements_that_does_not_grow_with_the_game(loopback):
    with ChatStub(SCRIPTS) as stub:
        game = game_create(config=stub.config(max_turns=15, end_votes=50))
        game_start(game_id=game.pk, run=False)
        counted = Statements()
        with connection.execute_wrapper(counted):
            game = game_play(game_id=game.pk)
    assert len(counted.turns[-1]) == 1  # game_play's last statement reads the finished game
    turns = [len(statements) for statements in counted.turns[:-1]]
    assert len(turns) == 15 and not game.turns.filter(penalty__isnull=False).exists()
    corrected = game.turns.get(vote__corrected=True).number  # Alpha's self-vote, corrected (one more call)
    assert turns[corrected] <= WARM_CORRECTED
    assert max(n for i, n in enumerate(turns[3:], start=3) if i != corrected) <= WARM_VOTE
    assert turns[-2] == turns[3]  # nothing of the history is read again as the game goes on
    # the last turn ends the game and claims no next turn, and reads once whether every agent answered
    assert turns[-1] == turns[3]
    if connection.vendor == "postgresql":
        trips = counted.trips[:-1]
        assert trips[corrected] <= WARM_CORRECTED_TRIPS
        assert max(n for i, n in enumerate(trips[3:-1], start=3) if i != corrected) <= WARM_VOTE_TRIPS
        assert trips[-1] <= WARM_VOTE_TRIPS + 1  # the last turn's one read of who answered


def test_a_fresh_task_reads_its_table_once(loopback):
    with ChatStub(SCRIPTS) as stub:
        game = game_create(config=stub.config(max_turns=12, end_votes=50))
        game_start(game_id=game.pk, run=False)
        for number in range(11):
            turn_play(game_id=game.pk, number=number, chain=False)
        counted = Statements()
        with connection.execute_wrapper(counted):
            turn = turn_play(game_id=game.pk, number=11, chain=False)
    assert turn.vote and sum(len(statements) for statements in counted.turns) <= WARM_VOTE + FRESH_READS
