"""Paper rule set: Q-learning and SARSA update towards the correct next state (cell, i+1)."""

import numpy as np
import pytest

from lambdastar.engine.paper.learning import QL, SARSA, train_session
from lambdastar.engine.paper.streams import new_stream
from lambdastar.engine.paper.world import geometry

RIGHT = 5


@pytest.mark.parametrize("kind", [QL, SARSA])
def test_one_session_bootstraps_from_the_next_iterations_row(kind):
    geo = geometry(5, 5)
    start, nxt = 12, 13  # RIGHT from the centre of a 5×5 grid
    good = np.array([0, nxt, nxt])  # Good waits on 13: reward 1 there at iteration 1
    evil = np.array([4, 4, 4])  # row 0, col 4: distance 2 from 12 and 13
    q = np.zeros((1, 2, 25, 9))
    q[0, 0, start, RIGHT] = 1.0  # greedy first move: right
    q[0, 1, nxt, :] = [0.1, 0.2, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]  # next state's row: max 0.8 (up-right)
    q[0, 0, nxt, :] = 5.0  # a wrong row (same cell, same iteration) must not be used
    pos = np.empty(1, dtype=np.int64)
    train_session(
        new_stream(0, 1, 0),
        kind,
        q,
        geo,
        good,
        evil,
        np.array([start]),
        2,
        1,
        False,
        0.3,
        0.3,
        0.0,
        pos,
        pos.copy(),
        pos.copy(),
        np.empty(1),
    )
    r1 = 1.0  # on Good's cell
    assert q[0, 0, start, RIGHT] == pytest.approx(1.0 + 0.3 * (r1 + 0.3 * 0.8 - 1.0))
    # Second (last) step: from 13 up-right to 9 (row 1, col 4): distance 1 from Good (0.5) and
    # 1 from Evil (−0.5) → reward 0, nothing to bootstrap after the last iteration.
    assert pos[0] == 9
    assert q[0, 1, nxt, 2] == pytest.approx(0.8 + 0.3 * (0.0 - 0.8))
    assert q[0, 0, nxt, 0] == 5.0  # untouched
