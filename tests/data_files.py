"""Where the project's shared test data lives: ../shared/data beside the checkout (SHARED_DIR overrides)."""

import os
from pathlib import Path

SHARED_DIR = Path(os.environ.get("SHARED_DIR", Path(__file__).resolve().parents[2] / "shared"))
DATA = SHARED_DIR / "data"
LAMBDASTAR = DATA / "lambdastar"
LOEBNER2012 = DATA / "loebner2012"
