"""The engine's tests start once the run's compiled kernels are in numba's cache (tests/prebuild.py)."""

import pytest


@pytest.fixture(scope="session", autouse=True)
def _kernels_first(compiled_kernels):
    """Compiling the kernels in every test process at once would cost each the minute and a half."""
