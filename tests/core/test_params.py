"""Numeric request parameters and settings are finite and bounded: one parser for each, clear refusals."""

import runpy
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.errors import InvalidInput
from core.params import number_param

ROOT = Path(__file__).resolve().parents[2]
BAD = ["nan", "NaN", "inf", "-inf", "1e309", "-1", "abc", "", " ", "0x10", "2.5s", "11"]


@pytest.mark.parametrize("raw", BAD)
def test_a_parameter_that_is_not_a_finite_number_within_its_bounds_is_refused(raw):
    with pytest.raises(InvalidInput) as refused:
        number_param({"wait": raw}, "wait", default=0.0, minimum=0.0, maximum=10.0)
    assert str(refused.value) == "wait must be a number from 0 to 10." and refused.value.code == "bad_parameter"


def test_good_parameters_and_the_default():
    assert number_param({}, "wait", default=3.0, minimum=0.0, maximum=10.0) == 3.0
    assert number_param({"wait": "2.5"}, "wait", minimum=0.0, maximum=10.0) == 2.5
    assert number_param({"wait": "10"}, "wait", minimum=0.0, maximum=10.0) == 10.0
    assert number_param({"wait": "1e9"}, "wait", minimum=0.0, maximum=10.0, cap=True) == 10.0  # capped
    with pytest.raises(InvalidInput):
        number_param({"wait": "1e309"}, "wait", minimum=0.0, maximum=10.0, cap=True)  # inf is never capped
    assert number_param({"run": "7"}, "run", minimum=1, maximum=2**63 - 1, integer=True) == 7
    for raw in ("7.5", "0", "9" * 30):
        with pytest.raises(InvalidInput):
            number_param({"run": raw}, "run", minimum=1, maximum=2**63 - 1, integer=True)


def settings_from(monkeypatch, **environ):
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "config" / "settings.py"))


@pytest.mark.parametrize(
    "name, raw",
    [
        ("ARENA_PULL_MAX_WAIT_S", "1e9"),
        ("ARENA_PULL_POLL_S", "0"),
        ("ARENA_PULL_POLL_S", "nan"),
        ("ARENA_RATE_MESSAGE_BURST", "0"),
        ("ARENA_RATE_MESSAGE_BURST", "1e3"),
        ("ARENA_RATE_MESSAGE_PER_S", "inf"),
        ("ARENA_RATE_MESSAGE_PER_USER", "-1"),
        ("ARENA_RATE_TYPING_BURST", "99999999"),
        ("ARENA_RATE_TYPING_PER_S", "1e309"),
        ("ARENA_RATE_TYPING_PER_USER", "abc"),
        ("ARENA_RATE_WINDOW_S", "86400"),
    ],
)
def test_the_hardening_settings_are_finite_and_bounded(monkeypatch, name, raw):
    with pytest.raises(ImproperlyConfigured) as refused:
        settings_from(monkeypatch, **{name: raw})
    assert str(refused.value).startswith(f"{name}={raw!r}: ")


def test_the_rate_limits_come_from_the_environment(monkeypatch):
    values = settings_from(
        monkeypatch,
        ARENA_RATE_MESSAGE_BURST="7",
        ARENA_RATE_TYPING_PER_S="12.5",
        ARENA_RATE_MESSAGE_PER_USER="90",
        ARENA_RATE_WINDOW_S="30",
        ARENA_PULL_POLL_S="0.25",
    )
    assert (
        values["ARENA_RATE_MESSAGE_BURST"],
        values["ARENA_RATE_TYPING_PER_S"],
        values["ARENA_RATE_MESSAGE_PER_USER"],
        values["ARENA_RATE_WINDOW_S"],
        values["ARENA_PULL_POLL_S"],
    ) == (7, 12.5, 90, 30, 0.25)
