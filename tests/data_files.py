"""The real data the tests and benchmarks read, kept in tests/data/ (its README gives each file's provenance)."""

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
LAMBDASTAR = DATA / "lambdastar"
LOEBNER2012 = DATA / "loebner2012"
LPP2_ROUNDS = DATA / "lpp2"
TRANSCRIPTS = DATA / "transcripts"
