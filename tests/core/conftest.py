"""Fixtures of the core tests."""

from tests.e2e.conftest import browser  # noqa: F401  the module-scoped Chromium fixture, for the browser tests here
