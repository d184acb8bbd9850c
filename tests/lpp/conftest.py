from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "loebner2012"


@pytest.fixture
def data_dir() -> Path:
    if not DATA.is_dir():
        pytest.skip(f"shared 2012 logs not found at {DATA}")
    return DATA
