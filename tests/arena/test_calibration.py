"""Calibration bins: observed frequencies of the event among forecasts near p, with Wilson intervals."""

import pytest

from arena.stats import calibration_bins, wilson_interval


def test_forecasts_fall_in_equal_bins_with_wilson_intervals():
    table = calibration_bins([0.05, 0.1, 0.95, 0.9, 1.0, 0.5], [0, 1, 1, 1, 0, 1], bins=2)
    low, high = table
    assert (low.n, low.observed, low.mean_forecast) == (2, 0.5, pytest.approx(0.075))
    assert (high.n, high.observed) == (4, 0.75)  # 0.5 and 1.0 land in the upper bin
    assert (high.ci_low, high.ci_high) == pytest.approx(wilson_interval(3, 4))


def test_an_empty_bin_knows_nothing_and_bad_input_is_refused():
    [empty, full] = calibration_bins([0.9], [1], bins=2)
    assert (empty.n, empty.observed, empty.ci_low, empty.ci_high) == (0, None, 0.0, 1.0)
    with pytest.raises(ValueError):
        calibration_bins([1.2], [1])
    with pytest.raises(ValueError):
        calibration_bins([0.5], [2])
