"""Fixtures of the arena tests."""

from tests.arena.flaky import flaky  # noqa: F401  the fixture that installs the scriptable failing engine
