from pathlib import Path

import pytest

from tests.shared_data import LOEBNER2012 as DATA


@pytest.fixture
def data_dir() -> Path:
    if not DATA.is_dir():
        pytest.fail(f"shared 2012 logs not found at {DATA} (set SHARED_DIR)")
    return DATA
