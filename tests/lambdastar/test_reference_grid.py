"""Toroidal grid, neighbourhoods, reward field and approach rule, checked by hand."""

import numpy as np

from lambdastar.engine.grid import approach, coordinates, neighbourhood_table, reward_field


def test_neighbourhood_order_wraps_around_the_torus():
    nb = neighbourhood_table(4)
    # cell 1 is the top-left corner of a 4x4 grid: rows/columns wrap to the far side
    assert nb[1].tolist() == [16, 13, 14, 4, 1, 2, 8, 5, 6]
    # an interior cell: up-left, up, up-right, left, centre, right, down-left, down, down-right
    assert nb[6].tolist() == [1, 2, 3, 5, 6, 7, 9, 10, 11]
    # bottom-right corner
    assert nb[16].tolist() == [11, 12, 9, 15, 16, 13, 3, 4, 1]


def test_three_by_three_neighbourhood_is_the_whole_grid():
    nb = neighbourhood_table(3)
    for c in range(1, 10):
        assert sorted(nb[c].tolist()) == list(range(1, 10))


def test_reward_field_on_a_5x5_grid():
    f = reward_field(5, good=7, evil=19).reshape(-1)[1:].reshape(5, 5)
    # Good at row 1, column 1 (0-based), Evil at row 3, column 3: the two 3x3 patches
    # overlap on (2, 2), which is worth 0.5 - 0.5 = 0.
    expected = np.array(
        [
            [0.5, 0.5, 0.5, 0.0, 0.0],
            [0.5, 1.0, 0.5, 0.0, 0.0],
            [0.5, 0.5, 0.0, -0.5, -0.5],
            [0.0, 0.0, -0.5, -1.0, -0.5],
            [0.0, 0.0, -0.5, -0.5, -0.5],
        ]
    )
    assert np.array_equal(f, expected)
    assert f.sum() == 0.0


def test_reward_field_wraps_and_sums_overlaps():
    f = reward_field(4, good=1, evil=11)
    # Good on the corner: its wrapped neighbours 16, 13, 4 get +0.5 ...
    assert f[16] == 0.0 and f[13] == 0.5 and f[4] == 0.5
    # ... and cell 16 is also Evil's neighbour (-0.5): overlaps add up
    assert f[1] == 1.0 and f[11] == -1.0
    # the iteration-1 quirk field: Good and Evil both on cell 1
    q = reward_field(10, good=1, evil=1)
    assert q[1] == -0.5 and np.count_nonzero(q) == 1


def test_approach_takes_one_king_step_along_the_shortest_torus_path():
    n = 10
    nb = neighbourhood_table(n)
    row, col = coordinates(n)
    h = n // 2
    assert approach(nb, row, col, h, 1, 23) == 12  # down-right
    assert approach(nb, row, col, h, 1, 100) == 100  # wrap up-left
    assert approach(nb, row, col, h, 1, 9) == 10  # 8 columns right = 2 left (wrap)
    assert approach(nb, row, col, h, 1, 6) == 2  # tie at n/2: direct direction
    assert approach(nb, row, col, h, 55, 55) == 55  # already there: stay
