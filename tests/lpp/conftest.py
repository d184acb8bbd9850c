from pathlib import Path

import pytest

from tests.data_files import LOEBNER2012 as DATA


@pytest.fixture
def data_dir() -> Path:
    if not DATA.is_dir():
        pytest.fail(f"the 2012 logs are missing from {DATA} (see tests/data/README.md)")
    return DATA
