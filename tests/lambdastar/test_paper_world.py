"""Paper rule set: torus geometry, observation range, collisions, coordination, Good/Evil patterns."""

import numpy as np

from lambdastar.engine.paper.patterns import episode_world, planned_complexity, realise_paths
from lambdastar.engine.paper.streams import new_stream
from lambdastar.engine.paper.world import geometry, group_rewards, observation


def test_range_1_observation_wraps_on_a_non_square_torus():
    # width 4, height 3: cell 0 is row 0, column 0; its up-left neighbour is row 2, column 3 = 11.
    cells, rewards = observation(0, good=5, evil=10, k=1, width=4, height=3)
    assert cells.tolist() == [11, 8, 9, 3, 0, 1, 7, 4, 5]
    # Good on 5 (row 1, col 1): 1 there, 0.5 on its neighbours; Evil on 10 (row 2, col 2):
    # −1 there, −0.5 on its neighbours (toroidal Chebyshev distance, worked out independently).
    expected = []
    for c in cells:

        def d(a, b):
            dr = abs(a // 4 - b // 4)
            dc = abs(a % 4 - b % 4)
            return max(min(dr, 3 - dr), min(dc, 4 - dc))

        def part(x):
            return 1.0 if x == 0 else 0.5 if x == 1 else 0.0

        expected.append(part(d(c, 5)) - part(d(c, 10)))
    assert rewards.tolist() == expected
    assert rewards[cells.tolist().index(5)] == 1.0 - 0.5  # Good's cell is next to Evil


def test_range_2_observation_sees_25_cells_by_hand():
    cells, rewards = observation(0, good=12, evil=3, k=2, width=5, height=5)
    assert sorted(cells.tolist()) == list(range(25))  # 5×5 window = the whole grid
    assert cells[:5].tolist() == [18, 19, 15, 16, 17]  # row −2 = row 3, columns −2…2
    assert rewards[cells.tolist().index(12)] == 1.0  # Good
    assert rewards[cells.tolist().index(3)] == -1.0  # Evil
    assert rewards[cells.tolist().index(0)] == 0.0  # 2 from Good, 2 from Evil (wrapping)


def test_collision_one_of_them_keeps_its_cell_at_random():
    # 5×5: Good goes 6 → 7, Evil goes 8 → 7 at the first iteration.
    outcomes = set()
    for episode in range(200):
        good = np.empty(4, dtype=np.int64)
        evil = np.empty(4, dtype=np.int64)
        n = realise_paths(new_stream(1, 0, episode), np.array([7, 6]), 2, np.array([7, 8]), 2, 3, True, good, evil)
        assert n >= 1
        assert all(g != e for g, e in zip(good, evil))
        if good[1] == 7:
            assert evil[1] == 8  # Evil kept its old cell
            outcomes.add("good")
        else:
            assert (good[1], evil[1]) == (6, 7)
            outcomes.add("evil")
    assert outcomes == {"good", "evil"}


def test_a_pausing_object_keeps_its_cell():
    good = np.empty(6, dtype=np.int64)
    evil = np.empty(6, dtype=np.int64)
    realise_paths(new_stream(1, 0, 0), np.array([7]), 1, np.array([7, 8]), 2, 5, True, good, evil)
    assert good.tolist() == [7] * 6 and evil.tolist() == [8] * 6
    realise_paths(new_stream(1, 0, 0), np.array([7]), 1, np.array([7, 8]), 2, 5, False, good, evil)
    assert evil.tolist() == [8, 7, 8, 7, 8, 7]  # "none": Evil walks through Good


def test_good_and_evil_differ_but_are_equally_complex():
    for episode in range(60):
        k, good, evil, starts = episode_world(3, episode, 10, 10, 50, 5, 2, 26, collide=False)
        assert planned_complexity(good) == planned_complexity(evil) == k
        assert not np.array_equal(good, evil) and good[0] != evil[0]
        assert len(set(starts.tolist())) == 5
    ks = [episode_world(3, e, 10, 10, 50, 5, 2, 26)[0] for e in range(25)]
    assert sorted(ks) == list(range(2, 27))  # the band is swept evenly


def test_collision_rule_keeps_them_apart_in_generated_worlds():
    for episode in range(300):
        _, good, evil, _ = episode_world(5, episode, 4, 4, 30, 2, 2, 6)
        assert np.all(good != evil)


def test_coordination_pays_good_only_to_two_or_more_agents():
    geo = geometry(5, 5)
    out = np.empty(2)
    # Good on 12 (centre), Evil on 0: agents on 12 and 13 are both next to Good.
    assert group_rewards(geo, np.array([12, 13]), 2, 12, 0, False, out) == 1.5
    assert group_rewards(geo, np.array([12, 13]), 2, 12, 0, True, out) == 1.5
    # Only one agent near Good: without coordination it earns 1, with coordination nothing;
    # the other agent (on 24, next to Evil across the wrap) still pays Evil's −0.5.
    group_rewards(geo, np.array([12, 24]), 2, 12, 0, False, out)
    assert out.tolist() == [1.0, -0.5]
    group_rewards(geo, np.array([12, 24]), 2, 12, 0, True, out)
    assert out.tolist() == [0.0, -0.5]
